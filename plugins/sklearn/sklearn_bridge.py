"""bench-plugin-sklearn: any classifier or regressor with scikit-learn's
API as a polyclass learner.

    learner "rbf" {
      plugin = "sklearn"
      params = { estimator = "sklearn.svm.SVC", kernel = "rbf", C = [1, 10] }
    }
    learner "xgb" {
      plugin = "sklearn"
      params = { estimator = "xgboost.XGBClassifier", packages = ["xgboost"], n_estimators = 50 }
    }
    learner "smote_lr" {
      plugin = "sklearn"
      params = {
        estimator = "imblearn.pipeline.Pipeline"
        packages  = ["imblearn"]
        steps     = ["imblearn.over_sampling.SMOTE", "sklearn.linear_model.LogisticRegression"]
        logisticregression__max_iter = 1000
      }
    }

``estimator`` names the estimator class by its import path. The bridge
imports from scikit-learn (``sklearn``) and from the top-level packages
``packages`` lists, nothing else: it checks an import path's package
before importing anything. ``packages`` names installed third-party
packages only: a module of Python's standard library (which acts when
imported: antigravity starts a web browser, unittest.__main__ runs the
tests of the working directory) or a private name is refused. In an
import path, a ``__main__`` module is never imported, and a private
module (a part starting with _) only where its public parent has imported
it already. So an experiment file can make the bridge import public
modules of scikit-learn and of the third-party packages it lists, nothing
else. ``steps`` gives a pipeline (scikit-learn's or
imbalanced-learn's ``Pipeline``) its steps by import path, each named as
``make_pipeline`` names it (the class name in lower case), so that
``NAME__PARAM`` sets a step's parameter. Every other parameter is a
keyword argument of the estimator, checked against its ``get_params()``
when bench validates the experiment (a list crosses into one cell per
element, as for any scalar parameter). Whole numbers pass as int unless the
estimator's parameter accepts only reals. The host's seed becomes every
``random_state`` (a step's too) the experiment does not set. ``n_jobs`` stays as the
experiment sets it (scikit-learn's default otherwise): the fold's share of
the CPUs limits the native thread pools only, since ``n_jobs`` > 1 makes
some estimators start joblib worker processes at every fit
(LogisticRegression with lbfgs: 0.56 s against 7 ms for a binary fit on
18000 × 16 rows).

A parameter that names a place in the file system is refused, at any
nesting (``memory`` or ``STEP__memory``): scikit-learn's ``memory``
(Pipeline, imbalanced-learn's Pipeline, FeatureAgglomeration,
AgglomerativeClustering, OPTICS) is a directory where joblib writes its
cache and loads pickles back from, outside bench's results directory.
scikit-learn 1.2 and imbalanced-learn 0.10 have no other parameter that
takes a path (``cache_size`` of the SVMs is megabytes of memory).

Scores: ``decision_function`` when the estimator has it, else the
probabilities of ``predict_proba`` mapped to 2p − 1 for binary problems
(so the sign still decides), else ``predict``: the value for regressors,
+1 for the predicted class and −1 elsewhere for classifiers. Probabilities
come from ``predict_proba`` when the estimator has it.

A fit did not converge (Model.not_converged, § in the tables) when the
fitted estimator, or a fitted estimator inside it (estimators_,
estimator_, best_estimator_, a pipeline's steps ...), stopped with
n_iter_ >= max_iter. ConvergenceWarnings reach the run log but are not
looked at, so an estimator without n_iter_ and max_iter is never marked.
"""

import difflib
import functools
import importlib
import importlib.metadata
import importlib.util
import inspect
import os
import re
import site
import sys
import sysconfig
import traceback

try:
    import numpy as np
    import sklearn
    import sklearn.base

    import polyclass_plugin as pp
except ImportError as e:  # said to the host, which shows it in `bench plugins`
    sys.stderr.write(
        f"sklearn plugin: {e}; install Debian's packages: "
        "apt-get install python3-grpcio python3-protobuf python3-sklearn\n"
    )
    sys.exit(1)

VERSION = "0.2.0"

DEFAULT_ESTIMATOR = "sklearn.linear_model.LogisticRegression"

