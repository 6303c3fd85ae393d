"""The types a learner plugin implements and returns."""

import os
import traceback
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from .runtime import Component

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
class Condition:
    """One case in which a parameter applies (ParamSpec.applies_when).

    It holds when every parameter named in ``when`` applies and has one of
    its listed values and, when ``problems`` is not empty, the learner fits
    problems of one of those kinds (BINARY, MULTICLASS, REGRESSION):
    ``Condition(when={"solver": ["sgd"]})``.
    """

    when: Dict[str, List[Any]] = field(default_factory=dict)
    problems: List[str] = field(default_factory=list)


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
    # When the parameter affects the fit: when any condition holds; empty
    # means always. The host lists it in a row's set-up only where it
    # applies and warns when the experiment sets it where it never does;
    # the learner still receives and checks it.
    applies_when: List[Condition] = field(default_factory=list)
    # An integer that bounds how much work one fit does (iterations,
    # epochs): a tune block may name it as its resource and grow it round
    # by round.
    budget: bool = False
    # What the default stands for when the default value is a placeholder
    # (gamma = 0 for "1/features"); empty when the default is what it
    # says. The set-up table shows it in place of the default value.
    default_means: str = ""
    # An integer whose value may not exceed the rows a fit trains on
    # (k nearest neighbours among them): the host checks each value
    # against the smallest training part of each dataset before any cell
    # runs.
    at_most_training_rows: bool = False

    def check(self, v) -> Optional[str]:
        """Why v is not a valid value of the parameter, or None (the Go
        SDK's ParamSpec.Check)."""
        t, n = self.type, self.name
        if t in ("number", "integer"):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                return f"{n} must be a number, not {_kind(v)}"
            if t == "integer" and v != int(v):
                return f"{n} must be a whole number, not {v}"
            if v != v:
                return f"{n} must not be NaN"
            if self.min is not None and (v < self.min or (self.min_exclusive and v == self.min)):
                return f"{n} = {v} is out of range: it must be {'>' if self.min_exclusive else '>='} {self.min}"
            if self.max is not None and v > self.max:
                return f"{n} = {v} is out of range: it must be <= {self.max}"
        elif t == "string":
            if not isinstance(v, str):
                return f"{n} must be a string, not {_kind(v)}"
            if self.allowed and v not in self.allowed:
                return f"{n} = {v!r} is not one of {', '.join(self.allowed)}"
        elif t == "bool":
            if not isinstance(v, bool):
                return f"{n} must be a bool, not {_kind(v)}"
        elif t in ("number_list", "string_list"):
            if not isinstance(v, list):
                return f"{n} must be a list, not {_kind(v)}"
            want = str if t == "string_list" else float
            for i, e in enumerate(v):
                if isinstance(e, bool) or not isinstance(e, want):
                    return f"{n}[{i}] must be a {'string' if want is str else 'number'}, not {_kind(e)}"
        elif t == "number_matrix":
            if not isinstance(v, list) or not all(isinstance(r, list) for r in v):
                return f"{n} must be a list of lists of numbers"
            for i, r in enumerate(v):
                for j, e in enumerate(r):
                    if isinstance(e, bool) or not isinstance(e, float):
                        return f"{n}[{i}][{j}] must be a number, not {_kind(e)}"
        elif t == "number_or_string":
            if isinstance(v, str):
                return ParamSpec(n, "string", allowed=self.allowed).check(v)
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                return ParamSpec(n, "number", min=self.min, max=self.max, min_exclusive=self.min_exclusive).check(v)
            return f"{n} must be a number or a string, not {_kind(v)}"
        elif v is None:
            return f"{n} has no value"
        return None


