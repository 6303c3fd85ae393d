#!/usr/bin/python3
"""Reference posteriors of the report's Bayesian correlated t-test on the
rows "up" and "base" of bayes_test.go's bayesCells (three datasets, ten
folds of 90 training and 10 test rows, rope 0.01), from the definition
(Benavoli et al. 2017; baycomp's CorrelatedTTest) with scipy:
d = up - base per fold, rho = n_test / n, Student t posterior with n - 1
degrees of freedom, location mean(d), scale sqrt((1/n + rho/(1-rho)) var(d)).
Prints Go literals for TestBayesReference. Run with Debian's python3."""
import numpy as np
from scipy import stats

base = [
    [0.80, 0.82, 0.79, 0.81, 0.80, 0.83, 0.78, 0.80, 0.82, 0.81],
    [0.70, 0.72, 0.71, 0.69, 0.73, 0.70, 0.71, 0.72, 0.70, 0.69],
    [0.90, 0.91, 0.89, 0.92, 0.90, 0.88, 0.91, 0.90, 0.93, 0.90],
]
shift = [0.03, 0.01, -0.01, 0.02, 0.04, 0.01, 0.02, 0.03, 0.01, 0.02]
rope, rho = 0.01, 10 / 100
for d in range(3):
    b = np.array(base[d])
    up = np.array([base[d][i] + shift[(i + d) % 10] for i in range(10)])
    diff = up - b
    n = len(diff)
    mean, var = diff.mean(), diff.var(ddof=1)
    scale = np.sqrt((1 / n + rho / (1 - rho)) * var)
    t = stats.t(n - 1, mean, scale)
    p_left = t.sf(rope)        # up better by more than the rope
    p_right = t.cdf(-rope)     # base better by more than the rope
    p_rope = 1 - p_left - p_right
    print("{%r, %r, %r, %r, %r}," % (mean, scale, p_left, p_rope, p_right))