# The top-level package the bridge imports from whatever packages lists.
SKLEARN = "sklearn"

# Parameters that name a directory or file, refused at any nesting: a
# joblib cache directory (memory) is written to and its pickles are loaded
# back, wherever the experiment points it.
_PATH_PARAMS = {
    "memory": "a directory where joblib caches fitted transformers and loads pickles back from",
}

_TOP_LEVEL = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_IMPORT_PATH = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$")


def _info():
    return pp.LearnerInfo(
        name="sklearn",
        version=f"{VERSION} (scikit-learn {sklearn.__version__})",
        description="a classifier or regressor with scikit-learn's API, named by its import path",
        # What the bridge accepts: a classifier trains binary and (natively)
        # multiclass problems, a regressor regression ones; a mismatch is an
        # error on the estimator parameter. CSR input is densified for an
        # estimator that does not take sparse input. Row weights go to fit's
        # sample_weight; an estimator without it fails the cell that sends any.
        capabilities=pp.Capabilities(
            binary=True, multiclass=True, regression=True, scores=True, probabilities=True, sparse=True,
            weights=True,
        ),
        params=[
            pp.ParamSpec(
                "estimator", "string", default=DEFAULT_ESTIMATOR,
                description="import path of the estimator class, e.g. sklearn.svm.SVC",
            ),
            pp.ParamSpec(
                "packages", "string_list",
                description="top-level packages besides sklearn that estimator and steps may come from, e.g. [\"xgboost\"]",
            ),
            pp.ParamSpec(
                "steps", "string_list",
                description="a pipeline's steps by import path; a step's parameters are set as CLASSNAME__PARAM (lower case)",
            ),
            pp.ParamSpec(
                "scores", "string", default="auto", allowed=["auto", "decision_function", "predict_proba", "predict"],
                description="where scores come from (auto: decision_function, else predict_proba, else predict)",
            ),
            pp.ParamSpec("*", "any", description="any keyword argument of the estimator"),
        ],
        runtime=[pp.package("scikit-learn", "sklearn")],
    )


def _allowed(packages):
    """The top-level packages the bridge may import from: sklearn and those
    listed, each checked, without importing it, to be a package installed
    here that is neither private (a name starting with _) nor part of
    Python's standard library: stdlib modules act when imported (antigravity
    starts a web browser, unittest's __main__ runs the tests of the working
    directory), and no estimator lives there."""
    allowed = {SKLEARN}
    for name in packages or []:
        if not isinstance(name, str) or not _TOP_LEVEL.match(name):
            raise pp.ParamError("packages", f"{name!r} is not a top-level package name such as xgboost")
        if name.startswith("_"):
            raise pp.ParamError("packages", f"{name!r} is a private module (its name starts with _); "
                                            f"{_PACKAGES_ARE}")
        if name in _STDLIB_NAMES:
            raise pp.ParamError("packages", f"{name!r} is a module of Python's standard library; {_PACKAGES_ARE}")
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError) as e:
            raise pp.ParamError("packages", f"{name!r} cannot be found: {e}") from None
        if spec is None:
            raise pp.ParamError("packages", f"{name!r} is not installed in the plugin's Python ({sys.executable})")
        where = _stdlib_origin(spec)
        if where is not None:
            raise pp.ParamError("packages", f"{name!r} is a module of Python's standard library ({where}); "
                                            f"{_PACKAGES_ARE}")
        allowed.add(name)
    return allowed


# What packages names, said when a name is refused.
_PACKAGES_ARE = "packages names installed third-party packages (such as xgboost) that estimator and steps may come from"

# The names of the standard library's modules (Python 3.10 and later; the
# directory check of _stdlib_origin covers an older Python).
_STDLIB_NAMES = frozenset(getattr(sys, "stdlib_module_names", ()))


def _under(path, dirs):
    """Whether path (resolved) lies in one of the directories dirs."""
    path = os.path.realpath(path)
    return any(path == d or path.startswith(d.rstrip(os.sep) + os.sep) for d in dirs)


