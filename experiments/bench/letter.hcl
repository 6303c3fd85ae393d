# Whole-grid timing for `make bench` (tools/peerbench): letter (20000 × 16,
# 26 classes), standardized, logistic regression and a linear SVM (hinge,
# dual coordinate descent), both C = 1 and reduced one-vs-all, 10-fold
# stratified CV, run through the real plugin processes.
#
#   bin/bench run --quiet -j 2 -o /tmp/letter experiments/bench/letter.hcl
#
# The data lives outside the repository (../shared/data); peerbench runs a
# copy of this file with `data` pointing elsewhere when given -data DIR.

variable "data" {
  default = "../../../shared/data"
}

experiment "bench_letter" { seed = 1 }

dataset "letter" {
  path = "${var.data}/letter.csv"
}

encoder "std" { type = "standardize" }

learner "logreg" { params = { C = 1 } }
learner "svm" { params = { C = 1 } }

reduction "ova" { scheme = "ova" }

cv {
  folds      = 10
  stratified = true
}

metrics = ["accuracy", "fit_seconds"]

output {
  formats = ["csv"]
}
