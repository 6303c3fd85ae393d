# Categorical encodings compared on five categorical / mixed datasets:
# one-hot indicators, the hashing trick (B = 1024 buckets), out-of-fold
# counters (likelihood encoding with m = 5 inner parts) and counters over
# the columns plus all their pairwise crosses, each under logistic
# regression and a linear SVM, both reduced by one-vs-all.
#
#   bin/bench run -j 2 experiments/categorical.hcl
#
# Every encoder is fitted on the training part of each outer fold only;
# the counters' training rows get out-of-fold statistics so that the
# learner never sees features computed from a row's own label.
#

experiment "categorical" { seed = 1 }

dataset "car" {
  path        = "data/car.csv"
  categorical = ["buying", "maint", "doors", "persons", "lug_boot", "safety"]
}

dataset "mushroom" { path = "data/mushroom.csv" }

dataset "nursery" {
  path        = "data/nursery.csv"
  categorical = ["parents", "has_nurs", "form", "children", "housing", "finance", "social", "health"]
}

dataset "adult" { path = "data/adult_train.csv.gz" }

dataset "splice" { path = "data/splice.csv" }

# Missing values (mushroom stalk_root, adult workclass / occupation /
# native_country) become a level of their own; numeric gaps the mean.
encoder "impute" { type = "impute" }
encoder "std" { type = "standardize" }
encoder "onehot" { type = "onehot" }
encoder "hash" {
  type    = "hash"
  buckets = 1024
}
encoder "counts" {
  type  = "counts"
  folds = 5
}
encoder "cross" { type = "cross" }

pipeline "onehot" { steps = ["impute", "std", "onehot"] }
pipeline "hash" { steps = ["impute", "std", "hash"] }
pipeline "counts" { steps = ["impute", "counts", "std"] }
pipeline "counts_cross" { steps = ["impute", "cross", "counts", "std"] }

learner "logreg" { params = { C = 1 } }
learner "svm" { params = { C = 1 } }

reduction "ova" { scheme = "ova" }

cv {
  folds      = 5
  stratified = true
}

metrics = ["accuracy", "macro_f1", "fit_seconds", "predict_seconds"]

output {
  formats = ["markdown", "csv"]
}
