#!/usr/bin/python3
"""Generate sklearn_nb.json with Debian python3-sklearn 1.2.1.

Run from the package directory: /usr/bin/python3 testdata/gen_sklearn_nb.py

Every data set is cross-validated on the reference folds of the
repository's testdata/reference/folds, as bayes_test.go does:
- numeric data sets standardised per fold (mean and population standard
  deviation over the training rows, summed row by row as NumPy sums along
  axis 0; a constant column gets scale 1), "digits_raw" unscaled (pixel
  counts 0-16, for the discrete models);
- car one-hot encoded per fold: one column per value of each column seen
  in the training rows, values in sorted order, columns in file order
  (OneHotEncoder(handle_unknown="ignore")).
"weighted" configurations pass sample_weight = 1 + (row number in the file
mod 3).

Output, for each data set and configuration (see CONFIGS): the class
predicted for every row by its fold's model ("predictions"), the
probabilities of every 10th row ("proba", keyed by row), and fold 0's
fitted parameters ("fold0": theta_, var_, epsilon_, class_prior_ of
GaussianNB; feature_log_prob_, class_log_prior_ of the discrete models).
"""
import csv
import gzip
import json
import os

import numpy as np
import sklearn
from sklearn.naive_bayes import BernoulliNB, GaussianNB, MultinomialNB

HERE = os.path.dirname(os.path.abspath(__file__))
TESTDATA = os.path.join(HERE, "..", "..", "..", "..", "testdata")

CONFIGS = {
    "iris": {"gaussian": (GaussianNB, {}), "gaussian_smooth": (GaussianNB, dict(var_smoothing=1e-2)),
             "gaussian_weighted": (GaussianNB, {})},
    "wine": {"gaussian": (GaussianNB, {})},
    "breast_cancer": {"gaussian": (GaussianNB, {}), "gaussian_weighted": (GaussianNB, {})},
    "vehicle": {"gaussian": (GaussianNB, {})},
    "segment": {"gaussian": (GaussianNB, {})},
    "digits": {"gaussian": (GaussianNB, {})},
    "digits_raw": {
        "multinomial": (MultinomialNB, {}),
        "multinomial_a05_uniform": (MultinomialNB, dict(alpha=0.5, fit_prior=False)),
        "multinomial_weighted": (MultinomialNB, {}),
        "bernoulli": (BernoulliNB, {}),
        "bernoulli_b8_a05": (BernoulliNB, dict(binarize=8.0, alpha=0.5)),
        "bernoulli_weighted": (BernoulliNB, {}),
    },
    "car": {
        "multinomial": (MultinomialNB, {}),
        "bernoulli_none": (BernoulliNB, dict(binarize=None)),
        "bernoulli_uniform": (BernoulliNB, dict(fit_prior=False, alpha=2.0)),
    },
}


def open_data(path):
    if os.path.exists(path):
        return open(path)
    return gzip.open(path + ".gz", "rt")


def load(name):
    with open_data(os.path.join(TESTDATA, "data", name + ".csv")) as f:
        rows = list(csv.reader(f))[1:]
    labels = [r[-1] for r in rows]
    classes = sorted(set(labels))
    y = np.array([classes.index(l) for l in labels])
    with open(os.path.join(TESTDATA, "reference", "folds", name + ".folds.csv")) as f:
        folds = np.array([int(r[0]) for r in list(csv.reader(f))[1:]])
    feats = [r[:-1] for r in rows]
    if name == "car":
        return feats, y, folds
    return np.array([[float(v) for v in r] for r in feats]), y, folds


def onehot(feats, tr, te):
    cols = len(feats[0])
    cats = [sorted({feats[i][j] for i in tr}) for j in range(cols)]

    def enc(rows):
        out = np.zeros((len(rows), sum(len(c) for c in cats)))
        for r, i in enumerate(rows):
            off = 0
            for j in range(cols):
                if feats[i][j] in cats[j]:
                    out[r, off + cats[j].index(feats[i][j])] = 1
                off += len(cats[j])
        return out
    return enc(tr), enc(te)


def split(name, x, folds, k):
    tr, te = np.flatnonzero(folds != k), np.flatnonzero(folds == k)
    if name == "car":
        return onehot(x, tr, te)
    xtr, xte = x[tr], x[te]
    if name.endswith("_raw"):
        return xtr, xte
    mean = xtr.mean(axis=0)
    sd = xtr.std(axis=0)
    sd[sd == 0] = 1
    return (xtr - mean) / sd, (xte - mean) / sd


def params(m):
    if isinstance(m, GaussianNB):
        return {"theta": m.theta_.tolist(), "var": m.var_.tolist(), "epsilon": m.epsilon_,
                "class_prior": m.class_prior_.tolist()}
    return {"feature_log_prob": m.feature_log_prob_.tolist(), "class_log_prior": m.class_log_prior_.tolist()}


def main():
    out = {"sklearn": sklearn.__version__, "datasets": {}}
    for name, configs in CONFIGS.items():
        x, y, folds = load(name.replace("_raw", ""))
        K = len(set(y))
        entry = {}
        for cname, (cls, cfg) in configs.items():
            pred = np.zeros(len(y), dtype=int)
            proba = {}
            fold0 = None
            for k in range(10):
                tr = np.flatnonzero(folds != k)
                xtr, xte = split(name, x, folds, k)
                sw = (1 + tr % 3).astype(float) if cname.endswith("_weighted") else None
                m = cls(**cfg).fit(xtr, y[tr], sample_weight=sw)
                rows = np.flatnonzero(folds == k)
                pred[rows] = m.predict(xte)
                p = np.zeros((len(rows), K))
                p[:, m.classes_] = m.predict_proba(xte)
                for j, r in enumerate(rows):
                    if r % 10 == 0:
                        proba[str(r)] = p[j].tolist()
                if k == 0:
                    fold0 = params(m)
            entry[cname] = {"predictions": pred.tolist(), "proba": proba, "fold0": fold0}
        out["datasets"][name] = entry
    with open(os.path.join(HERE, "sklearn_nb.json"), "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
