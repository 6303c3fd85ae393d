#!/usr/bin/python3
"""Regenerates the scikit-learn references of the evaluation-design tests
(class weights, holdout, nested tuning) from the repository's testdata/.

Run from the repository root: /usr/bin/python3 cmd/bench/testdata/design/refs.py
(scikit-learn 1.2.1, Debian python3-sklearn). Writes, next to this script:
  glass.folds.csv         StratifiedKFold(5, shuffle=True, random_state=0) of glass
  class_weight.json       glass, standardize + logreg (C=1) one-vs-rest, per-fold
                          accuracy with and without class_weight="balanced"
  holdout.json            adult: fit on adult_train, accuracy on adult_test of
                          logreg (C=1) after the encoding impute (missing
                          categories get a level of their own), standardize,
                          onehot (unseen levels -> zeros), all fitted on the
                          training file
  tuning.json             iris, wine, vehicle on testdata/reference/folds: per
                          outer fold, GridSearchCV(Pipeline(StandardScaler,
                          LogisticRegression(tol=1e-10)), C in {0.01, 0.1, 1,
                          10, 100}, cv=StratifiedKFold(5, shuffle=True,
                          random_state=0), scoring="accuracy") on the training
                          part: the chosen C, the inner mean accuracy of each
                          C, the refitted model's outer test accuracy
and plugins/logreg/learner/testdata/balanced_breast_cancer.json: the optimum of
balanced binary logistic regression on breast_cancer (whole-file
standardised, +1 = malignant).
"""
import csv
import gzip
import json
import os
import sys

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.multiclass import OneVsRestClassifier
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.utils.class_weight import compute_class_weight

ROOT = os.getcwd()
HERE = os.path.join(ROOT, "cmd", "bench", "testdata", "design")
DATA = os.path.join(ROOT, "testdata", "data")


def load(name):
    """Returns the numeric features and the class column of NAME.csv."""
    with open(os.path.join(DATA, name + ".csv")) as f:
        rows = list(csv.reader(f))
    header, rows = rows[0], rows[1:]
    k = header.index("class")
    x = np.array([[float(v) for j, v in enumerate(r) if j != k] for r in rows])
    return x, np.array([r[k] for r in rows])


def dump(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=1, sort_keys=True)
        f.write("\n")


def logreg(**kw):
    return LogisticRegression(C=1.0, tol=1e-10, max_iter=100000, **kw)


def balanced_optimum():
    x, label = load("breast_cancer")
    x = (x - x.mean(0)) / x.std(0)
    y = np.where(label == "malignant", 1.0, -1.0)
    classes = np.array([-1.0, 1.0])
    cw = compute_class_weight("balanced", classes=classes, y=y)
    s = np.where(y > 0, cw[1], cw[0])
    m = logreg(class_weight="balanced").fit(x, y)
    w, b = m.coef_[0].copy(), float(m.intercept_[0])

    def objective(w, b):
        z = y * (x @ w + b)
        return 0.5 * w @ w + np.sum(s * np.logaddexp(0, -z))

    f_sklearn = objective(w, b)
    # Newton's method from scikit-learn's solution to the exact optimum.
    theta = np.append(w, b)
    xa = np.hstack([x, np.ones((len(y), 1))])
    reg = np.append(np.ones(x.shape[1]), 0.0)
    for _ in range(50):
        z = y * (xa @ theta)
        p = 1 / (1 + np.exp(z))  # sigma(-z)
        g = reg * theta - xa.T @ (s * y * p)
        if np.linalg.norm(g) < 1e-13:
            break
        h = np.diag(reg) + xa.T @ (xa * (s * p * (1 - p))[:, None])
        theta -= np.linalg.solve(h, g)
    return {
        "class_weight": {"benign": cw[0], "malignant": cw[1]},
        "sklearn_objective": f_sklearn,
        "objective": objective(theta[:-1], theta[-1]),
        "w": list(theta[:-1]), "b": theta[-1],
        "grad_norm": float(np.linalg.norm(g)),
    }


