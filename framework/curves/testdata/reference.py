#!/usr/bin/python3
"""Reference values for package curves and the per-class report.

Reads the out-of-fold predictions that bench wrote for wine.hcl and
emotions.hcl (output { predictions = true }; the files are copied here as
*_predictions.csv) and writes reference.json.gz: for each cell, scikit-learn's
classification_report, roc_curve (drop_intermediate=False),
precision_recall_curve, roc_auc_score and average_precision_score per class
and micro- and macro-averaged, the macro-averaged ROC curve of
scikit-learn's ROC example, and the reliability diagram with the expected
calibration error in 15 equal-width bins (Guo et al. 2017).

Run with Debian's python3 (python3-sklearn): /usr/bin/python3 reference.py
"""
import csv
import gzip
import json
import math
import os
from collections import OrderedDict

import numpy as np
import sklearn
from sklearn.metrics import (average_precision_score, classification_report,
                             precision_recall_curve, roc_auc_score, roc_curve)

HERE = os.path.dirname(os.path.abspath(__file__))
BINS = 15


def cells(path):
    """Groups the rows of a predictions file by cell, in file order."""
    out = OrderedDict()
    with open(path, newline="") as f:
        r = csv.reader(f)
        head = next(r)
        classes = [h[len("score_"):] for h in head if h.startswith("score_")]
        for row in r:
            rec = dict(zip(head, row))
            key = (rec["dataset"], rec.get("pipeline", rec.get("encoder")), rec["learner"], rec["params"], rec["reduction"])
            out.setdefault(key, []).append(rec)
    return classes, out


def nums(x):
    """A list of floats for JSON: NaN and infinities as null."""
    return [None if not math.isfinite(v) else float(v) for v in np.asarray(x, dtype=float)]


def num(v):
    v = float(v)
    return None if not math.isfinite(v) else v


def reliability(y, s):
    conf = s.max(axis=1)
    pred = s.argmax(axis=1)
    b = np.clip(np.ceil(conf * BINS).astype(int) - 1, 0, BINS - 1)
    count, mconf, acc = [], [], []
    ece, mce = 0.0, 0.0
    for m in range(BINS):
        sel = b == m
        n = int(sel.sum())
        count.append(n)
        if n == 0:
            mconf.append(None)
            acc.append(None)
            continue
        c = float(conf[sel].mean())
        a = float((pred[sel] == y[sel]).mean())
        mconf.append(c)
        acc.append(a)
        ece += n / len(y) * abs(a - c)
        mce = max(mce, abs(a - c))
    return {"count": count, "confidence": mconf, "accuracy": acc, "ece": ece, "mce": mce}


def one(classes, recs, multilabel):
    k = len(classes)
    s = np.array([[float(r["score_" + c]) for c in classes] for r in recs])
    if multilabel:
        def ind(field):
            return np.array([[1 if c in r[field].split(";") else 0 for c in classes] for r in recs])
        Y, P = ind("true"), ind("predicted")
        rep = classification_report(Y, P, target_names=classes, output_dict=True, zero_division=0)
        y = None
    else:
        y = np.array([classes.index(r["true"]) for r in recs])
        p = np.array([classes.index(r["predicted"]) for r in recs])
        Y = np.eye(k, dtype=int)[y]
        rep = classification_report(y, p, labels=list(range(k)), target_names=classes, output_dict=True, zero_division=0)
    per = []
    fprs, tprs = [], []
    for j in range(k):
        fpr, tpr, thr = roc_curve(Y[:, j], s[:, j], drop_intermediate=False)
        prec, rec, pthr = precision_recall_curve(Y[:, j], s[:, j])
        fprs.append(fpr)
        tprs.append(tpr)
        per.append({"class": classes[j], "fpr": nums(fpr), "tpr": nums(tpr), "roc_thresholds": nums(thr[1:]),
                    "auc": num(roc_auc_score(Y[:, j], s[:, j])),
                    "precision": nums(prec), "recall": nums(rec), "pr_thresholds": nums(pthr),
                    "ap": num(average_precision_score(Y[:, j], s[:, j]))})
    # The macro-averaged ROC curve of scikit-learn's ROC example.
    all_fpr = np.linspace(0.0, 1.0, 1000)
    mean_tpr = np.zeros_like(all_fpr)
    for j in range(k):
        mean_tpr += np.interp(all_fpr, fprs[j], tprs[j])
    mean_tpr /= k
    out = {
        "dataset": recs[0]["dataset"], "learner": recs[0]["learner"], "params": recs[0]["params"],
        "reduction": recs[0]["reduction"], "classes": classes, "multilabel": multilabel, "rows": len(recs),
        "report": rep, "per_class": per,
        "micro_auc": num(roc_auc_score(Y, s, average="micro")),
        "micro_ap": num(average_precision_score(Y, s, average="micro")),
        "macro_auc": num(roc_auc_score(Y, s, average="macro")),
        "macro_ap": num(average_precision_score(Y, s, average="macro")),
        "macro_roc": {"fpr": nums(all_fpr), "tpr": nums(mean_tpr)},
    }
    mfpr, mtpr, _ = roc_curve(Y.ravel(), s.ravel(), drop_intermediate=False)
    out["micro_roc"] = {"fpr": nums(mfpr), "tpr": nums(mtpr)}
    if not multilabel:
        out["reliability"] = reliability(y, s)
    return out


def main():
    result = {"sklearn": sklearn.__version__, "numpy": np.__version__, "cells": []}
    for name, multilabel in (("wine_predictions.csv", False), ("emotions_predictions.csv", True)):
        classes, groups = cells(os.path.join(HERE, name))
        for recs in groups.values():
            result["cells"].append(one(classes, recs, multilabel))
    # Compressed, without a time stamp: the bytes depend on the inputs only.
    with open(os.path.join(HERE, "reference.json.gz"), "wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0, filename="") as f:
            f.write(json.dumps(result, separators=(",", ":")).encode() + b"\n")


if __name__ == "__main__":
    main()
