"""The runtime report: the software a plugin computes with.

A plugin's file says nothing of the scikit-learn or numpy it imports; the
host asks (LearnerInfo.runtime in the protocol), shows the answer in
``bench plugins`` and records it in every run's manifest. :func:`serve`
sends :func:`base` (the interpreter, this kit, numpy and scipy) followed by
the components of the learner's :attr:`LearnerInfo.runtime`.
"""

import importlib.metadata
import platform
import sys
from dataclasses import dataclass

__all__ = ["Component", "base", "interpreter", "package"]


@dataclass(frozen=True)
class Component:
    """One piece of software a plugin computes with.

    ``name`` is ``"python"`` or a distribution's name as pip knows it
    (``"scikit-learn"``, ``"numpy"``); ``version`` its version, ``""`` when
    it has none; ``path`` where it is installed, when that tells two
    installations apart (the interpreter's executable). The path is for
    people: two installations of one version compute the same numbers.
    """

    name: str
    version: str = ""
    path: str = ""


def package(distribution: str, module: str = "") -> Component:
    """The component of an installed package: ``package("scikit-learn",
    "sklearn")``. Its version is the one the imported module says
    (``module.__version__``, the code that runs) when ``module`` is given
    and imported, else the installed distribution's (its metadata, read
    without importing it), else ``""`` for a package that is not
    installed."""
    mod = sys.modules.get(module) if module else None
    version = getattr(mod, "__version__", None)
    if not isinstance(version, str):
        try:
            version = importlib.metadata.version(distribution)
        except importlib.metadata.PackageNotFoundError:
            version = ""
    return Component(distribution, version)


def interpreter() -> Component:
    """The Python interpreter running the plugin: its implementation
    ("python" for CPython), version and executable."""
    impl = platform.python_implementation()
    name = "python" if impl == "CPython" else impl.lower()
    return Component(name, platform.python_version(), sys.executable)


def base():
    """What every kit plugin computes with: the interpreter, this kit, and
    numpy and scipy, which hold its data."""
    from . import __version__

    return [interpreter(), Component("polyclass-plugin", __version__), package("numpy", "numpy"), package("scipy", "scipy")]