def _stdlib_origin(spec):
    """Where a module spec lies in the standard library: its origin, or
    "built-in" or "frozen", or None when it lies elsewhere. A module in
    site-packages or dist-packages is third-party even where those lie
    inside the standard library's directory (a virtual environment,
    Python built from source)."""
    if spec.origin in ("built-in", "frozen"):
        return spec.origin
    stdlib = {os.path.realpath(p) for p in (sysconfig.get_paths().get(k) for k in ("stdlib", "platstdlib")) if p}
    third = {os.path.realpath(p) for p in (sysconfig.get_paths().get(k) for k in ("purelib", "platlib")) if p}
    third |= {os.path.realpath(p) for p in getattr(site, "getsitepackages", lambda: [])()}
    places = ([spec.origin] if spec.has_location and spec.origin else []) + list(spec.submodule_search_locations or [])
    for place in places:
        if _under(place, stdlib) and not _under(place, third):
            return place
    return None


def _import(path, mod, param):
    """Imports module mod of import path path, one part after the other. A
    part __main__ is refused (a program's entry point, which acts when
    imported); a private part (starting with _), and any part under it, only
    where importing the public part above it has imported it already (as
    sklearn.linear_model imports sklearn.linear_model._logistic): the bridge
    imports no private module on its own."""
    parts = mod.split(".")
    private = None
    module = None
    for i, part in enumerate(parts):
        name = ".".join(parts[: i + 1])
        if part.startswith("_") and private is None:
            private = name
        if private is not None:
            module = sys.modules.get(name)
            if module is None:
                public = ".".join(parts[:i]) if private == name else private.rpartition(".")[0]
                raise pp.ParamError(param, f"{path}: {name} is a private module (a part starting with _) "
                                           f"that importing {public} does not import; name the class by "
                                           f"its public import path")
            continue
        try:
            module = importlib.import_module(name)
        except ImportError as e:
            raise pp.ParamError(param, f"cannot import {path}: {e}") from None
        except BaseException as e:  # sys.exit or KeyboardInterrupt at import too: an answer, not a stuck call
            traceback.print_exc(file=sys.stderr)  # to the run log: where it failed
            raise pp.ParamError(param, f"cannot import {path}: importing {name} raised {_raised(e)}") from None
    return module


def _raised(e):
    """An exception raised while importing, in one line with where it was
    raised (the last frame of its traceback)."""
    if isinstance(e, SystemExit):
        what = f"SystemExit({e.code!r})"
    else:
        what = f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
    return what + pp.where_raised(e)


def _estimator_class(path, allowed, param="estimator"):
    """The class an import path names, its package checked against allowed
    and its parts against __main__ before anything is imported (see
    _import for private modules)."""
    if not isinstance(path, str) or not _IMPORT_PATH.match(path):
        raise pp.ParamError(param, f"{path!r} is not an import path such as sklearn.svm.SVC")
    top = path.partition(".")[0]
    if top not in allowed:
        listed = sorted(allowed - {SKLEARN})
        raise pp.ParamError(
            param,
            f"{path}: the bridge imports from sklearn{''.join(', ' + p for p in listed)} only; "
            f"to use {top}, list it: packages = [\"{top}\"]",
        )
    if "__main__" in path.split("."):
        raise pp.ParamError(param, f"{path}: the bridge never imports a __main__ module "
                                   f"(a program's entry point, which acts when imported)")
    mod, _, name = path.rpartition(".")
    module = _import(path, mod, param)
    try:
        cls = getattr(module, name, None)
    except BaseException as e:  # a module's __getattr__
        traceback.print_exc(file=sys.stderr)
        raise pp.ParamError(param, f"cannot import {path}: {mod}.{name} raised {_raised(e)}") from None
    if cls is None:
        close = difflib.get_close_matches(name, [n for n in dir(module) if not n.startswith("_")], n=1)
        hint = f"; did you mean {mod}.{close[0]}?" if close else ""
        raise pp.ParamError(param, f"cannot import {path}: module {mod} has no {name}{hint}")
    if not (inspect.isclass(cls) and hasattr(cls, "fit") and hasattr(cls, "get_params")):
        raise pp.ParamError(param, f"{path} is not an estimator class with scikit-learn's API (fit, get_params)")
    return cls


