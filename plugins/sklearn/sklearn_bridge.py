"""bench-plugin-sklearn: any scikit-learn classifier or regressor as a
polyclass learner.

    learner "rbf" {
      plugin = "sklearn"
      params = { estimator = "sklearn.svm.SVC", kernel = "rbf", C = [1, 10] }
    }

``estimator`` names the estimator class by its import path; every other
parameter is a keyword argument of it (a list crosses into one cell per
element, as for any scalar parameter). Whole numbers pass as int unless the
estimator's parameter accepts only reals. The host's seed becomes
``random_state`` unless the experiment sets it. ``n_jobs`` stays as the
experiment sets it (scikit-learn's default otherwise): the fold's share of
the CPUs limits the native thread pools only, since ``n_jobs`` > 1 makes
some estimators start joblib worker processes at every fit
(LogisticRegression with lbfgs: 0.56 s against 7 ms for a binary fit on
18000 × 16 rows).

Scores: ``decision_function`` when the estimator has it, else the
probabilities of ``predict_proba`` mapped to 2p − 1 for binary problems
(so the sign still decides), else ``predict``: the value for regressors,
+1 for the predicted class and −1 elsewhere for classifiers. Probabilities
come from ``predict_proba`` when the estimator has it.
"""

import importlib
import inspect
import re
import sys

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

VERSION = "0.1.0"

DEFAULT_ESTIMATOR = "sklearn.linear_model.LogisticRegression"


def _info():
    return pp.LearnerInfo(
        name="sklearn",
        version=f"{VERSION} (scikit-learn {sklearn.__version__})",
        description="a scikit-learn classifier or regressor named by its import path",
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
                "scores", "string", default="auto", allowed=["auto", "decision_function", "predict_proba", "predict"],
                description="where scores come from (auto: decision_function, else predict_proba, else predict)",
            ),
            pp.ParamSpec("*", "any", description="any keyword argument of the estimator"),
        ],
        runtime=[pp.package("scikit-learn", "sklearn")],
    )


def _estimator_class(path):
    mod, _, name = path.rpartition(".")
    if not mod:
        raise pp.ParamError("estimator", f"{path!r} is not an import path such as sklearn.svm.SVC")
    try:
        cls = getattr(importlib.import_module(mod), name)
    except (ImportError, AttributeError) as e:
        raise pp.ParamError("estimator", f"cannot import {path}: {e}") from None
    if not (inspect.isclass(cls) and hasattr(cls, "fit") and hasattr(cls, "get_params")):
        raise pp.ParamError("estimator", f"{path} is not a scikit-learn estimator class")
    return cls


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


_PARAM_IN_MESSAGE = re.compile(r"(?:The '(\w+)' parameter|Invalid parameter '(\w+)'|parameter (\w+)\b)")


def _located(cls, kwargs, err):
    """The estimator's error as a ParamError at the parameter it names
    (estimator when it names none of the experiment's)."""
    msg = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    for m in _PARAM_IN_MESSAGE.finditer(str(err)):
        name = next(g for g in m.groups() if g)
        if name in kwargs:
            return pp.ParamError(name, msg)
    return pp.ParamError("estimator", f"{cls.__name__}: {msg}")


class _Constant(pp.Model):
    """The model of a problem whose used rows are all of one class."""

    def __init__(self, outputs, scores, probs):
        self.outputs, self._s, self._p = outputs, np.asarray(scores, float), np.asarray(probs, float)

    def predict(self, X, probabilities):
        n = X.shape[0]
        return np.tile(self._s, (n, 1)), (np.tile(self._p, (n, 1)) if probabilities else None)


