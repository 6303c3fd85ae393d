#!/usr/bin/env python3
"""Generate bayes_reference.json: reference values for the Bayesian tests of
package stats (bayes.go), computed from their definitions as baycomp 1.0.3
computes them (baycomp/single.py CorrelatedTTest, baycomp/multiple.py
SignedRankTest; Benavoli, Corani, Demsar & Zaffalon, JMLR 18, 2017), with
numpy and scipy only.

The signed-rank test is a Monte Carlo computation: the file records the
Dirichlet draws (numpy's RandomState.dirichlet, as baycomp draws them) so
that the Go test feeds the same weights to its own code and must find the
same per-sample masses and the same probabilities.

Run with the Debian interpreter (numpy 1.24, scipy 1.10):
    /usr/bin/python3 gen_bayes_reference.py > bayes_reference.json
"""
import json
import sys

import numpy as np
import scipy
from scipy import stats as S


def correlated(x, y, n_train, n_test, rope):
    """baycomp's CorrelatedTTest with rho = n_test / (n_train + n_test)."""
    d = y - x
    J = len(d)
    rho = n_test / (n_train + n_test)
    mean = d.mean()
    scale = np.sqrt((1 / J + rho / (1 - rho)) * d.var(ddof=1))
    df = J - 1
    if rope == 0:
        pr = 1 - S.t.cdf(0, df, mean, scale)
        pl, pe = 1 - pr, 0.0
    else:
        pl = S.t.cdf(-rope, df, mean, scale)
        pr = 1 - S.t.cdf(rope, df, mean, scale)
        pe = 1 - pl - pr
    return {"x": x.tolist(), "y": y.tolist(), "n_train": n_train, "n_test": n_test, "rope": rope,
            "mean": float(mean), "scale": float(scale), "df": df,
            "p_left": float(pl), "p_rope": float(pe), "p_right": float(pr),
            # the posterior's density at three points and its 2.5% quantile
            "at": [float(mean - scale), float(mean), float(mean + 2 * scale)],
            "pdf": [float(S.t.pdf(v, df, mean, scale)) for v in (mean - scale, mean, mean + 2 * scale)],
            "q025": float(S.t.ppf(0.025, df, mean, scale))}


def signed_rank(x, y, rope, prior, nsamples, seed, keep=20):
    """baycomp's SignedRankTest.sample, then Posterior.probs."""
    def heaviside(a, thresh):
        return (a > thresh).astype(float) + 0.5 * (a == thresh).astype(float)

    diff = np.hstack(([0], y - x))
    sums = diff[:, None] + diff[None, :]
    weights = np.ones(len(diff))
    weights[0] = prior
    draws = np.random.RandomState(seed).dirichlet(weights, nsamples)
    samples = np.zeros((nsamples, 3))
    for i, w in enumerate(draws):
        pw = np.outer(w, w)
        if rope > 0:
            samples[i, 0] = np.sum(pw * heaviside(-sums, 2 * rope))
            samples[i, 2] = np.sum(pw * heaviside(sums, 2 * rope))
        else:
            samples[i, 2] = np.sum(pw * heaviside(sums, 0))
    if rope > 0:
        samples[:, 1] = -samples[:, 0] - samples[:, 2] + 1
    else:
        samples[:, 0] = -samples[:, 2] + 1
    winners = np.argmax(samples, axis=1)
    pl, pe, pr = np.bincount(winners, minlength=3) / len(winners)
    return {"x": x.tolist(), "y": y.tolist(), "rope": rope, "prior": prior,
            "draws": draws.tolist(), "samples": samples[:keep].tolist(),
            "p_left": float(pl), "p_rope": float(pe), "p_right": float(pr)}


def main():
    rng = np.random.default_rng(2017)
    out = {"numpy_version": np.__version__, "scipy_version": scipy.__version__}
    ct = []
    for J, ntr, nte, shift, noise, rope in [(10, 900, 100, 0.01, 0.02, 0.01), (30, 540, 60, 0.004, 0.01, 0.005),
                                             (5, 120, 30, -0.03, 0.02, 0.0), (10, 2070, 230, 0.0, 0.005, 0.01)]:
        x = rng.uniform(0.7, 0.9, size=J)
        y = x + shift + rng.normal(0, noise, size=J)
        ct.append(correlated(x, y, ntr, nte, rope))
    out["correlated"] = ct

    sr = []
    # mixed differences around the rope
    x = rng.uniform(0.6, 0.95, size=8)
    sr.append(signed_rank(x, x + rng.normal(0.008, 0.015, size=8), 0.01, 0.5, 200, 11))
    # without rope
    x = rng.uniform(0.6, 0.95, size=12)
    sr.append(signed_rank(x, x + rng.normal(-0.01, 0.03, size=12), 0.0, 0.5, 200, 12))
    # exact ties on the rope's boundaries: differences in multiples of the
    # rope (x = 0, so that y - x is y itself)
    sr.append(signed_rank(np.zeros(5), np.array([0.01, 0.005, -0.005, 0.0, 0.02]), 0.005, 0.5, 200, 13))
    # a clear winner on the right, with another prior weight
    x = rng.uniform(0.6, 0.95, size=6)
    sr.append(signed_rank(x, x + rng.normal(0.05, 0.01, size=6), 0.01, 1.0, 200, 14))
    out["signed_rank"] = sr
    json.dump(out, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
