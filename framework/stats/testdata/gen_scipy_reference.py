#!/usr/bin/env python3
"""Generate scipy_reference.json: reference values for package stats.

Run with the Debian interpreter that has scipy 1.10.1:
    /usr/bin/python3 gen_scipy_reference.py > scipy_reference.json
"""
import json
import sys

import numpy as np
import scipy
from scipy import stats as S


def ttest_case(rng, J, ntr, nte, shift):
    a = rng.uniform(0.7, 0.9, size=J)
    b = a - shift + rng.normal(0, 0.02, size=J)
    d = a - b
    t = d.mean() / np.sqrt((1 / J + nte / ntr) * d.var(ddof=1))
    return {"a": a.tolist(), "b": b.tolist(), "n_train": ntr, "n_test": nte,
            "t": float(t), "p": float(2 * S.t.sf(abs(t), J - 1))}


def main():
    rng = np.random.default_rng(2006)
    out = {"scipy_version": scipy.__version__}
    out["ttest"] = [ttest_case(rng, 10, 900, 100, 0.01), ttest_case(rng, 5, 80, 20, 0.0),
                    ttest_case(rng, 30, 540, 60, 0.02)]

    # Friedman without ties (scipy's tie correction is then a no-op).
    fr = []
    for N, k in [(10, 3), (14, 4), (20, 6)]:
        X = rng.uniform(size=(N, k)) + np.linspace(0, 0.3, k)
        chi, p = S.friedmanchisquare(*X.T)
        ff = (N - 1) * chi / (N * (k - 1) - chi)
        fr.append({"scores": X.tolist(), "chi2": float(chi), "p_chi2": float(p), "ff": float(ff),
                   "p_ff": float(S.f.sf(ff, k - 1, (k - 1) * (N - 1)))})
    out["friedman"] = fr

    wx = []
    for N in (8, 14, 25):  # exact, no ties
        a = rng.uniform(size=N)
        b = a + rng.normal(0.1, 0.2, size=N)
        r = S.wilcoxon(a, b, method="exact")
        wx.append({"a": a.tolist(), "b": b.tolist(), "t": float(r.statistic), "p": float(r.pvalue), "exact": True})
    # normal approximation: ties and an even number of zeros (zsplit), and N > 50
    # integer scores: exact ties among |a - b|; make the number of zeros even
    # (with an odd number Demsar drops one zero and scipy's zsplit does not)
    a = rng.integers(0, 10, size=30).astype(float)
    b = a + rng.integers(-3, 5, size=30)
    if np.sum(a == b) % 2 == 1:
        b[np.flatnonzero(a != b)[0]] = a[np.flatnonzero(a != b)[0]]
    assert np.sum(a == b) >= 2
    r = S.wilcoxon(a, b, zero_method="zsplit", correction=False, method="approx")
    wx.append({"a": a.tolist(), "b": b.tolist(), "t": float(r.statistic), "p": float(r.pvalue), "exact": False})
    a = rng.uniform(size=60)
    b = a + rng.normal(0.03, 0.2, size=60)
    r = S.wilcoxon(a, b, correction=False, method="approx")
    wx.append({"a": a.tolist(), "b": b.tolist(), "t": float(r.statistic), "p": float(r.pvalue), "exact": False})
    out["wilcoxon"] = wx

    out["nemenyi_q"] = [{"k": k, "alpha": al, "q": float(S.studentized_range.ppf(1 - al, k, np.inf) / np.sqrt(2))}
                        for al in (0.05, 0.10) for k in range(2, 11)]
    # 95% interval of the corrected resampled t-test (effect size): drawn
    # after every case above, so that their values do not change.
    iv = []
    for J, ntr, nte, shift in [(10, 900, 100, 0.01), (5, 120, 30, -0.02), (30, 540, 60, 0.0)]:
        a = rng.uniform(0.7, 0.9, size=J)
        b = a - shift + rng.normal(0, 0.02, size=J)
        d = a - b
        se = np.sqrt((1 / J + nte / ntr) * d.var(ddof=1))
        lo, hi = S.t.interval(0.95, J - 1, loc=d.mean(), scale=se)
        iv.append({"a": a.tolist(), "b": b.tolist(), "n_train": ntr, "n_test": nte,
                   "mean": float(d.mean()), "lo": float(lo), "hi": float(hi)})
    out["interval"] = iv
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
