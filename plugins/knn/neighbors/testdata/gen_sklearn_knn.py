#!/usr/bin/python3
"""Generate sklearn_knn.json with Debian python3-sklearn 1.2.1.

Run from the package directory: /usr/bin/python3 testdata/gen_sklearn_knn.py

Every data set is cross-validated on the reference folds of the
repository's testdata/reference/folds. Each training part is standardised
(mean and population standard deviation over the training rows, summed row
by row as NumPy does along axis 0; a constant column gets scale 1) and the
same scaling is applied to its test part; neighbours_test.go standardises
the same way, so both sides search the same numbers. "digits_raw" is digits
unscaled: its integer pixels make squared distances exact, and so ties
between rows at equal distance common, which tests that the same rows are
kept among them. "digits_csr" passes the raw digits as a scipy CSR matrix
(scikit-learn's sparse path, whose sums the Go side reproduces bit for bit).

scikit-learn's brute-force Euclidean and Manhattan searches run on OpenMP
threads. With several threads and fewer than 4·256·threads test rows they
split the training rows between threads and merge the threads' heaps, which
can keep a different row among rows at equal distance than one thread
does. The references are computed with one thread (OMP_NUM_THREADS=1, set
below before NumPy and scikit-learn load): the order a single pass offers
the rows in, which polyclass reproduces on any machine. The script reports
on stderr how many predictions the machine's default thread count changes.

Output, for each data set and configuration (see CONFIGS): the class
predicted for every row by the model of its fold ("predictions"), the
predicted probabilities of every 14th row ("proba", keyed by row), the
algorithm scikit-learn chose, and for the default configuration the
neighbour indices of every row, in scikit-learn's order, as indices into
the fold's training rows in file order ("neighbors"). "trees" holds the
KD trees scikit-learn builds on fold 0 of iris and wine (idx_array and each
node's start, end and leaf flag).
"""
import csv
import gzip
import json
import os
import subprocess
import sys

if os.environ.get("OMP_NUM_THREADS") is None and "--default-threads" not in sys.argv:
    os.environ["OMP_NUM_THREADS"] = "1"

import numpy as np
import scipy.sparse
import sklearn
from sklearn.neighbors import KDTree, KNeighborsClassifier

HERE = os.path.dirname(os.path.abspath(__file__))
TESTDATA = os.path.join(HERE, "..", "..", "..", "..", "testdata")

CONFIGS = {
    "default": dict(),
    "distance": dict(weights="distance"),
    "k10_distance": dict(n_neighbors=10, weights="distance"),
    "k1": dict(n_neighbors=1),
    "manhattan": dict(metric="manhattan"),
    "manhattan_distance": dict(metric="manhattan", weights="distance"),
    "cosine": dict(metric="cosine"),
    "cosine_k10_distance": dict(metric="cosine", n_neighbors=10, weights="distance"),
    "brute": dict(algorithm="brute"),
    "kd_tree": dict(algorithm="kd_tree"),
    "kd_tree_manhattan": dict(algorithm="kd_tree", metric="manhattan", weights="distance"),
}

DATASETS = ["iris", "wine", "breast_cancer", "vehicle", "segment", "digits_raw", "digits_csr"]

# The configurations digits_raw and digits_csr (slow to search: 64
# columns) are compared on: those whose ties the integer pixels test.
DIGITS_CONFIGS = {
    "digits_raw": ["default", "distance", "k10_distance", "manhattan", "cosine", "kd_tree"],
    "digits_csr": ["default", "k10_distance", "manhattan"],
}


def open_data(path):
    if os.path.exists(path):
        return open(path)
    return gzip.open(path + ".gz", "rt")


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


def split(x, y, folds, k, scale):
    tr, te = folds != k, folds == k
    xtr, xte = x[tr], x[te]
    if scale:
        mean = xtr.mean(axis=0)
        sd = xtr.std(axis=0)
        sd[sd == 0] = 1
        xtr, xte = (xtr - mean) / sd, (xte - mean) / sd
    return xtr, y[tr], xte


def base(name):
    return name.split("_")[0] if name.startswith("digits") else name


def main():
    out = {"sklearn": sklearn.__version__, "threads": os.environ.get("OMP_NUM_THREADS", "default"), "datasets": {}}
    for name in DATASETS:
        x, y, folds = load(base(name))
        scale = name == base(name)
        entry = {}
        for cname, cfg in CONFIGS.items():
            if cname not in DIGITS_CONFIGS.get(name, CONFIGS):
                continue
            pred = np.zeros(len(y), dtype=int)
            proba = {}
            neighbors = [None] * len(y)
            algos = set()
            for k in range(10):
                xtr, ytr, xte = split(x, y, folds, k, scale)
                if name.endswith("_csr"):
                    xtr, xte = scipy.sparse.csr_matrix(xtr), scipy.sparse.csr_matrix(xte)
                m = KNeighborsClassifier(**cfg).fit(xtr, ytr)
                algos.add(m._fit_method)
                rows = np.flatnonzero(folds == k)
                pred[rows] = m.predict(xte)
                p = m.predict_proba(xte)
                full = np.zeros((len(rows), len(set(y))))
                full[:, m.classes_] = p
                for j, r in enumerate(rows):
                    if r % 14 == 0:
                        proba[str(r)] = full[j].tolist()
                if cname == "default":
                    ind = m.kneighbors(xte, return_distance=False)
                    for j, r in enumerate(rows):
                        neighbors[r] = ind[j].tolist()
            e = {"algorithm": sorted(algos), "predictions": pred.tolist(), "proba": proba}
            if cname == "default":
                e["neighbors"] = neighbors
            entry[cname] = e
        out["datasets"][name] = entry
    trees = {}
    for name in ["iris", "wine"]:
        x, y, folds = load(name)
        xtr, _, _ = split(x, y, folds, 0, True)
        data, idx, nodes, bounds = KDTree(xtr, leaf_size=30).get_arrays()
        trees[name] = {
            "idx_array": idx.tolist(),
            "start": [int(n["idx_start"]) for n in nodes],
            "end": [int(n["idx_end"]) for n in nodes],
            "leaf": [bool(n["is_leaf"]) for n in nodes],
        }
    out["trees"] = trees
    if "--default-threads" in sys.argv:
        json.dump(out, sys.stdout, separators=(",", ":"))
        return
    with open(os.path.join(HERE, "sklearn_knn.json"), "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")
    # How many predictions the machine's default OpenMP thread count changes.
    env = dict(os.environ)
    del env["OMP_NUM_THREADS"]
    other = json.loads(subprocess.run([sys.executable, __file__, "--default-threads"], env=env,
                                      check=True, capture_output=True, text=True).stdout)
    for name, entry in out["datasets"].items():
        for cname, e in entry.items():
            a, b = e["predictions"], other["datasets"][name][cname]["predictions"]
            diff = sum(u != v for u, v in zip(a, b))
            nb = ""
            if "neighbors" in e:
                nb = ", %d neighbour lists differ" % sum(u != v for u, v in zip(e["neighbors"], other["datasets"][name][cname]["neighbors"]))
            if diff or nb.startswith(", ") and not nb.startswith(", 0 "):
                print(f"{name}/{cname}: {diff} predictions differ with the default threads{nb}", file=sys.stderr)
    print("compared with the default OpenMP threads", file=sys.stderr)


if __name__ == "__main__":
    main()
