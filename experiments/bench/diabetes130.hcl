# Time and memory of a large, high-cardinality categorical run for
# `make bench` (tools/peerbench): diabetes130 (101766 rows × 47 columns, 3
# classes; ICD-9 diagnoses diag_1/diag_2/diag_3 with ~700-800 levels each),
# one-hot indicators against the hashing trick (B = 1024 buckets), each under
# logistic regression reduced one-vs-all, 5-fold stratified CV. Both
# encodings are sparse (CSR) end to end.
#
#   bin/bench run --quiet -j 2 -o /tmp/diabetes experiments/bench/diabetes130.hcl
#
# The data lives outside the repository (../shared/data); peerbench runs a
# copy of this file with `data` pointing elsewhere when given -data DIR.

variable "data" {
  default = "../../../shared/data"
}

experiment "bench_diabetes130" { seed = 1 }

dataset "diabetes130" {
  path = "${var.data}/diabetes130.csv.gz"
  # Integer-coded categoricals, and the ICD-9 diagnosis codes (mostly
  # numbers such as 250.83, some such as V57), which would be read as
  # categorical anyway, with a warning.
  categorical = ["admission_type_id", "discharge_disposition_id", "admission_source_id",
  "diag_1", "diag_2", "diag_3"]
}

# Missing categorical values (race, weight, payer_code, medical_specialty,
# diag_*) become a level of their own.
encoder "impute" { type = "impute" }
encoder "std" { type = "standardize" }
encoder "onehot" { type = "onehot" }
encoder "hash" {
  type    = "hash"
  buckets = 1024
}

pipeline "onehot" { steps = ["impute", "std", "onehot"] }
pipeline "hash" { steps = ["impute", "std", "hash"] }

learner "logreg" { params = { C = 1 } }

reduction "ova" { scheme = "ova" }

cv {
  folds      = 5
  stratified = true
}

metrics = ["accuracy", "macro_f1", "fit_seconds"]

output {
  formats = ["csv"]
}
