#!/usr/bin/python3
"""Reference optima of the all-together multiclass SVM duals by a general QP solver.

Writes plugins/svm/kernelsvm/testdata/together_qp_ref.json: for each small
problem (synthetic Gaussian classes drawn with a fixed seed; 30-60 rows, 3-4
classes, rbf and linear kernels, several C, one with row weights) the design,
the classes, the options, and the dual optimum found by cvxopt.solvers.qp
(Debian python3-cvxopt): the objective in maximisation form and the dual
variables (n x K). TestTogetherQPParity (kernelsvm) checks the Go solvers
against them.

Duals (kernel K(x, z) + bias^2, C_i = C * weight_i):
  crammer_singer: min 1/2 sum_m a_m' K a_m + sum_{i,m} e_i^m a_i^m,
                  e_i^m = [m != y_i], a_i^m <= C_i [m = y_i], sum_m a_i^m = 0;
                  reported as -(that minimum).
  weston_watkins: min 1/2 sum_m c_m' K c_m - 2 sum_{i, m != y_i} a_i^m,
                  c_i^m = -a_i^m (m != y_i), c_i^{y_i} = sum_{m != y_i} a_i^m,
                  0 <= a_i^m <= C_i; reported as -(that minimum); a_i^{y_i} = 0.

Run from the repository root: scripts/cs_qp_reference.py
"""
import json
import os

import numpy as np
from cvxopt import matrix, solvers

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                   "../plugins/svm/kernelsvm/testdata/together_qp_ref.json")

PROBLEMS = [
    # name, method, n, k, d, kernel, gamma, bias, C, weighted, seed
    ("cs_rbf_n40_k3_C1", "crammer_singer", 40, 3, 2, "rbf", 0.5, 0.0, 1.0, False, 1),
    ("cs_linear_n50_k4_C0.1_bias1", "crammer_singer", 50, 4, 3, "linear", 0.0, 1.0, 0.1, False, 2),
    ("cs_rbf_n60_k4_C10_bias1", "crammer_singer", 60, 4, 4, "rbf", 0.25, 1.0, 10.0, False, 3),
    ("cs_rbf_n30_k3_C100_weighted", "crammer_singer", 30, 3, 2, "rbf", 1.0, 0.0, 100.0, True, 4),
    ("cs_linear_n45_k3_C1", "crammer_singer", 45, 3, 2, "linear", 0.0, 0.0, 1.0, False, 5),
    ("ww_rbf_n40_k3_C1", "weston_watkins", 40, 3, 2, "rbf", 0.5, 0.0, 1.0, False, 1),
    ("ww_linear_n50_k4_C0.1_bias1", "weston_watkins", 50, 4, 3, "linear", 0.0, 1.0, 0.1, False, 2),
    ("ww_rbf_n60_k4_C10_bias1", "weston_watkins", 60, 4, 4, "rbf", 0.25, 1.0, 10.0, False, 3),
    ("ww_rbf_n30_k3_C100_weighted", "weston_watkins", 30, 3, 2, "rbf", 1.0, 0.0, 100.0, True, 4),
    ("ww_linear_n45_k3_C1", "weston_watkins", 45, 3, 2, "linear", 0.0, 0.0, 1.0, False, 5),
]


def data(n, k, d, seed):
    rng = np.random.RandomState(seed)
    centres = rng.normal(scale=1.5, size=(k, d))
    y = np.arange(n) % k
    rng.shuffle(y)
    x = centres[y] + rng.normal(size=(n, d))
    return np.round(x, 6), y


def gram(x, kernel, gamma, bias):
    dot = x @ x.T
    if kernel == "rbf":
        sq = np.diag(dot)
        g = np.exp(-gamma * (sq[:, None] + sq[None, :] - 2 * dot))
    else:
        g = dot
    return g + bias * bias


def solve_cs(kmat, y, k, c):
    n = len(y)
    # variable a[m * n + i]
    P = np.kron(np.eye(k), kmat)
    q = np.array([0.0 if y[i] == m else 1.0 for m in range(k) for i in range(n)])
    G = np.eye(n * k)
    h = np.array([c[i] if y[i] == m else 0.0 for m in range(k) for i in range(n)])
    A = np.kron(np.ones((1, k)), np.eye(n))
    sol = solvers.qp(matrix(P), matrix(q), matrix(G), matrix(h), matrix(A), matrix(np.zeros(n)))
    if sol["status"] != "optimal":
        raise RuntimeError("cvxopt: " + sol["status"])
    a = np.array(sol["x"]).ravel()
    obj = 0.5 * a @ P @ a + q @ a
    return -obj, a.reshape(k, n).T


def solve_ww(kmat, y, k, c):
    n = len(y)
    var = [(i, m) for i in range(n) for m in range(k) if m != y[i]]
    T = np.zeros((n * k, len(var)))  # c[m * n + i] = T a
    for v, (i, m) in enumerate(var):
        T[m * n + i, v] = -1.0
        T[y[i] * n + i, v] = 1.0
    P = T.T @ np.kron(np.eye(k), kmat) @ T
    P = (P + P.T) / 2
    q = -2.0 * np.ones(len(var))
    G = np.vstack([np.eye(len(var)), -np.eye(len(var))])
    h = np.concatenate([[c[i] for i, _ in var], np.zeros(len(var))])
    sol = solvers.qp(matrix(P), matrix(q), matrix(G), matrix(h))
    if sol["status"] != "optimal":
        raise RuntimeError("cvxopt: " + sol["status"])
    a = np.array(sol["x"]).ravel()
    obj = 0.5 * a @ P @ a + q @ a
    alpha = np.zeros((n, k))
    for v, (i, m) in enumerate(var):
        alpha[i, m] = a[v]
    return -obj, alpha


def main():
    solvers.options.update(show_progress=False, abstol=1e-11, reltol=1e-11,
                           feastol=1e-11, maxiters=400)
    out = []
    for name, method, n, k, d, kernel, gamma, bias, cc, weighted, seed in PROBLEMS:
        x, y = data(n, k, d, seed)
        w = [1.0 + (i % 3) / 2 for i in range(n)] if weighted else None
        c = [cc * (w[i] if w else 1.0) for i in range(n)]
        kmat = gram(x, kernel, gamma, bias)
        solve = solve_cs if method == "crammer_singer" else solve_ww
        obj, alpha = solve(kmat, y, k, c)
        out.append({
            "name": name, "method": method, "kernel": kernel, "gamma": gamma,
            "bias": bias, "C": cc, "k": k, "weights": w,
            "x": x.tolist(), "y": [int(v) for v in y],
            "objective": float(obj), "alpha": alpha.tolist(),
        })
        print("%-32s objective %.12g" % (name, obj))
    with open(OUT, "w") as f:
        json.dump({"generator": "scripts/cs_qp_reference.py (cvxopt %s)" % __import__("cvxopt").__version__,
                   "problems": out}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
