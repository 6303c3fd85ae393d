#!/usr/bin/python3
"""Prints the Markdown tables of docs/hsu-lin.md from the cells of bench
runs of experiments/hsu_lin.hcl (or experiments/hsu_lin_small.hcl): the
cells of every DIR/cells/*.json given, several runs together.

The first table is Hsu & Lin's protocol (learner "svm" under ovo, dag
and ova, learners "cs" and "ww" under scheme none for the all-together
Crammer–Singer and Weston–Watkins; a cell per (C, gamma) pair): for each
data set and method, the best accuracy over the
grid, the rate over all test rows (the correct predictions of the 10
folds over all rows, or of the test set), with the pair that gives it
(log2 C, log2 gamma; the largest C, then the largest gamma, among equal
rates) and how many pairs share it; a data set whose grid is not complete
says how many of the grid's pairs ran (the grid: every pair of the run).

The second puts beside that optimistic rate the honest one (learners
"svm_tuned", "cs_tuned", "ww_tuned"): the pair chosen by 5-fold cross-validation of the training
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
METHODS = ["one-vs-one", "DAG", "one-vs-all", "Crammer–Singer", "Weston–Watkins"]

# Each cell's method and protocol, by its learner and reduction: the
# binary methods are learner "svm" (optimistic) or "svm_tuned" (honest)
# under reductions ovo, dag and ova; the all-together ones are learners
# cs and ww (and their _tuned), under scheme none, over every other
# (C, gamma) on letter and shuttle (learners cs_coarse, ...).
BINARY = {"ovo": "one-vs-one", "dag": "DAG", "ova": "one-vs-all"}
TOGETHER = {"cs": "Crammer–Singer", "ww": "Weston–Watkins"}


def method_of(learner, reduction):
    """Returns (method, tuned, coarse) of a cell, or None for a cell of
    another experiment."""
    if reduction in BINARY and learner in ("svm", "svm_tuned"):
        return BINARY[reduction], learner == "svm_tuned", False
    base, tuned = learner, False
    if base.endswith("_tuned"):
        base, tuned = base[:-len("_tuned")], True
    coarse = base.endswith("_coarse")
    if coarse:
        base = base[:-len("_coarse")]
    if base in TOGETHER and reduction in ("together", "together_coarse"):
        return TOGETHER[base], tuned, coarse
    return None


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
    """Returns the grid's rates {(data set, method): [(rate, pair)]}, the
    tuned cells {(data set, method): cell} and the (data set, method)
    pairs run over the coarse grid."""
    rates, tuned, coarse = {}, {}, set()
    for d in dirs:
        for path in sorted(glob.glob(os.path.join(d, "cells", "*.json"))):
            with open(path) as f:
                cell = json.load(f)
            m = method_of(cell["learner"], cell["reduction"])
            if m is None:
                continue
            key = (cell["dataset"], m[0])
            if m[2]:
                coarse.add(key)
            if m[1]:
                tuned[key] = cell
            else:
                right, total = correct(cell["folds"])
                rates.setdefault(key, []).append((right / total, parse_pair(cell["params"])))
    return rates, tuned, coarse


def grid_size(rates, coarse):
    """Returns the number of distinct pairs of the run's grid, and of its
    coarse grid (those of the data sets and methods in coarse)."""
    full = {pair for k, rs in rates.items() if k not in coarse for _, pair in rs}
    few = {pair for k, rs in rates.items() if k in coarse for _, pair in rs}
    return len(full), len(few)


def best(rs, grid, coarse=False):
    """Formats the best rate of rs (rate, pair) with its pair, the pairs
    that share it, and how many of the grid's pairs ran when not all
    (grid: the sizes of the whole grid and the coarse one; coarse: rs is
    of the coarse grid, marked ‡)."""
    top = max(rs)
    ties = sum(1 for r in rs if r[0] == top[0])
    note = "" if ties == 1 else ", %d pairs" % ties
    n = grid[1] if coarse else grid[0]
    if len(rs) < n:
        note += "; %d of %d pairs ran" % (len(rs), n)
    return "%.3f (%d, %d%s)%s" % (100 * top[0], top[1][0], top[1][1], note, " ‡" if coarse else "")


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


def grid_table(rates, coarse):
    """Prints the optimistic table: a row per data set, a column per
    method."""
    grid = grid_size(rates, coarse)
    print("| data set | " + " | ".join(METHODS) + " |")
    print("| --- | " + " | ".join("---:" for _ in METHODS) + " |")
    for ds in ORDER:
        cells = [best(rates[(ds, m)], grid, (ds, m) in coarse) if (ds, m) in rates else "not run"
                 for m in METHODS]
        print("| %s | %s |" % (ds, " | ".join(cells)))


def protocol_table(rates, tuned, coarse):
    """Prints both protocols side by side: a row per data set and method
    that has a tuned cell."""
    grid = grid_size(rates, coarse)
    print("| data set | method | optimistic: best of the grid | honest: chosen on the training rows | chosen (log₂ C, log₂ γ) | honest − optimistic |")
    print("| --- | --- | ---: | ---: | --- | ---: |")
    for ds in ORDER:
        for m in METHODS:
            cell = tuned.get((ds, m))
            if cell is None:
                continue
            rate, pair = honest(cell)
            opt, diff = "not run", ""
            if (ds, m) in rates:
                opt = best(rates[(ds, m)], grid, (ds, m) in coarse)
                right, total = correct(cell["folds"])
                diff = "%+.3f" % (100 * (right / total - max(rates[(ds, m)])[0]))
            print("| %s | %s | %s | %s | %s | %s |" % (ds, m, opt, rate, pair, diff))


def main(dirs):
    rates, tuned, coarse = read_cells(dirs)
    grid_table(rates, coarse)
    if tuned:
        print()
        protocol_table(rates, tuned, coarse)
    if coarse:
        print()
        print("‡ over the coarse grid, every other value of C and γ (%d pairs)." % grid_size(rates, coarse)[1])


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
