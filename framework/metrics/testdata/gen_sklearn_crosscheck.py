#!/usr/bin/env python3
"""Generate sklearn_crosscheck.json: seeded random folds scored by scikit-learn.

Run with the Debian interpreter that has scikit-learn 1.2.1:
    /usr/bin/python3 gen_sklearn_crosscheck.py > sklearn_crosscheck.json

Conventions that differ from a bare sklearn call (documented in the Go package):
  * log_loss uses sklearn 1.2's default eps="auto" (float64 machine epsilon);
  * brier is the multiclass Brier score mean_i sum_k (p_ik - [y_i=k])^2, which
    sklearn 1.2 does not provide (brier_score_loss is binary only);
  * auc_ovr/auc_ovr_weighted: when a class is absent from y_true sklearn raises,
    the Go package skips that class, so the expected value is the (weighted)
    mean of sklearn's binary roc_auc_score over the classes present.
"""
import json
import sys
import warnings

import numpy as np
import sklearn
from sklearn import metrics as M

warnings.simplefilter("ignore")


def multiclass_case(name, y, p, prob, K):
    labels = list(range(K))
    present = [k for k in labels if (y == k).any()]
    e = {
        "accuracy": M.accuracy_score(y, p),
        "error": 1 - M.accuracy_score(y, p),
        "balanced_accuracy": M.balanced_accuracy_score(y, p),
        "kappa": M.cohen_kappa_score(y, p),
        "mcc": M.matthews_corrcoef(y, p),
        "log_loss": M.log_loss(y, prob, labels=labels),
        "brier": float(np.mean(np.sum((prob - np.eye(K)[y]) ** 2, axis=1))),
        "auc_ovo": M.roc_auc_score(y, prob, multi_class="ovo", average="macro", labels=labels),
    }
    for avg in ("micro", "macro", "weighted"):
        e[avg + "_precision"] = M.precision_score(y, p, average=avg, zero_division=0)
        e[avg + "_recall"] = M.recall_score(y, p, average=avg, zero_division=0)
        e[avg + "_f1"] = M.f1_score(y, p, average=avg, zero_division=0)
    if len(present) == K:
        e["auc_ovr"] = M.roc_auc_score(y, prob, multi_class="ovr", average="macro", labels=labels)
        e["auc_ovr_weighted"] = M.roc_auc_score(y, prob, multi_class="ovr", average="weighted", labels=labels)
    else:
        aucs = [M.roc_auc_score(y == k, prob[:, k]) for k in present]
        w = [np.sum(y == k) for k in present]
        e["auc_ovr"] = float(np.mean(aucs))
        e["auc_ovr_weighted"] = float(np.average(aucs, weights=w))
    return {
        "name": name, "k": K, "true": y.tolist(), "pred": p.tolist(),
        "prob": prob.tolist(), "expected": {k: float(v) for k, v in e.items()},
    }


def multilabel_case(name, Y, Z):
    e = {
        "hamming_loss": M.hamming_loss(Y, Z),
        "jaccard": M.jaccard_score(Y, Z, average="samples", zero_division=0),
        "example_precision": M.precision_score(Y, Z, average="samples", zero_division=0),
        "example_recall": M.recall_score(Y, Z, average="samples", zero_division=0),
        "example_f1": M.f1_score(Y, Z, average="samples", zero_division=0),
        "subset_accuracy": M.accuracy_score(Y, Z),
    }
    for avg in ("micro", "macro", "weighted"):
        e[avg + "_precision"] = M.precision_score(Y, Z, average=avg, zero_division=0)
        e[avg + "_recall"] = M.recall_score(Y, Z, average=avg, zero_division=0)
        e[avg + "_f1"] = M.f1_score(Y, Z, average=avg, zero_division=0)
    return {
        "name": name, "k": Y.shape[1], "true_set": Y.tolist(), "pred_set": Z.tolist(),
        "expected": {k: float(v) for k, v in e.items()},
    }


def main():
    mc = []
    for seed, K, n, variant in [
        (1, 3, 40, "plain"),
        (2, 4, 60, "pred_missing_class"),
        (3, 5, 80, "pred_missing_class"),
        (4, 4, 50, "true_missing_class"),
        (5, 5, 70, "tied_probs"),
        (6, 3, 30, "zero_probs"),
        (7, 5, 25, "true_missing_class"),
    ]:
        rng = np.random.default_rng(seed)
        if variant == "true_missing_class":
            y = rng.choice(np.arange(1, K), size=n)
        else:
            y = rng.integers(0, K, size=n)
            y[:K] = np.arange(K)  # every class occurs
        if variant == "tied_probs":
            # probabilities on a grid of tenths: many ties within columns
            prob = np.zeros((n, K))
            for i in range(n):
                cuts = np.sort(rng.integers(0, 11, size=K - 1))
                parts = np.diff(np.concatenate(([0], cuts, [10])))
                prob[i] = parts / 10
        else:
            alpha = np.ones(K)
            prob = rng.dirichlet(alpha, size=n)
            # make the true class likelier so the scores are informative
            prob[np.arange(n), y] += rng.uniform(0, 1, size=n)
            prob /= prob.sum(axis=1, keepdims=True)
        if variant == "zero_probs":
            prob[: n // 3, :] = 0
            prob[np.arange(n // 3), rng.integers(0, K, size=n // 3)] = 1
        p = prob.argmax(axis=1)
        noisy = rng.uniform(size=n) < 0.2
        p[noisy] = rng.integers(0, K, size=noisy.sum())
        if variant == "pred_missing_class":
            p[p == K - 1] = 0
        mc.append(multiclass_case(f"seed{seed}_K{K}_{variant}", y, p, prob, K))

    ml = []
    for seed, K, n in [(11, 3, 20), (12, 5, 30), (13, 6, 40), (14, 4, 25)]:
        rng = np.random.default_rng(seed)
        Y = (rng.uniform(size=(n, K)) < 0.35).astype(int)
        Z = Y.copy()
        flip = rng.uniform(size=(n, K)) < 0.25
        Z[flip] = 1 - Z[flip]
        Y[0] = 0          # empty true set
        Z[1] = 0          # empty predicted set
        Y[2] = 0          # both empty
        Z[2] = 0
        if K >= 5:
            Y[:, K - 1] = 0  # a label that never occurs ...
            Z[:, K - 1] = 0  # ... nor is ever predicted
        ml.append(multilabel_case(f"seed{seed}_K{K}", Y, Z))

    json.dump({"sklearn_version": sklearn.__version__, "multiclass": mc, "multilabel": ml},
              sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