def _step_names(classes):
    """The names make_pipeline gives steps of these classes: the class name
    in lower case, with "-1", "-2", … after a name used more than once."""
    names = [c.__name__.lower() for c in classes]
    count = {n: names.count(n) for n in names}
    seen = {}
    out = []
    for n in names:
        if count[n] > 1:
            seen[n] = seen.get(n, 0) + 1
            n = f"{n}-{seen[n]}"
        out.append(n)
    return out


@functools.lru_cache(maxsize=1)
def _distributions():
    """Top-level import names to the distributions that provide them
    (imblearn → imbalanced-learn), read once from the installed metadata."""
    try:
        return importlib.metadata.packages_distributions()
    except AttributeError:  # Python < 3.10
        return {}


def _component(top):
    """The runtime component of a top-level package: its distribution's name
    and the version the package runs as."""
    dists = _distributions().get(top) or [top]
    return pp.package(dists[0], top)


class _Spec:
    """An experiment's parameters for the bridge, checked: the estimator
    class, its steps, its keyword arguments and the packages it may use.
    Nothing is imported before the import paths pass the package check."""

    def __init__(self, params, seed=None):
        params = dict(params)
        _refuse_paths(params)
        self.path = params.pop("estimator", DEFAULT_ESTIMATOR)
        self.source = params.pop("scores", "auto")
        self.packages = params.pop("packages", None) or []
        steps = params.pop("steps", None)
        allowed = _allowed(self.packages)
        self.cls = _estimator_class(self.path, allowed)
        step_classes = [_estimator_class(s, allowed, "steps") for s in steps or []]
        init = {}
        if steps is not None:
            if "steps" not in inspect.signature(self.cls).parameters:
                raise pp.ParamError("steps", f"{self.path} takes no steps; steps are for a Pipeline")
            if not step_classes:
                raise pp.ParamError("steps", "a pipeline needs at least one step")
            init["steps"] = [(n, c()) for n, c in zip(_step_names(step_classes), step_classes)]
        try:
            self.est = self.cls(**init)
        except TypeError as e:
            raise pp.ParamError("estimator", f"{self.path}() cannot be made: {e}") from None
        valid = self.est.get_params(deep=True)
        self.kwargs = {}
        for k, v in params.items():
            # A step's parameter (STEP__NAME) is typed by the step's class.
            owner, _, leaf = k.rpartition("__")
            if owner in valid and hasattr(valid[owner], "get_params"):
                self.kwargs[k] = _kwarg(type(valid[owner]), leaf, v)
            else:
                self.kwargs[k] = _kwarg(self.cls, k, v)
        for k in sorted(self.kwargs):
            _refuse_huge(k, self.kwargs[k])
            if k not in valid:
                shallow = ", ".join(sorted(self.est.get_params(deep=False)))
                raise pp.ParamError(k, f"{self.cls.__name__} has no parameter {k!r}"
                                       f"{_did_you_mean(k, valid)} Its parameters are: {shallow}.")
        if seed is not None:
            # The host's seed for every random_state the experiment leaves.
            for k in valid:
                if (k == "random_state" or k.endswith("__random_state")) and k not in self.kwargs:
                    self.kwargs[k] = seed % 2**32
        try:
            self.est.set_params(**self.kwargs)
        except (TypeError, ValueError) as e:
            raise _located(self.cls, self.kwargs, e) from None

    def validate(self):
        """Checks the values against the constraints scikit-learn declares
        (the estimator's and its steps', as fit would), without data."""
        objs = [self.est] + [v for v in self.est.get_params(deep=True).values() if isinstance(v, sklearn.base.BaseEstimator)]
        for o in objs:
            if hasattr(type(o), "_parameter_constraints") and hasattr(o, "_validate_params"):
                try:
                    o._validate_params()
                except (TypeError, ValueError) as e:
                    raise _located(self.cls, self.kwargs, e) from None

    def runtime(self):
        """The listed packages as runtime components (scikit-learn is in
        the plugin's own report)."""
        return [_component(p) for p in sorted(set(self.packages) - {SKLEARN})]


