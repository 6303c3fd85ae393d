#!/usr/bin/python3
"""Generate testdata/sklearn_lda.json with Debian python3-sklearn 1.2.1.

Run from the package directory: /usr/bin/python3 testdata/gen_sklearn_lda.py

For each dataset the reference folds of testdata/reference/folds (the repository root) are used;
each training part is standardised (mean, population std, constant column
-> scale 1) and the same scaling is applied to its test part, as in
helpers_test.go. Classes are indexed in sorted string order.

"predictions": per data row (original order), the class predicted by the
model fitted on the other nine folds, for each solver configuration.
"models": coef_, intercept_ and predict_proba of the first test rows of
fold 0 for a few multiclass datasets and configurations.
"covariance": sklearn.covariance.ledoit_wolf and shrunk_covariance(0.3) of
the first 40 rows of wine.csv (unscaled).
"""
import csv
import json
import gzip
import os

import numpy as np
import sklearn
from sklearn.covariance import empirical_covariance, ledoit_wolf, shrunk_covariance
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

TESTDATA = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "testdata")


def open_data(path):
    """Opens a data file of testdata, or its gzip-compressed copy."""
    if os.path.exists(path):
        return open(path)
    return gzip.open(path + ".gz", "rt")
CONFIGS = {
    "svd": dict(solver="svd"),
    "lsqr": dict(solver="lsqr"),
    "lsqr_0.3": dict(solver="lsqr", shrinkage=0.3),
    "lsqr_auto": dict(solver="lsqr", shrinkage="auto"),
}


def load(name):
    with open_data(os.path.join(TESTDATA, "data", name + ".csv")) as f:
        rows = list(csv.reader(f))[1:]
    x = np.array([[float(v) for v in r[:-1]] for r in rows])
    labels = [r[-1] for r in rows]
    classes = sorted(set(labels))
    y = np.array([classes.index(l) for l in labels])
    with open(os.path.join(TESTDATA, "reference", "folds", name + ".folds.csv")) as f:
        folds = np.array([int(r[0]) for r in list(csv.reader(f))[1:]])
    return x, y, folds


def split(x, y, folds, k):
    tr, te = folds != k, folds == k
    mean = x[tr].mean(axis=0)
    scale = x[tr].std(axis=0)
    scale[scale == 0] = 1
    return (x[tr] - mean) / scale, y[tr], (x[te] - mean) / scale, y[te]


def main():
    out = {"sklearn": sklearn.__version__, "predictions": {}, "models": []}
    for name in ["iris", "wine", "breast_cancer", "vehicle", "digits", "segment"]:
        x, y, folds = load(name)
        preds = {}
        for cname, cfg in CONFIGS.items():
            p = np.zeros(len(y), dtype=int)
            for k in range(10):
                xtr, ytr, xte, _ = split(x, y, folds, k)
                p[folds == k] = LinearDiscriminantAnalysis(**cfg).fit(xtr, ytr).predict(xte)
            preds[cname] = p.tolist()
        out["predictions"][name] = preds
    for name, cnames in [
        ("wine", ["svd", "lsqr", "lsqr_0.3", "lsqr_auto"]),
        ("vehicle", ["svd", "lsqr", "lsqr_0.3", "lsqr_auto"]),
        ("segment", ["svd", "lsqr_0.3", "lsqr_auto"]),
    ]:
        x, y, folds = load(name)
        xtr, ytr, xte, _ = split(x, y, folds, 0)
        for cname in cnames:
            m = LinearDiscriminantAnalysis(**CONFIGS[cname]).fit(xtr, ytr)
            entry = {
                "dataset": name,
                "config": cname,
                "coef": m.coef_.tolist(),
                "intercept": m.intercept_.tolist(),
                "proba_first5": m.predict_proba(xte[:5]).tolist(),
            }
            if cname == "svd":
                entry["explained_variance_ratio"] = m.explained_variance_ratio_.tolist()
            out["models"].append(entry)
    x, _, _ = load("wine")
    lw, lw_shrinkage = ledoit_wolf(x[:40])
    out["covariance"] = {
        "rows": 40,
        "ledoit_wolf": lw.tolist(),
        "ledoit_wolf_shrinkage": lw_shrinkage,
        "shrunk_0.3": shrunk_covariance(empirical_covariance(x[:40]), 0.3).tolist(),
    }
    with open(os.path.join(os.path.dirname(__file__), "sklearn_lda.json"), "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
