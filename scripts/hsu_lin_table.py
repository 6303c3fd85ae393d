#!/usr/bin/python3
"""Prints the Markdown table of docs/hsu-lin.md from the cells of a bench
run of experiments/hsu_lin.hcl: for each data set and method, the best
accuracy over the (C, gamma) grid, as Hsu & Lin report it (the rate over
all test rows: the correct predictions of the 10 folds over all rows, or
of the test set), with the pair that gives it (log2 C, log2 gamma; the
largest C, then the largest gamma, among equal rates) and how many pairs
share it; a data set whose grid is not complete says how many of the
225 pairs ran.

  /usr/bin/python3 scripts/hsu_lin_table.py results/hsu_lin
"""
import glob
import json
import math
import os
import sys

ORDER = ["iris", "wine", "glass", "vehicle", "segment", "satimage", "letter"]
METHODS = [("ovo", "one-vs-one"), ("dag", "DAG"), ("ova", "one-vs-all")]
GRID = 15 * 15


def main(results):
    rates = {}
    for path in glob.glob(os.path.join(results, "cells", "*.json")):
        with open(path) as f:
            cell = json.load(f)
        right = total = 0
        for fold in cell["folds"]:
            c = fold["confusion"]
            right += sum(c[i][i] for i in range(len(c)))
            total += sum(map(sum, c))
        p = dict(kv.split("=", 1) for kv in cell["params"].split(","))
        pair = (round(math.log2(float(p["C"]))), round(math.log2(float(p["gamma"]))))
        rates.setdefault((cell["dataset"], cell["reduction"]), []).append((right / total, pair))
    print("| data set | " + " | ".join(m for _, m in METHODS) + " |")
    print("| --- | " + " | ".join("---:" for _ in METHODS) + " |")
    for ds in ORDER:
        cells = []
        for red, _ in METHODS:
            rs = rates.get((ds, red), [])
            if not rs:
                cells.append("not run")
                continue
            best = max(rs)
            ties = sum(1 for r in rs if r[0] == best[0])
            note = "" if ties == 1 else ", %d pairs" % ties
            if len(rs) < GRID:
                note += "; %d of %d pairs ran" % (len(rs), GRID)
            cells.append("%.3f (%d, %d%s)" % (100 * best[0], best[1][0], best[1][1], note))
        print("| %s | %s |" % (ds, " | ".join(cells)))


if __name__ == "__main__":
    main(sys.argv[1])
