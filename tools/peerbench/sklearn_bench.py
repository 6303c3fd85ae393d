"""Times scikit-learn on a standardised matrix for cmd/peerbench.

Usage: python3 sklearn_bench.py DATA.csv N

DATA.csv has no header: feature columns, then the class index. Each
estimator is fitted N times; fit alone is timed (time.perf_counter) and the
median is reported. Prints one JSON object on stdout.
"""

import json
import statistics
import sys
import time
import warnings

import numpy as np
import sklearn
from sklearn.linear_model import LogisticRegression
from sklearn.svm import LinearSVC


def main():
    path, n = sys.argv[1], int(sys.argv[2])
    data = np.loadtxt(path, delimiter=",")
    x, y = np.ascontiguousarray(data[:, :-1]), data[:, -1].astype(int)
    estimators = [
        ("LogisticRegression(C=1, solver='liblinear', multi_class='ovr', tol=0.01)",
         lambda: LogisticRegression(C=1, solver="liblinear", multi_class="ovr", tol=0.01)),
        ("LogisticRegression(C=1, solver='lbfgs', multi_class='ovr', max_iter=1000)",
         lambda: LogisticRegression(C=1, solver="lbfgs", multi_class="ovr", max_iter=1000)),
        ("LinearSVC(C=1, loss='hinge', dual=True, tol=0.1)",
         lambda: LinearSVC(C=1, loss="hinge", dual=True, tol=0.1)),
    ]
    results = []
    for name, make in estimators:
        times = []
        for _ in range(n):
            est = make()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                start = time.perf_counter()
                est.fit(x, y)
                times.append(time.perf_counter() - start)
        results.append({"name": name, "median": statistics.median(times), "times": times})
    json.dump({"sklearn": sklearn.__version__, "numpy": np.__version__, "results": results}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