def glass_class_weight():
    x, y = load("glass")
    folds = np.zeros(len(y), dtype=int)
    for k, (_, test) in enumerate(StratifiedKFold(5, shuffle=True, random_state=0).split(x, y)):
        folds[test] = k
    with open(os.path.join(HERE, "glass.folds.csv"), "w") as f:
        f.write("fold\n" + "".join(f"{k}\n" for k in folds))
    out = {}
    for name, cw in [("plain", None), ("balanced", "balanced")]:
        acc = []
        for k in range(5):
            tr, te = folds != k, folds == k
            sc = StandardScaler().fit(x[tr])
            m = OneVsRestClassifier(logreg(class_weight=cw)).fit(sc.transform(x[tr]), y[tr])
            acc.append(float(np.mean(m.predict(sc.transform(x[te])) == y[te])))
        out[name] = acc
    return out


ADULT_CATEGORICAL = ["workclass", "education", "marital_status", "occupation", "relationship", "race", "sex",
                     "native_country"]


def read_csv(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def adult_holdout():
    header, train = read_csv(os.path.join(DATA, "adult_train.csv.gz"))
    _, test = read_csv(os.path.join(DATA, "adult_test.csv.gz"))
    k = header.index("class")
    cat = [header.index(c) for c in ADULT_CATEGORICAL]
    num = [j for j in range(len(header)) if j != k and j not in cat]

    def split(rows):
        xn = np.array([[float(r[j]) for j in num] for r in rows])
        xc = np.array([[r[j] if r[j] != "" else "<missing>" for j in cat] for r in rows], dtype=object)
        return xn, xc, np.array([r[k] for r in rows])

    ntr, ctr, ytr = split(train)
    nte, cte, yte = split(test)
    sc = StandardScaler().fit(ntr)
    oh = OneHotEncoder(handle_unknown="ignore", sparse_output=False).fit(ctr)
    xtr = np.hstack([sc.transform(ntr), oh.transform(ctr)])
    xte = np.hstack([sc.transform(nte), oh.transform(cte)])
    m = logreg().fit(xtr, ytr)
    return {"accuracy": float(np.mean(m.predict(xte) == yte)), "n_test": len(yte), "n_train": len(ytr),
            "features": xtr.shape[1]}


TUNE_C = [0.01, 0.1, 1, 10, 100]


def tuning():
    from sklearn.model_selection import GridSearchCV
    from sklearn.pipeline import make_pipeline
    out = {}
    for name in ["iris", "wine", "vehicle"]:
        x, y = load(name)
        folds = np.loadtxt(os.path.join(ROOT, "testdata", "reference", "folds", name + ".folds.csv"),
                           skiprows=1, dtype=int)
        rows = []
        for k in range(folds.max() + 1):
            tr, te = folds != k, folds == k
            gs = GridSearchCV(make_pipeline(StandardScaler(), logreg()), {"logisticregression__C": TUNE_C},
                              cv=StratifiedKFold(5, shuffle=True, random_state=0), scoring="accuracy")
            gs.fit(x[tr], y[tr])
            rows.append({
                "fold": k, "C": gs.best_params_["logisticregression__C"],
                "inner": list(gs.cv_results_["mean_test_score"]),
                "accuracy": float(np.mean(gs.predict(x[te]) == y[te])), "n_test": int(te.sum()),
            })
        out[name] = rows
    return out


def main():
    dump(os.path.join(ROOT, "plugins", "logreg", "testdata", "balanced_breast_cancer.json"), balanced_optimum())
    dump(os.path.join(HERE, "class_weight.json"), glass_class_weight())
    dump(os.path.join(HERE, "holdout.json"), adult_holdout())
    dump(os.path.join(HERE, "tuning.json"), tuning())


if __name__ == "__main__":
    sys.exit(main())