def _refuse_paths(params):
    """A ParamError at the first parameter (in name order) that names a
    place in the file system (_PATH_PARAMS), itself or a step's or nested
    estimator's (NAME__memory): its files would lie outside the results
    directory."""
    for k in sorted(params):
        leaf = k.rpartition("__")[2]
        if leaf in _PATH_PARAMS:
            raise pp.ParamError(
                k,
                f"{k} is {_PATH_PARAMS[leaf]}, outside bench's results directory; "
                f"the sklearn plugin refuses it: leave {k} unset (no cache)",
            )


def _did_you_mean(name, candidates):
    """"; did you mean 'X'?" for the closest candidate, else "."."""
    close = difflib.get_close_matches(name, list(candidates), n=1)
    return f"; did you mean {close[0]!r}?" if close else "."


def _accepts_int(cls, name):
    """Whether the estimator's declared constraints for name admit ints
    (True when it declares none)."""
    cons = getattr(cls, "_parameter_constraints", {}).get(name)
    if not cons:
        return True
    import numbers

    for c in cons:
        t = getattr(c, "type", c)
        if t in (int, numbers.Integral) or t == "boolean" or c is None:
            return True
        if inspect.isclass(t) and issubclass(t, numbers.Integral):
            return True
    return not any(getattr(c, "type", None) in (float, numbers.Real) for c in cons)


def _kwarg(cls, name, v):
    if isinstance(v, list):
        return [_kwarg(cls, name, e) for e in v]
    if isinstance(v, float) and v.is_integer() and _accepts_int(cls, name):
        return int(v)
    return v


# The whole numbers scikit-learn's parameter checks take: numpy holds them
# as int64 or uint64, and of a larger one (2^64, as random_state) the check
# says only "ufunc 'isnan' not supported for the input types", naming no
# parameter.
_WHOLE_MIN, _WHOLE_MAX = -(2**63), 2**64 - 1


def _refuse_huge(name, v):
    """A ParamError at parameter name when its value (or an element of a
    list) is a whole number outside _WHOLE_MIN.._WHOLE_MAX, saying why."""
    if isinstance(v, list):
        for e in v:
            _refuse_huge(name, e)
        return
    if isinstance(v, bool) or not isinstance(v, int) or _WHOLE_MIN <= v <= _WHOLE_MAX:
        return
    shown = str(v) if len(str(v)) <= 24 else repr(float(v))
    if name.rpartition("__")[2] == "random_state":
        why = "a seed is a whole number from 0 to 4294967295 (2^32 − 1), the seeds numpy's RandomState takes"
    else:
        why = (f"scikit-learn checks a whole number as a 64-bit integer, from −2^63 to 2^64 − 1 "
               f"({_WHOLE_MIN} to {_WHOLE_MAX})")
    raise pp.ParamError(name, f"{name} = {shown} is out of range: {why}")


_PARAM_IN_MESSAGE = re.compile(r"(?:The '(\w+)' parameter|Invalid parameter '(\w+)'|parameter (\w+)\b)")


def _located(cls, kwargs, err):
    """The estimator's error as a ParamError at the parameter it names
    (estimator when it names none of the experiment's)."""
    msg = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    for m in _PARAM_IN_MESSAGE.finditer(str(err)):
        name = next(g for g in m.groups() if g)
        if name in kwargs:
            return pp.ParamError(name, msg)
        # A step's parameter: scikit-learn names it without the step.
        for k in kwargs:
            if k.endswith("__" + name):
                return pp.ParamError(k, msg)
    return pp.ParamError("estimator", f"{cls.__name__}: {msg}")


# How deep _not_converged looks into an estimator's fitted parts (a
# pipeline in a search in a one-vs-rest is three levels).
_CONVERGENCE_DEPTH = 8


def _at_bound(est):
    """Whether the fitted estimator itself stopped at its iteration bound:
    n_iter_ (its largest entry, for one count per class or fold) at least
    max_iter, where both exist and max_iter bounds anything (SVC's -1 and
    None do not)."""
    if _counts_rounds(est):
        return False
    n, bound = getattr(est, "n_iter_", None), getattr(est, "max_iter", None)
    if n is None or isinstance(bound, bool) or not isinstance(bound, (int, float, np.integer, np.floating)) or bound <= 0:
        return False
    try:
        n = np.asarray(n, dtype=float).ravel()
        n = n[~np.isnan(n)]
        if n.size == 0:
            return False
        n = n.max()
    except (TypeError, ValueError):
        return False
    return bool(n >= bound)


