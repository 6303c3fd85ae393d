#!/usr/bin/env python3
"""Generate liblinear_ref.json: reference optima computed by LIBLINEAR.

Uses /usr/bin/liblinear-train (Debian liblinear-tools, LIBLINEAR 2.3.0) with
a very tight eps, and pure Python (no numpy) to standardise the data and to
evaluate the primal objectives of the returned models.

Problems (features standardised with the whole file's mean and population
std, bias = 1 penalised as LIBLINEAR's -B 1):
  cs_<data>_C<c>:   Crammer-Singer (-s 4), classes = sorted class strings
                    mapped to 0..K-1; W is K x d, B has K entries.
  sqhinge_breast_cancer_C<c>: L2-loss SVM, y=+1 malignant, solved in the
                    PRIMAL by trust-region Newton (-s 2; an independent check
                    of the dual solver, -s 1 needs > 1000 iterations here).

Run from this directory: python3 gen_liblinear.py
"""
import csv
import json
import math
import os
import subprocess
import tempfile

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                    "../../../../../shared/data")
EPS = "1e-10"


def load(name):
    with open(os.path.join(DATA, name + ".csv")) as f:
        rows = list(csv.reader(f))[1:]
    x = [[float(v) for v in r[:-1]] for r in rows]
    y = [r[-1] for r in rows]
    n, d = len(x), len(x[0])
    mu = [sum(r[j] for r in x) / n for j in range(d)]
    sd = [math.sqrt(sum((r[j] - mu[j]) ** 2 for r in x) / n) for j in range(d)]
    sd = [s if s > 0 else 1.0 for s in sd]
    x = [[(r[j] - mu[j]) / sd[j] for j in range(d)] for r in x]
    return x, y


def train(x, labels, s, c, tmp):
    data = os.path.join(tmp, "data.svm")
    model = os.path.join(tmp, "model")
    with open(data, "w") as f:
        for xi, yi in zip(x, labels):
            f.write("%d %s\n" % (yi, " ".join(
                "%d:%.17g" % (j + 1, v) for j, v in enumerate(xi))))
    out = subprocess.run(["liblinear-train", "-s", str(s), "-c", str(c), "-B", "1",
                          "-e", EPS, data, model], check=True, capture_output=True,
                         text=True).stdout
    if "reaching max number of iterations" in out:
        raise RuntimeError("liblinear-train -s %d -c %g did not converge:\n%s" % (s, c, out))
    with open(model) as f:
        lines = f.read().split("\n")
    head = {}
    i = 0
    while lines[i] != "w":
        k, _, v = lines[i].partition(" ")
        head[k] = v
        i += 1
    w = [[float(t) for t in ln.split()] for ln in lines[i + 1:] if ln.strip()]
    return [int(t) for t in head["label"].split()], w  # w: (d+1) x cols


def cs(name, c, tmp):
    x, y = load(name)
    classes = sorted(set(y))
    yi = [classes.index(v) for v in y]
    order, w = train(x, yi, 4, c, tmp)
    k, d = len(classes), len(x[0])
    W = [[0.0] * d for _ in range(k)]
    B = [0.0] * k
    for col, lab in enumerate(order):
        for j in range(d):
            W[lab][j] = w[j][col]
        B[lab] = w[d][col]
    obj = 0.5 * (sum(v * v for r in W for v in r) + sum(v * v for v in B))
    loss = 0.0
    for xr, t in zip(x, yi):
        f = [sum(a * b for a, b in zip(W[m], xr)) + B[m] for m in range(k)]
        loss += max(0.0, max(f[m] + 1 - f[t] for m in range(k) if m != t))
    return {"objective": obj + c * loss, "W": W, "B": B}


def sqhinge(c, tmp):
    x, y = load("breast_cancer")
    lab = [1 if v == "malignant" else -1 for v in y]
    order, w = train(x, lab, 2, c, tmp)
    sign = 1.0 if order[0] == 1 else -1.0
    d = len(x[0])
    W = [sign * w[j][0] for j in range(d)]
    b = sign * w[d][0]
    obj = 0.5 * (sum(v * v for v in W) + b * b)
    for xr, t in zip(x, lab):
        m = max(0.0, 1 - t * (sum(a * v for a, v in zip(W, xr)) + b))
        obj += c * m * m
    return {"objective": obj, "w": W, "b": b}


def main():
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, c in [("iris", 1), ("wine", 1), ("wine", 10), ("vehicle", 1)]:
            out["cs_%s_C%g" % (name, c)] = cs(name, c, tmp)
        for c in (0.1, 1):
            out["sqhinge_breast_cancer_C%g" % c] = sqhinge(c, tmp)
    with open("liblinear_ref.json", "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
