#!/usr/bin/env python3
"""Generate emotions_br_pred.csv: binary-relevance predictions on emotions.

Reproduces the `br` setup of /work/shared/reference/sklearn_multilabel.jsonl
(scikit-learn 1.2.1): per fold of folds/emotions.folds.csv, features
standardised on the training part, one LogisticRegression(C=1, lbfgs,
unpenalised intercept) per label, label predicted when P >= 0.5. The script
checks that sklearn's metrics on these predictions equal the reference file's
fold values, then writes one row of 0/1 predictions per data row (same order
as emotions.csv), columns in the order of its label_* columns.

    /usr/bin/python3 gen_emotions_br.py > emotions_br_pred.csv
"""
import csv
import gzip
import json
import sys

import numpy as np
from sklearn import metrics as M
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

TESTDATA = "../../../testdata"  # the repository's copies of the reference data

rows = list(csv.reader(gzip.open(f"{TESTDATA}/data/emotions.csv.gz", "rt")))
hdr, A = rows[0], np.array(rows[1:], dtype=float)
li = [i for i, c in enumerate(hdr) if c.startswith("label_")]
X = A[:, [i for i in range(len(hdr)) if i not in li]]
Y = A[:, li].astype(int)
folds = np.array([int(r[0]) for r in list(csv.reader(open(f"{TESTDATA}/reference/folds/emotions.folds.csv")))[1:]])
ref = {r["setup"]: r for r in map(json.loads, open(f"{TESTDATA}/reference/sklearn_multilabel.jsonl"))}["br"]

Z = np.zeros_like(Y)
for k in range(10):
    te, tr = folds == k, folds != k
    sc = StandardScaler().fit(X[tr])
    for j in range(Y.shape[1]):
        m = LogisticRegression(C=1, tol=1e-6, max_iter=10000).fit(sc.transform(X[tr]), Y[tr, j])
        Z[te, j] = (m.predict_proba(sc.transform(X[te]))[:, 1] >= 0.5).astype(int)
    got = {
        "hamming_loss": M.hamming_loss(Y[te], Z[te]),
        "jaccard": M.jaccard_score(Y[te], Z[te], average="samples", zero_division=0),
        "example_precision": M.precision_score(Y[te], Z[te], average="samples", zero_division=0),
        "example_recall": M.recall_score(Y[te], Z[te], average="samples", zero_division=0),
        "example_f1": M.f1_score(Y[te], Z[te], average="samples", zero_division=0),
        "subset_accuracy": M.accuracy_score(Y[te], Z[te]),
        "micro_f1": M.f1_score(Y[te], Z[te], average="micro", zero_division=0),
        "macro_f1": M.f1_score(Y[te], Z[te], average="macro", zero_division=0),
    }
    for name, v in got.items():
        want = ref["folds"][k][name]
        if abs(v - want) > 1e-12:
            sys.exit(f"fold {k} {name}: reproduced {v!r}, reference {want!r}")

w = csv.writer(sys.stdout, lineterminator="\n")
w.writerow([hdr[i] for i in li])
w.writerows(Z.tolist())