# Estimators whose max_iter is a number of rounds to make, not a bound on
# a solver's iterations: n_iter_ equals it whenever early stopping is off
# (HistGradientBoosting's default below 10,000 rows), and reaching it is
# no failure to converge (scikit-learn warns of none).
_ROUNDS_NOT_ITERATIONS = ("BaseHistGradientBoosting",)


def _counts_rounds(est):
    return any(c.__name__ in _ROUNDS_NOT_ITERATIONS for c in type(est).__mro__)


def _is_estimator(obj):
    return not isinstance(obj, type) and hasattr(obj, "fit") and hasattr(obj, "get_params")


def _parts(obj):
    """The values an estimator's fitted parts may hide in: its attributes
    that end in _ (scikit-learn's fitted attributes: estimators_,
    estimator_, best_estimator_, calibrated_classifiers_ ...) and the steps
    of a Pipeline or FeatureUnion, which are fitted in place. Of any other
    object (a list's item, a CalibratedClassifierCV's inner record) every
    attribute."""
    try:
        attrs = vars(obj)
    except TypeError:
        return []
    if not _is_estimator(obj):
        return [v for k, v in attrs.items() if not k.startswith("__")]
    return [v for k, v in attrs.items() if (k.endswith("_") and not k.startswith("_")) or k in ("steps", "transformer_list")]


def _not_converged(est):
    """Whether the fitted estimator or any fitted estimator inside it (a
    meta-estimator's estimators_, a search's best_estimator_, a pipeline's
    steps, nested to _CONVERGENCE_DEPTH levels) stopped at its iteration
    bound (_at_bound). It reads only the fitted objects, so the answer is
    the same whichever thread or process made the fits."""
    seen = set()
    stack = [(est, 0)]
    while stack:
        obj, depth = stack.pop()
        if id(obj) in seen or depth > _CONVERGENCE_DEPTH:
            continue
        seen.add(id(obj))
        if isinstance(obj, (str, bytes, int, float, bool, np.generic)) or obj is None:
            continue
        if isinstance(obj, np.ndarray):
            if obj.dtype == object:
                stack.extend((v, depth + 1) for v in obj.ravel())
            continue
        if isinstance(obj, dict):
            stack.extend((v, depth + 1) for v in obj.values())
            continue
        if isinstance(obj, (list, tuple)):
            stack.extend((v, depth + 1) for v in obj)
            continue
        if _is_estimator(obj) and _at_bound(obj):
            return True
        stack.extend((v, depth + 1) for v in _parts(obj))
    return False


def _own(X):
    """A writable copy of X (a numpy array or a scipy.sparse matrix) for
    one call of an estimator's fit, predict_proba, decision_function or
    predict. The kit's rows are read-only: a transformer that works in
    place (copy = false, a step's STEPNAME__copy = false, copy_X = false)
    would fail on them, and rows it could write into would be scaled once
    more by each later call on them (predict_proba, then
    decision_function, of the same rows), so that the estimator scored
    rows unlike those it was fitted on. The copy costs one pass over the
    rows per call: on letter, 57 µs for a fit's 15000 × 16 rows and 11 µs
    for each call on 5000 test rows, against 0.5 s and more for the fit
    and predict of a logistic regression."""
    return X.copy()


class _Constant(pp.Model):
    """The model of a problem whose used rows are all of one class."""

    def __init__(self, outputs, scores, probs):
        self.outputs, self._s, self._p = outputs, np.asarray(scores, float), np.asarray(probs, float)

    def predict(self, X, probabilities):
        n = X.shape[0]
        return np.tile(self._s, (n, 1)), (np.tile(self._p, (n, 1)) if probabilities else None)


