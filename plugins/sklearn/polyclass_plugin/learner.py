"""The types a learner plugin implements and returns."""

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

# Problem kinds (FitInput.kind).
BINARY = "binary"
MULTICLASS = "multiclass"
REGRESSION = "regression"

# ParamSpec types, as named by the protocol (ParamSpec.Type).
PARAM_TYPES = (
    "number",
    "integer",
    "string",
    "bool",
    "number_list",
    "string_list",
    "number_matrix",
    "number_or_string",
    "any",
)


@dataclass
class Capabilities:
    """What a learner can train and return (LearnerInfo's capability flags).

    A learner without ``sparse`` receives dense numpy arrays only.
    """

    binary: bool = False
    multiclass: bool = False
    regression: bool = False
    scores: bool = False
    probabilities: bool = False
    sparse: bool = False
    weights: bool = False


@dataclass
class ParamSpec:
    """One parameter a learner accepts.

    ``type`` is one of PARAM_TYPES. A spec named ``"*"`` of type ``"any"``
    admits every parameter name the other specs do not declare (for bridges
    to libraries whose parameters the plugin cannot list).
    """

    name: str
    type: str
    description: str = ""
    default: Any = None
    min: Optional[float] = None
    max: Optional[float] = None
    min_exclusive: bool = False
    allowed: List[str] = field(default_factory=list)


@dataclass
class LearnerInfo:
    """A learner's name, version, capabilities and parameters."""

    name: str
    version: str
    description: str = ""
    capabilities: Capabilities = field(default_factory=Capabilities)
    params: List[ParamSpec] = field(default_factory=list)


@dataclass
class FitInput:
    """One training problem, restricted to the rows it uses.

    ``X`` is a numpy array (n × d) or, for learners with the sparse
    capability and CSR uploads, a ``scipy.sparse.csr_matrix``. ``y`` holds
    −1/+1 for BINARY, class indices 0..num_classes−1 for MULTICLASS and real
    values for REGRESSION. ``weights`` is None (all 1) or one weight per row.
    ``seed`` seeds any randomness of the solver (the host derives it from
    the cell, repeat, fold and problem).
    """

    kind: str
    X: Any
    y: Any
    weights: Any
    num_classes: int
    seed: int


class Model:
    """A trained model.

    ``outputs`` is the number of score columns it predicts: 1 for binary
    and regression problems, num_classes for multiclass ones.
    """

    outputs: int = 1

    def predict(self, X, probabilities: bool):
        """Returns (scores, probs) for the rows of X: two n × outputs
        arrays; probs is None when not asked for or not available. For a
        binary model a positive score means class +1."""
        raise NotImplementedError


class Learner:
    """A learner plugin: describes itself and trains models."""

    def info(self) -> LearnerInfo:
        raise NotImplementedError

    def fit(self, problem: FitInput, params: Dict[str, Any]) -> Model:
        """Trains one problem. ``params`` holds the experiment's parameters
        (numbers as float, strings, bools, lists) completed with the specs'
        defaults. Raise ParamError for a bad parameter value."""
        raise NotImplementedError


class ParamError(Exception):
    """A parameter's value is invalid: the host reports it at the
    parameter's attribute in the experiment file."""

    def __init__(self, name: str, message: str):
        super().__init__(f"parameter {name}: {message}")
        self.name = name
        self.message = message
