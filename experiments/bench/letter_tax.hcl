# The plugin tax for `make bench` (tools/peerbench -only plugintax): the whole
# letter grid (20000 × 16, 26 classes), standardized, logistic regression
# and a linear SVM (hinge, dual coordinate descent), both C = 1, reduced
# one-vs-all (26 problems per fold) and one-vs-one (325), 10-fold
# stratified CV. peerbench runs it through the plugin processes and with
# the same learners and reducers linked into one process, alternately.
#
#   bin/bench run --quiet -j 2 -o /tmp/letter_tax experiments/bench/letter_tax.hcl
#
# The data lives outside the repository (../shared/data); peerbench runs a
# copy of this file with `data` pointing elsewhere when given -data DIR.

variable "data" {
  default = "../../../shared/data"
}

experiment "bench_letter_tax" { seed = 1 }

dataset "letter" {
  path = "${var.data}/letter.csv"
}

encoder "std" { type = "standardize" }

learner "logreg" { params = { C = 1 } }
learner "svm" { params = { C = 1 } }

reduction "ova" { scheme = "ova" }
reduction "ovo" { scheme = "ovo" }

cv {
  folds      = 10
  stratified = true
}

metrics = ["accuracy", "fit_seconds"]

output {
  formats = ["csv"]
}
