"""The scikit-learn side of the end-to-end comparison, for tools/peerbench.

    python3 sklearn_e2e.py DATA.csv[.gz] FOLDS.csv [CATEGORICAL,...] [MODEL]
    python3 sklearn_e2e.py make_classification OUT.csv

scikit-learn used as its users would on a 2-core machine:
cross_validate(make_pipeline(...), n_jobs=2) over the folds of FOLDS.csv
(a `fold` column, one row per data row, the file `bench run` reads too).
DATA has a header and a `class` column. A column is numeric when every
non-empty value parses as a number and it is not named in CATEGORICAL;
the others are categorical, an empty value being missing.

Without categorical columns the pipeline is StandardScaler →
LogisticRegression; with them a ColumnTransformer imputes (mean; missing
categories become a level of their own), standardises the numeric columns
and one-hot encodes the categorical ones (unknown levels ignored, sparse
output), as polyclass's impute → standardize → onehot does. The learner is
LogisticRegression(C=1, solver='lbfgs', multi_class='ovr', max_iter=1000):
one binary problem per class, as polyclass's logreg + ova (MODEL
logreg_ova, the default). The other MODELs:
- knn: KNeighborsClassifier() (k = 5, uniform, Euclidean), as polyclass's
  knn; the ColumnTransformer's output dense (sparse_threshold=0), the
  path on which scikit-learn's brute-force search multiplies with BLAS
  (its sparse one, the default output for covertype's one-hot columns,
  takes 12 times as long);
- naive_bayes: GaussianNB(), as polyclass's naive_bayes (dense output:
  GaussianNB takes no sparse input);
- logreg_ovo: OneVsOneClassifier(LogisticRegression(solver="liblinear")),
  as polyclass's logreg + ovo.

make_classification writes the synthetic 200-class data set of the
one-vs-one comparison: make_classification(n_samples=20000,
n_features=50, n_informative=40, n_classes=200, n_clusters_per_class=1,
class_sep=2, random_state=0), columns x0..x49 and class (c0..c199).

Prints one JSON object on stdout: versions, seconds spent loading and in
cross_validate, the mean test accuracy over the folds.
"""

import csv
import gzip
import json
import sys
import time
import warnings

import numpy as np
import sklearn
from sklearn.compose import ColumnTransformer
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import PredefinedSplit, cross_validate
from sklearn.multiclass import OneVsOneClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler


def is_number(v):
    try:
        float(v)
        return True
    except ValueError:
        return False


def load(path, categorical):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        rows = list(csv.reader(f))
    header, rows = rows[0], rows[1:]
    cls = header.index("class")
    cols = list(zip(*rows))
    y_names = cols[cls]
    num, cat = [], []
    for j, name in enumerate(header):
        if j == cls:
            continue
        if name not in categorical and all(v == "" or is_number(v) for v in cols[j]):
            num.append(j)
        else:
            cat.append(j)
    _, y = np.unique(np.asarray(y_names), return_inverse=True)
    if not cat:
        return np.array([[float(r[j]) for j in num] for r in rows]), y, len(num), 0
    x = np.empty((len(rows), len(num) + len(cat)), dtype=object)
    for k, j in enumerate(num):
        x[:, k] = [float(v) if v != "" else np.nan for v in cols[j]]
    for k, j in enumerate(cat):
        x[:, len(num) + k] = cols[j]
    return x, y, len(num), len(cat)


LEARNERS = {
    "logreg_ova": lambda: LogisticRegression(C=1, solver="lbfgs", multi_class="ovr", max_iter=1000),
    "knn": KNeighborsClassifier,
    "naive_bayes": GaussianNB,
    "logreg_ovo": lambda: OneVsOneClassifier(LogisticRegression(solver="liblinear")),
}


def pipeline(n_num, n_cat, model):
    learner = LEARNERS[model]()
    dense = model in ("knn", "naive_bayes")
    if n_cat == 0:
        return make_pipeline(StandardScaler(), learner)
    num = make_pipeline(SimpleImputer(strategy="mean"), StandardScaler())
    cat = make_pipeline(
        SimpleImputer(missing_values="", strategy="constant", fill_value="__missing__"),
        OneHotEncoder(handle_unknown="ignore"),
    )
    pre = ColumnTransformer([
        ("num", num, list(range(n_num))),
        ("cat", cat, list(range(n_num, n_num + n_cat))),
    ], sparse_threshold=0 if dense else 0.3)
    return make_pipeline(pre, learner)


def make_classification(out):
    from sklearn.datasets import make_classification as make
    x, y = make(n_samples=20000, n_features=50, n_informative=40, n_classes=200,
                n_clusters_per_class=1, class_sep=2, random_state=0)
    with open(out, "w") as f:
        f.write(",".join(f"x{j}" for j in range(x.shape[1])) + ",class\n")
        for row, c in zip(x, y):
            f.write(",".join(repr(float(v)) for v in row) + f",c{c}\n")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "make_classification":
        make_classification(sys.argv[2])
        return
    if len(sys.argv) not in (3, 4, 5):
        sys.exit(__doc__)
    categorical = set(sys.argv[3].split(",")) if len(sys.argv) >= 4 and sys.argv[3] else set()
    model = sys.argv[4] if len(sys.argv) == 5 else "logreg_ova"
    start = time.perf_counter()
    x, y, n_num, n_cat = load(sys.argv[1], categorical)
    fold = np.loadtxt(sys.argv[2], skiprows=1, dtype=int)
    loaded = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cross_validate(pipeline(n_num, n_cat, model), x, y, cv=PredefinedSplit(fold),
                             scoring="accuracy", n_jobs=2)
    done = time.perf_counter()
    json.dump({
        "sklearn": sklearn.__version__,
        "numpy": np.__version__,
        "load_seconds": loaded - start,
        "cv_seconds": done - loaded,
        "accuracy": float(np.mean(res["test_score"])),
        "folds": len(res["test_score"]),
        "model": model,
        "numeric": n_num,
        "categorical": n_cat,
    }, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
