#!/usr/bin/python3
"""Generate liblinear_cs_<data>.json: LIBLINEAR's Crammer-Singer predictions on
the reference folds of wine and vehicle, for TestCrammerSingerLiblinearParity.

Reads experiments/data/<data>.csv and its reference folds
experiments/data/folds/<data>.folds.csv (10 folds), standardises every
feature with the whole file's mean and population standard deviation
(rounded to 8 significant digits, the values both solvers read), maps the
classes to 0..K-1 by their sorted names, and for each C and each
fold trains /usr/bin/liblinear-train -s 4 (Debian liblinear-tools, LIBLINEAR
2.3.0) on the other folds' rows, with

  -B 1     a constant feature of value 1 appended to every row, its weight
           penalised with the others: the kernel x.z + 1, which is
           kernelsvm.TrainTogether's Bias = 1;
  -e 1e-6  LIBLINEAR's stopping tolerance for -s 4, the largest
           max_m G_i^m - min_{m: alpha_i^m < C_i^m} G_i^m, the same measure as
           TrainTogether's Eps (the test uses 1e-6 too);
  -c C     the same C (no row weights);

then predicts the fold's rows with liblinear-predict. The JSON holds the
standardised design (so that the Go test reads nothing outside testdata),
the classes, the folds and, per C, the predicted class of every row when
it was a test row.

Run from this directory: ./gen_liblinear_cs.py
"""
import csv
import json
import math
import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "../../../..")
# C per data set: liblinear-train -s 4 stops at its 100,000 outer
# iterations short of -e 1e-6 on vehicle with C = 10, and C = 1 takes
# TrainTogether 50 s there.
DATA = {"wine": [0.1, 1, 10], "vehicle": [0.1]}


def load(name):
    with open(os.path.join(ROOT, "experiments/data/%s.csv" % name)) as f:
        rows = list(csv.reader(f))[1:]
    with open(os.path.join(ROOT, "experiments/data/folds/%s.folds.csv" % name)) as f:
        folds = [int(r[0]) for r in list(csv.reader(f))[1:]]
    x = [[float(v) for v in r[:-1]] for r in rows]
    names = sorted(set(r[-1] for r in rows))
    y = [names.index(r[-1]) for r in rows]
    n, d = len(x), len(x[0])
    mu = [sum(r[j] for r in x) / n for j in range(d)]
    sd = [math.sqrt(sum((r[j] - mu[j]) ** 2 for r in x) / n) for j in range(d)]
    x = [[float("%.8g" % ((r[j] - mu[j]) / sd[j])) for j in range(d)] for r in x]
    return x, y, folds, len(names)


def write(path, x, y, rows):
    with open(path, "w") as f:
        for i in rows:
            f.write("%d %s\n" % (y[i], " ".join("%d:%.17g" % (j + 1, v) for j, v in enumerate(x[i]))))


def main():
    for name in DATA:
        run(name)


def run(name):
    x, y, folds, k = load(name)
    out = {"generator": "gen_liblinear_cs.py (liblinear-train -s 4 -B 1 -e 1e-6)",
           "x": x, "y": y, "folds": folds, "k": k, "eps": 1e-6, "bias": 1, "runs": []}
    with tempfile.TemporaryDirectory() as tmp:
        train, test, model, pred = (os.path.join(tmp, s) for s in ("train", "test", "model", "pred"))
        for c in DATA[name]:
            predicted = [None] * len(y)
            for fold in sorted(set(folds)):
                tr = [i for i, f in enumerate(folds) if f != fold]
                te = [i for i, f in enumerate(folds) if f == fold]
                write(train, x, y, tr)
                write(test, x, y, te)
                res = subprocess.run(["liblinear-train", "-s", "4", "-c", repr(c), "-B", "1", "-e", "1e-6",
                                      train, model], check=True, capture_output=True, text=True)
                if "reaching max number of iterations" in res.stdout:
                    raise RuntimeError("C=%g fold %d did not converge" % (c, fold))
                subprocess.run(["liblinear-predict", test, model, pred], check=True, capture_output=True)
                with open(pred) as f:
                    for i, v in zip(te, f.read().split()):
                        predicted[i] = int(v)
            errors = sum(p != t for p, t in zip(predicted, y))
            print("%s C=%g: %d of %d rows misclassified" % (name, c, errors, len(y)))
            out["runs"].append({"C": c, "predicted": predicted})
    with open(os.path.join(HERE, "liblinear_cs_%s.json" % name), "w") as f:
        json.dump(out, f)
        f.write("\n")


if __name__ == "__main__":
    main()
