#!/usr/bin/python3
"""Prints the Markdown tables of docs/hsu-lin.md from the cells of bench
runs of experiments/hsu_lin.hcl (or experiments/hsu_lin_small.hcl): the
cells of every DIR/cells/*.json given, several runs together.

The first table is Hsu & Lin's protocol (learner "svm", a cell per
(C, gamma) pair): for each data set and method, the best accuracy over the
grid, the rate over all test rows (the correct predictions of the 10
folds over all rows, or of the test set), with the pair that gives it
(log2 C, log2 gamma; the largest C, then the largest gamma, among equal
rates) and how many pairs share it; a data set whose grid is not complete
says how many of the grid's pairs ran (the grid: every pair of the run).

The second puts beside that optimistic rate the honest one (learner
"svm_tuned"): the pair chosen by 5-fold cross-validation of the training
rows only, scored once on the test rows (nested: chosen in each outer
fold), with its standard error sqrt(p(1 - p)/n) over the n test rows,
and the pair chosen (for cross-validated sets the pair most folds chose,
how many of them did, how many distinct pairs the folds chose and the
range of their log2 C and log2 gamma).

  /usr/bin/python3 scripts/hsu_lin_table.py results/hsu_lin [DIR ...]
"""
import glob
import json
import math
import os
import sys
from collections import Counter

ORDER = ["iris", "wine", "glass", "vehicle", "segment", "vowel",
         "satimage", "letter", "dna", "shuttle"]
METHODS = [("ovo", "one-vs-one"), ("dag", "DAG"), ("ova", "one-vs-all")]
GRID_LEARNER, TUNED_LEARNER = "svm", "svm_tuned"


def parse_pair(params):
    """Returns (log2 C, log2 gamma) of params such as "C=4,gamma=0.5,...":
    a cell's params or a fold's chosen pair."""
    p = dict(kv.split("=", 1) for kv in params.split(","))
    return round(math.log2(float(p["C"]))), round(math.log2(float(p["gamma"])))


def correct(folds):
    """Returns the correct predictions and the test rows of folds."""
    right = total = 0
    for fold in folds:
        c = fold["confusion"]
        right += sum(c[i][i] for i in range(len(c)))
        total += sum(map(sum, c))
    return right, total


def read_cells(dirs):
    """Returns the grid's rates {(data set, reduction): [(rate, pair)]}
    and the tuned cells {(data set, reduction): cell}."""
    rates, tuned = {}, {}
    for d in dirs:
        for path in sorted(glob.glob(os.path.join(d, "cells", "*.json"))):
            with open(path) as f:
                cell = json.load(f)
            key = (cell["dataset"], cell["reduction"])
            if cell["learner"] == TUNED_LEARNER:
                tuned[key] = cell
            elif cell["learner"] == GRID_LEARNER:
                right, total = correct(cell["folds"])
                rates.setdefault(key, []).append((right / total, parse_pair(cell["params"])))
    return rates, tuned


def grid_size(rates):
    """Returns the number of distinct pairs of the run's grid."""
    return len({pair for rs in rates.values() for _, pair in rs})


def best(rs, grid):
    """Formats the best rate of rs (rate, pair) with its pair, the pairs
    that share it, and how many of the grid's pairs ran when not all."""
    top = max(rs)
    ties = sum(1 for r in rs if r[0] == top[0])
    note = "" if ties == 1 else ", %d pairs" % ties
    if len(rs) < grid:
        note += "; %d of %d pairs ran" % (len(rs), grid)
    return "%.3f (%d, %d%s)" % (100 * top[0], top[1][0], top[1][1], note)


def honest(cell):
    """Formats a tuned cell's rate with its standard error, and the pair
    it chose (for several folds, the most frequent: the largest C, then
    gamma, among equally frequent ones)."""
    right, total = correct(cell["folds"])
    p = right / total
    se = math.sqrt(p * (1 - p) / total)
    chosen = Counter(parse_pair(f["chosen"]) for f in cell["folds"])
    pair, n = max(chosen.items(), key=lambda kv: (kv[1], kv[0]))
    text = "(%d, %d)" % pair
    if len(cell["folds"]) > 1:
        text += " in %d of %d folds" % (n, len(cell["folds"]))
        if len(chosen) > 1:
            cs, gs = [c for c, _ in chosen], [g for _, g in chosen]
            text += "; %d pairs, log₂ C %d to %d, log₂ γ %d to %d" % (
                len(chosen), min(cs), max(cs), min(gs), max(gs))
    return "%.3f ± %.3f" % (100 * p, 100 * se), text


def grid_table(rates):
    """Prints the optimistic table: a row per data set, a column per
    method."""
    grid = grid_size(rates)
    print("| data set | " + " | ".join(m for _, m in METHODS) + " |")
    print("| --- | " + " | ".join("---:" for _ in METHODS) + " |")
    for ds in ORDER:
        cells = [best(rates[(ds, red)], grid) if (ds, red) in rates else "not run"
                 for red, _ in METHODS]
        print("| %s | %s |" % (ds, " | ".join(cells)))


def protocol_table(rates, tuned):
    """Prints both protocols side by side: a row per data set and method
    that has a tuned cell."""
    grid = grid_size(rates)
    print("| data set | method | optimistic: best of the grid | honest: chosen on the training rows | chosen (log₂ C, log₂ γ) | honest − optimistic |")
    print("| --- | --- | ---: | ---: | --- | ---: |")
    for ds in ORDER:
        for red, name in METHODS:
            cell = tuned.get((ds, red))
            if cell is None:
                continue
            rate, pair = honest(cell)
            opt, diff = "not run", ""
            if (ds, red) in rates:
                opt = best(rates[(ds, red)], grid)
                right, total = correct(cell["folds"])
                diff = "%+.3f" % (100 * (right / total - max(rates[(ds, red)])[0]))
            print("| %s | %s | %s | %s | %s | %s |" % (ds, name, opt, rate, pair, diff))


def main(dirs):
    rates, tuned = read_cells(dirs)
    grid_table(rates)
    if tuned:
        print()
        protocol_table(rates, tuned)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