def _kind(v) -> str:
    """The protocol's name of a value's kind."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    return "list"


@dataclass
class LearnerInfo:
    """A learner's name, version, capabilities and parameters.

    ``runtime`` lists the packages the learner computes with beyond the
    kit's own (a list of :class:`Component`, e.g.
    ``[package("scikit-learn", "sklearn")]``): the kit reports the
    interpreter, itself, numpy and scipy, then these.
    """

    name: str
    version: str
    description: str = ""
    capabilities: Capabilities = field(default_factory=Capabilities)
    params: List[ParamSpec] = field(default_factory=list)
    runtime: List[Component] = field(default_factory=list)


@dataclass
class FitInput:
    """One training problem, restricted to the rows it uses.

    ``X`` is a numpy array (n × d) or, for learners with the sparse
    capability and CSR uploads, a ``scipy.sparse.csr_matrix``, read-only
    (a sparse matrix's data, indices and indptr too): a learner that
    changes its input, to scale it in place say, works on ``X.copy()``,
    and a write into X itself fails the fit with numpy's "assignment
    destination is read-only". ``y`` holds
    −1/+1 for BINARY, class indices 0..num_classes−1 for MULTICLASS and real
    values for REGRESSION. ``weights`` is None (all 1) or one weight per row.
    ``seed`` seeds any randomness of the solver (the host derives it from
    the cell, repeat, fold and problem). ``threads`` is the most threads the
    fit should keep busy: the call's share of the machine's CPUs while the
    host fits other folds beside it (FitRequest.threads), 0 when the host
    leaves it to the learner. The service has already limited the native
    thread pools (BLAS, OpenMP) to it; a learner with a pool of its own
    should keep within it, and mind what starting the pool costs at every
    fit (scikit-learn's ``n_jobs`` may mean worker processes).
    """

    kind: str
    X: Any
    y: Any
    weights: Any
    num_classes: int
    seed: int
    threads: int = 0


class Model:
    """A trained model.

    ``outputs`` is the number of score columns it predicts: 1 for binary
    and regression problems, num_classes for multiclass ones.
    ``not_converged`` says that the fit did not converge.
    """

    outputs: int = 1
    # True when the fit stopped at its iteration bound (max_iter, say)
    # before its stopping rule was met, the model being the last iterate:
    # the host counts such fits per fold (Model.not_converged of the Fit
    # answer) and the tables flag the entry with §. Set it on the model
    # fit returns; left False, the fit is taken to have converged.
    not_converged: bool = False

    def predict(self, X, probabilities: bool):
        """Returns (scores, probs) for the rows of X (read-only, as
        FitInput.X is: the kit hands the same rows to every model of a
        Predict call): two n × outputs
        arrays (a vector of n entries will do for one output); probs is None
        when not asked for or not available.

        A binary model has one column: its score is positive for class +1
        (a decision value or log-odds), its probability is P(+1), never
        P(−1). A multiclass model has one column per class, in class order,
        higher scores for likelier classes, each row of probabilities summing
        to 1. Scores must be finite (−inf only in a multiclass model's column
        of a class it cannot predict), probabilities must be in [0, 1]: the
        host refuses anything else and fails the cell."""
        raise NotImplementedError


class Learner:
    """A learner plugin: describes itself and trains models."""

    def info(self) -> LearnerInfo:
        raise NotImplementedError

    def check(self, params: Dict[str, Any]) -> List[Component]:
        """Checks one combination of the experiment's parameters before any
        data exists, as fit would see them (the specs' checks passed,
        defaults filled in): ``bench validate`` and ``bench run`` call it
        for every combination of every learner block. Raise ParamError for
        a bad value; it is reported at the parameter's line in the
        experiment file. Return the components (see :func:`package`) a
        fit with these parameters computes with beyond
        :attr:`LearnerInfo.runtime`: the library a parameter names, say.
        The default accepts everything and adds nothing."""
        return []

    def fit(self, problem: FitInput, params: Dict[str, Any]) -> Model:
        """Trains one problem. ``params`` holds the experiment's parameters
        (numbers as float, "integer" ones as int, strings, bools, lists)
        completed with the specs' defaults; a parameter without a default
        that the experiment does not set is absent (use params.get). Raise
        ParamError for a bad parameter value. Calls may run at once on
        several threads (one per gRPC call): keep fit free of shared
        mutable state, or lock it."""
        raise NotImplementedError


def where_raised(e: BaseException) -> str:
    """Where exception e was raised, for a one-line report of it: " (at
    FILE:LINE, in FUNCTION)" of the last frame of its traceback (the file's
    base name), or "" when it has no traceback."""
    frames = traceback.extract_tb(e.__traceback__)
    if not frames:
        return ""
    f = frames[-1]
    return f" (at {os.path.basename(f.filename)}:{f.lineno}, in {f.name})"


class ParamError(Exception):
    """A parameter's value is invalid: the host reports it at the
    parameter's attribute in the experiment file."""

    def __init__(self, name: str, message: str):
        super().__init__(f"parameter {name}: {message}")
        self.name = name
        self.message = message
