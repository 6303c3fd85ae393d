"""The reference of TestHalvingScheduleMatchesSklearn: scikit-learn's
HalvingGridSearchCV(factor, resource="n_samples", min_resources, cv=folds,
aggressive_elimination) n_resources_ and n_candidates_ for a grid of
n_candidates and n_samples rows of n_classes classes.

With scikit-learn installed it fits HalvingGridSearchCV itself (on random
data; a DummyClassifier with a dummy grid, the numbers depend on the
counts only) and checks the transcription below against it; every case
matches scikit-learn 1.2.1's (Debian's python3-sklearn, run as
/usr/bin/python3: each line below ends "(sklearn)"). Without it it prints
the transcription of BaseSuccessiveHalving._run_search /
_check_input_parameters, which uses Python's math.log(x, base) and floor
as they do, each line ending "(transcription)".

    /usr/bin/python3 framework/engine/testdata/halving_reference.py
"""
from math import ceil, floor, log

CASES = [
    # name, n_candidates, n_samples, n_classes, folds, factor, min_resources, aggressive
    ("letter 15 x 15 pairs", 225, 15000, 26, 5, 3, "exhaust", False),
    ("iris outer fold, 5 C", 5, 135, 3, 5, 3, "exhaust", False),
    ("243 = 3^5 candidates", 243, 10000, 2, 5, 3, "exhaust", False),
    ("smallest", 27, 10000, 3, 5, 3, "smallest", False),
    ("exhaust, as smallest's grid", 27, 10000, 3, 5, 3, "exhaust", False),
    ("aggressive", 225, 1000, 10, 5, 3, "exhaust", True),
    ("aggressive, given min", 100, 600, 2, 3, 3, 40, True),
    ("factor 2", 20, 500, 3, 5, 2, "exhaust", False),
]


def transcription(n_candidates, n_samples, n_classes, folds, factor, min_resources, aggressive):
    min_res = min_resources
    if min_resources in ("smallest", "exhaust"):
        min_res = folds * 2 * n_classes
    max_res = n_samples
    required = 1 + floor(log(n_candidates, factor))
    if min_resources == "exhaust":
        min_res = max(min_res, max_res // factor ** (required - 1))
    possible = 1 + floor(log(max_res // min_res, factor))
    n_iterations = required if aggressive else min(possible, required)
    resources, candidates = [], []
    n = n_candidates
    for itr in range(n_iterations):
        power = max(0, itr - required + possible) if aggressive else itr
        resources.append(min(int(factor ** power * min_res), max_res))
        candidates.append(n)
        n = ceil(n / factor)
    return resources, candidates


def sklearn_run(n_candidates, n_samples, n_classes, folds, factor, min_resources, aggressive):
    import numpy as np
    from sklearn.dummy import DummyClassifier
    from sklearn.experimental import enable_halving_search_cv  # noqa: F401
    from sklearn.model_selection import HalvingGridSearchCV

    rng = np.random.RandomState(0)
    X = rng.rand(n_samples, 2)
    y = np.arange(n_samples) % n_classes
    grid = {"constant": list(range(n_candidates)), "strategy": ["prior"]}
    s = HalvingGridSearchCV(DummyClassifier(), grid, factor=factor, resource="n_samples",
                            min_resources=min_resources, cv=folds,
                            aggressive_elimination=aggressive, random_state=0).fit(X, y)
    return [int(r) for r in s.n_resources_], [int(c) for c in s.n_candidates_]


for case in CASES:
    got = transcription(*case[1:])
    try:
        ref = sklearn_run(*case[1:])
        assert list(ref) == list(got), (case, ref, got)
        origin = "sklearn"
    except ImportError:
        origin = "transcription"
    print(f"{case[0]}: n_resources {got[0]} n_candidates {got[1]} ({origin})")
