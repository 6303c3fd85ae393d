# Nested tuning: logistic regression's C chosen by 5-fold inner
# cross-validation on accuracy inside each of the 10 outer folds of iris,
# wine and vehicle (the reference folds of testdata/reference, copied to
# data/folds/). inner_seed = 0 makes each inner split scikit-learn's
# StratifiedKFold(5, shuffle=True, random_state=0), so the choices can be
# compared with GridSearchCV's (TestNestedTuningParity). The README's
# "Nested tuning" tables are this run's.
#
#   bin/bench run experiments/tuning.hcl

experiment "tuning" { seed = 0 }

dataset "iris" {
  path       = "data/iris.csv"
  folds_file = "data/folds/iris.folds.csv"
}
dataset "wine" {
  path       = "data/wine.csv"
  folds_file = "data/folds/wine.folds.csv"
}
dataset "vehicle" {
  path       = "data/vehicle.csv"
  folds_file = "data/folds/vehicle.folds.csv"
}

encoder "std" { type = "standardize" }

learner "logreg" {
  params = { C = [0.01, 0.1, 1, 10, 100], tol = 1e-8, max_iter = 10000 }
  tune {
    folds      = 5
    metric     = "accuracy"
    inner_seed = 0
  }
}

reduction "none" { scheme = "none" }

metrics = ["accuracy"]

output {
  formats = ["markdown"]
}
