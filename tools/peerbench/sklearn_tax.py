"""The plain-Python side of the sklearn plugin tax, for cmd/peerbench.

    python3 sklearn_tax.py folds DATA.csv OUT.csv   # write 10 stratified folds
    python3 sklearn_tax.py loop DATA.csv FOLDS.csv  # cross-validate

DATA.csv has a header and a `class` column; every other column is numeric.
`folds` writes StratifiedKFold(10, shuffle=True, random_state=0) fold ids
(one `fold` column), the file the bench side reads too. `loop` does by hand
what `bench run` does through the plugin: per fold, standardise on the
training part (population standard deviation), fit one
LogisticRegression(C=1, lbfgs, max_iter=1000) per class against the rest
(targets ±1), predict the class of largest decision value. It prints the
mean accuracy as JSON on stdout.
"""

import json
import sys
import warnings

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold


def load(path):
    with open(path) as f:
        header = f.readline().strip().split(",")
    cls = header.index("class")
    raw = np.loadtxt(path, delimiter=",", skiprows=1, dtype=str)
    y_names = raw[:, cls]
    x = np.delete(raw, cls, axis=1).astype(np.float64)
    classes, y = np.unique(y_names, return_inverse=True)
    return x, y, len(classes)


def folds(data, out):
    x, y, _ = load(data)
    ids = np.zeros(len(y), dtype=int)
    for k, (_, test) in enumerate(StratifiedKFold(10, shuffle=True, random_state=0).split(x, y)):
        ids[test] = k
    with open(out, "w") as f:
        f.write("fold\n")
        f.writelines(f"{k}\n" for k in ids)


def loop(data, folds_file):
    x, y, k = load(data)
    fold = np.loadtxt(folds_file, skiprows=1, dtype=int)
    accs = []
    for f in np.unique(fold):
        tr, te = fold != f, fold == f
        mu, sd = x[tr].mean(axis=0), x[tr].std(axis=0)
        sd[sd == 0] = 1
        xtr, xte = (x[tr] - mu) / sd, (x[te] - mu) / sd
        scores = np.empty((xte.shape[0], k))
        for c in range(k):
            t = np.where(y[tr] == c, 1, -1)
            est = LogisticRegression(C=1, solver="lbfgs", max_iter=1000)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                est.fit(xtr, t)
            scores[:, c] = est.decision_function(xte)
        accs.append(float(np.mean(scores.argmax(axis=1) == y[te])))
    json.dump({"accuracy": float(np.mean(accs)), "folds": len(accs)}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("folds", "loop"):
        sys.exit(__doc__)
    (folds if sys.argv[1] == "folds" else loop)(sys.argv[2], sys.argv[3])
