"""Per-fold predictions of scikit-learn's own multiclass wrappers, the
reference the bridge's cells under bench's reductions must equal (the
venv tests of cmd/bench run it with the venv's interpreter):

    python sklearn_reference.py SETUP DATA.csv FOLDS.csv

SETUP is one of

    ovo-logreg        OneVsOneClassifier(LogisticRegression())
    ova-xgboost       OneVsRestClassifier(XGBClassifier(n_estimators=20, max_depth=3, n_jobs=1))
    ova-smote-logreg  OneVsRestClassifier(imblearn make_pipeline(SMOTE(random_state=0),
                                          LogisticRegression(max_iter=1000)))

DATA.csv has numeric feature columns and the class in its last column;
FOLDS.csv one fold number a row (column "fold"). Each fold's model is
trained on the other folds' rows, in file order. One JSON line a fold:
{"fold": K, "rows": [...], "predicted": [...], "accuracy": A}, rows being
0-based data rows in file order and predicted their class names.
"""

import csv
import json
import sys

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.multiclass import OneVsOneClassifier, OneVsRestClassifier


def model(setup):
    if setup == "ovo-logreg":
        return OneVsOneClassifier(LogisticRegression())
    if setup == "ova-xgboost":
        from xgboost import XGBClassifier

        return OneVsRestClassifier(XGBClassifier(n_estimators=20, max_depth=3, n_jobs=1))
    if setup == "ova-smote-logreg":
        from imblearn.over_sampling import SMOTE
        from imblearn.pipeline import make_pipeline

        return OneVsRestClassifier(make_pipeline(SMOTE(random_state=0), LogisticRegression(max_iter=1000)))
    sys.exit(f"unknown setup {setup!r}")


def main():
    setup, data, folds = sys.argv[1:4]
    with open(data, newline="") as f:
        rows = list(csv.reader(f))[1:]
    X = np.array([[float(v) for v in r[:-1]] for r in rows])
    y = np.array([r[-1] for r in rows])
    with open(folds, newline="") as f:
        fold = np.array([int(r[0]) for r in list(csv.reader(f))[1:]])
    for k in np.unique(fold):
        train, test = np.flatnonzero(fold != k), np.flatnonzero(fold == k)
        pred = model(setup).fit(X[train], y[train]).predict(X[test])
        print(json.dumps({"fold": int(k), "rows": test.tolist(), "predicted": pred.tolist(),
                          "accuracy": float(np.mean(pred == y[test]))}))


if __name__ == "__main__":
    main()