class _Fitted(pp.Model):
    """A fitted estimator. labels are the problem's classes, which it was
    fitted on as 0..m−1 (None for regression)."""

    def __init__(self, est, kind, num_classes, source, dense, labels=None):
        self.est, self.kind, self.source, self.dense = est, kind, source, dense
        self.outputs = num_classes if kind == pp.MULTICLASS else 1
        self._cols = self._labels = None
        # The classes the estimator was fitted on: both of a binary
        # problem (one of a single class gets a _Constant), classes_ of a
        # multiclass one.
        self._fitted = {pp.BINARY: 2, pp.MULTICLASS: len(getattr(est, "classes_", ()))}.get(kind, 0)
        if kind == pp.MULTICLASS:
            # The class index of each label it was fitted on, and of each of
            # its columns.
            self._labels = np.asarray(labels, dtype=np.int64)
            self._cols = self._labels[np.asarray(est.classes_, dtype=np.int64)]

    def _classes(self, a, what, rows):
        """The estimator's answer a (predict_proba, or decision_function
        of a multiclass problem) as a float array of one row per input row
        and one column per class it was fitted on; a ValueError naming its
        shape when it has another, rather than numpy broadcasting a single
        column into every class."""
        a = np.asarray(a, dtype=np.float64)
        want = (rows, self._fitted)
        if a.shape != want:
            raise ValueError(f"the estimator's {what} has shape {a.shape}, want {want}: "
                             f"one row per input row, one column per class it was fitted on ({self._fitted})")
        return a

    def _predicted(self, pred, rows):
        """predict's answer as class indices 0..m−1 (the labels the
        estimator was fitted on); a ValueError naming the shape, or the
        first value that is not such a label (0.5, 99, a string), rather
        than truncating it to one."""
        pred = np.asarray(pred)
        if pred.shape == (rows, 1):
            pred = pred.ravel()
        if pred.shape != (rows,):
            raise ValueError(f"the estimator's predict has shape {pred.shape}, want ({rows},): one label per input row")
        try:
            idx = pred.astype(np.float64)
        except (TypeError, ValueError):
            idx = np.full(rows, np.nan)
        bad = np.flatnonzero(~np.isin(idx, np.arange(self._fitted)))
        if bad.size:
            i = bad[0]
            v = pred[i].item() if hasattr(pred[i], "item") else pred[i]
            raise ValueError(f"the estimator's predict returned {v!r} for row {i}, not a label it was fitted on "
                             f"(0..{self._fitted - 1}: the bridge fits the classes as 0..m−1); {bad.size} of {rows} rows are such")
        return idx.astype(np.int64)

    def _spread(self, a, fill):
        """Class columns of the estimator's classes_ into all num_classes."""
        out = np.full((a.shape[0], self.outputs), fill, dtype=np.float64)
        out[:, self._cols] = a
        return out

    def predict(self, X, probabilities):
        est, kind = self.est, self.kind
        if self.dense and hasattr(X, "toarray"):
            X = X.toarray()
        rows = X.shape[0]
        proba = None
        if (probabilities or self.source == "predict_proba") and kind != pp.REGRESSION and hasattr(est, "predict_proba"):
            proba = self._classes(est.predict_proba(_own(X)), "predict_proba", rows)
        if kind == pp.REGRESSION:
            return np.asarray(est.predict(_own(X)), float).reshape(-1, 1), None
        if self.source == "predict":
            # Hard predictions: +1 for the predicted class, −1 elsewhere.
            pred = self._predicted(est.predict(_own(X)), rows)
            if kind == pp.BINARY:
                return np.where(pred > 0, 1.0, -1.0).reshape(-1, 1), (proba[:, 1:2] if probabilities and proba is not None else None)
            s = np.full((pred.shape[0], self.outputs), -1.0)
            s[np.arange(pred.shape[0]), self._labels[pred]] = 1.0
            return s, (self._spread(proba, 0.0) if probabilities and proba is not None else None)
        if kind == pp.BINARY:
            # classes_ is [0, 1] for −1, +1: column 1 and positive decision
            # values mean +1.
            if self.source == "decision_function":
                s = np.asarray(est.decision_function(_own(X)), float).reshape(-1, 1)
            else:
                s = 2 * proba[:, 1:2] - 1
            return s, (proba[:, 1:2] if probabilities and proba is not None else None)
        if self.source == "decision_function":
            d = np.asarray(est.decision_function(_own(X)), float)
            if d.ndim == 1 and self._fitted == 2:  # two classes present: the score of classes_[1]
                d = np.column_stack([-d, d])
            d = self._classes(d, "decision_function", rows)
            s = self._spread(d, d.min() - 1 if d.size else 0)
        else:
            s = self._spread(proba, 0.0)
        p = self._spread(proba, 0.0) if probabilities and proba is not None else None
        return s, p


