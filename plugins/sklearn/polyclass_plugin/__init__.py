"""polyclass_plugin: write a polyclass learner plugin in Python.

A plugin is an executable named ``bench-plugin-NAME`` in the host's plugins
directory. Its main calls :func:`serve` with a :class:`Learner`::

    from polyclass_plugin import Learner, LearnerInfo, Capabilities, Model, serve

    class Centroid(Learner):
        def info(self):
            return LearnerInfo(name="centroid", version="0.1.0",
                               capabilities=Capabilities(binary=True, scores=True))

        def fit(self, problem, params):
            ...  # problem.X rows, problem.y targets -> a Model

    serve(Centroid())

:func:`serve` speaks hashicorp/go-plugin's handshake (magic cookie, the
``1|1|unix|PATH|grpc`` line on stdout, the socket in the host's private
PLUGIN_UNIX_SOCKET_DIR), serves the gRPC health and
controller services go-plugin asks for, and the polyclass LearnerService:
datasets uploaded in chunks and kept by digest, dense and CSR matrices
(CSR arrives as ``scipy.sparse.csr_matrix``), batch Fit and Predict.

Dependencies are Debian's python3-grpcio, python3-protobuf, python3-numpy
and python3-scipy.
"""

from .learner import (
    BINARY,
    MULTICLASS,
    REGRESSION,
    Capabilities,
    Condition,
    FitInput,
    Learner,
    LearnerInfo,
    Model,
    ParamError,
    ParamSpec,
    where_raised,
)
from .runtime import Component, package
from .serve import COOKIE_KEY, COOKIE_VALUE, PROTOCOL_VERSION, serve

# The kit's version (the runtime report names it polyclass-plugin).
__version__ = "0.2.0"

__all__ = [
    "BINARY",
    "MULTICLASS",
    "REGRESSION",
    "COOKIE_KEY",
    "COOKIE_VALUE",
    "PROTOCOL_VERSION",
    "Capabilities",
    "Component",
    "Condition",
    "FitInput",
    "Learner",
    "LearnerInfo",
    "Model",
    "ParamError",
    "ParamSpec",
    "package",
    "serve",
    "where_raised",
]