class _Fitted(pp.Model):
    def __init__(self, est, kind, num_classes, source, dense):
        self.est, self.kind, self.source, self.dense = est, kind, source, dense
        self.outputs = num_classes if kind == pp.MULTICLASS else 1
        self._cols = None
        if kind == pp.MULTICLASS:
            self._cols = np.asarray(est.classes_, dtype=np.int64)

    def _spread(self, a, fill):
        """Class columns of the estimator's classes_ into all num_classes."""
        out = np.full((a.shape[0], self.outputs), fill, dtype=np.float64)
        out[:, self._cols] = a
        return out

    def predict(self, X, probabilities):
        est, kind = self.est, self.kind
        if self.dense and hasattr(X, "toarray"):
            X = X.toarray()
        proba = None
        if (probabilities or self.source == "predict_proba") and kind != pp.REGRESSION and hasattr(est, "predict_proba"):
            proba = est.predict_proba(X)
        if kind == pp.REGRESSION:
            return np.asarray(est.predict(X), float).reshape(-1, 1), None
        if self.source == "predict":
            # Hard predictions: +1 for the predicted class, −1 elsewhere.
            pred = np.asarray(est.predict(X))
            if kind == pp.BINARY:
                return np.where(pred > 0, 1.0, -1.0).reshape(-1, 1), None
            s = np.full((pred.shape[0], self.outputs), -1.0)
            s[np.arange(pred.shape[0]), pred.astype(np.int64)] = 1.0
            return s, (self._spread(proba, 0.0) if probabilities and proba is not None else None)
        if kind == pp.BINARY:
            # classes_ is [-1, +1]: column 1 and positive decision values mean +1.
            if self.source == "decision_function":
                s = np.asarray(est.decision_function(X), float).reshape(-1, 1)
            else:
                s = 2 * proba[:, 1:2] - 1
            return s, (proba[:, 1:2] if probabilities and proba is not None else None)
        if self.source == "decision_function":
            d = np.asarray(est.decision_function(X), float)
            if d.ndim == 1:  # two classes present: the score of classes_[1]
                d = np.column_stack([-d, d])
            s = self._spread(d, d.min() - 1 if d.size else 0)
        else:
            s = self._spread(proba, 0.0)
        p = self._spread(proba, 0.0) if probabilities and proba is not None else None
        return s, p


class SklearnLearner(pp.Learner):
    """The bridge: one estimator instance per problem."""

    def info(self):
        return _info()

    def fit(self, problem, params):
        params = dict(params)
        path = params.pop("estimator", DEFAULT_ESTIMATOR)
        source = params.pop("scores", "auto")
        cls = _estimator_class(path)
        kwargs = {k: _kwarg(cls, k, v) for k, v in params.items()}
        classifier = sklearn.base.is_classifier(cls)
        if problem.kind == pp.REGRESSION and not sklearn.base.is_regressor(cls):
            raise pp.ParamError("estimator", f"{path} is not a regressor; the reduction asks for regression problems")
        if problem.kind != pp.REGRESSION and not classifier:
            raise pp.ParamError("estimator", f"{path} is not a classifier; the reduction asks for {problem.kind} problems")
        try:
            est = cls()
            if "random_state" in est.get_params() and "random_state" not in kwargs:
                kwargs["random_state"] = problem.seed % 2**32
            est.set_params(**kwargs)
        except (TypeError, ValueError) as e:
            raise _located(cls, kwargs, e) from None
        if source == "auto":
            source = next(m for m in ("decision_function", "predict_proba", "predict") if hasattr(est, m))
        if problem.kind != pp.REGRESSION and not hasattr(est, source):
            raise pp.ParamError("scores", f"{path} has no {source}")
        y = problem.y
        if problem.kind != pp.REGRESSION:
            present = np.unique(y)
            if present.size == 1:
                return self._constant(problem, present[0])
        fit_kw = {}
        if problem.weights is not None:
            if "sample_weight" not in inspect.signature(est.fit).parameters:
                raise pp.ParamError("estimator", f"{path} takes no sample weights, and the problem has weights")
            fit_kw["sample_weight"] = problem.weights
        X, dense = problem.X, False
        try:
            try:
                est.fit(X, y, **fit_kw)
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
        return _Fitted(est, problem.kind, problem.num_classes, source, dense)

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