def _source(spec):
    """Where the scores come from: the scores parameter, or the first of
    decision_function, predict_proba and predict the estimator has."""
    if spec.source == "auto":
        return next((m for m in ("decision_function", "predict_proba", "predict") if hasattr(spec.est, m)), "predict")
    if not hasattr(spec.est, spec.source):
        raise pp.ParamError("scores", f"{spec.path} has no {spec.source}")
    return spec.source


class SklearnLearner(pp.Learner):
    """The bridge: one estimator instance per problem."""

    def info(self):
        return _info()

    def check(self, params):
        spec = _Spec(params)
        spec.validate()
        if not (sklearn.base.is_classifier(spec.est) or sklearn.base.is_regressor(spec.est)):
            raise pp.ParamError("estimator", f"{spec.path} is neither a classifier nor a regressor (scikit-learn's "
                                             f"is_classifier and is_regressor): a learner's estimator predicts classes "
                                             f"or values, as LogisticRegression or Ridge do")
        _source(spec)
        return spec.runtime()

    def fit(self, problem, params):
        spec = _Spec(params, seed=problem.seed)
        cls, est, kwargs, path = spec.cls, spec.est, spec.kwargs, spec.path
        if problem.kind == pp.REGRESSION and not sklearn.base.is_regressor(est):
            raise pp.ParamError("estimator", f"{path} is not a regressor; the reduction asks for regression problems")
        if problem.kind != pp.REGRESSION and not sklearn.base.is_classifier(est):
            raise pp.ParamError("estimator", f"{path} is not a classifier; the reduction asks for {problem.kind} problems")
        source = _source(spec)
        y, labels = problem.y, None
        if problem.kind != pp.REGRESSION:
            labels = np.unique(y)
            if labels.size == 1:
                return self._constant(problem, labels[0])
            # Classes as 0..m−1 (a binary problem's −1/+1 as 0/1): some
            # libraries (XGBoost) take no other labels, and the order, all
            # scikit-learn's estimators look at, is kept.
            y = np.searchsorted(labels, y)
        fit_kw = {}
        if problem.weights is not None:
            if "sample_weight" not in inspect.signature(est.fit).parameters:
                raise pp.ParamError("estimator", f"{path} takes no sample weights, and the problem has weights")
            fit_kw["sample_weight"] = problem.weights
        X, dense = problem.X, False
        try:
            try:
                est.fit(_own(X), y, **fit_kw)
            except TypeError as e:
                # An estimator without sparse support says so on CSR input:
                # it trains, and later predicts, on the dense rows.
                if "sparse" not in str(e) or not hasattr(X, "toarray"):
                    raise
                dense = True
                est.fit(X.toarray(), y, **fit_kw)
        except (TypeError, ValueError) as e:
            # scikit-learn checks parameter values in fit
            # (InvalidParameterError is a ValueError).
            raise _located(cls, kwargs, e) from None
        m = _Fitted(est, problem.kind, problem.num_classes, source, dense, labels)
        # Not converged: the estimator, or one inside it, stopped at its
        # iteration bound. ConvergenceWarnings are not looked at: a fit in a
        # worker process raises them where no filter here sees them, and an
        # estimator that silences warnings in its fit changes the process's
        # filters under the fits of other threads.
        m.not_converged = _not_converged(est)
        return m

    @staticmethod
    def _constant(problem, label):
        if problem.kind == pp.BINARY:
            s = [1.0 if label > 0 else -1.0]
            return _Constant(1, s, [1.0 if label > 0 else 0.0])
        k = problem.num_classes
        s = np.full(k, -1.0)
        s[int(label)] = 1.0
        p = np.zeros(k)
        p[int(label)] = 1.0
        return _Constant(k, s, p)


def main():
    pp.serve(SklearnLearner())


if __name__ == "__main__":
    main()
