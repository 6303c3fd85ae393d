# Calibrated probabilities: a linear SVM (C = 1) one-vs-all on digits
# (reference folds, standardised), its log_loss and Brier score from a
# softmax of the decision values (flagged † in the tables) and with
# calibrate = "platt" (scikit-learn's CalibratedClassifierCV(cv=5), Platt's
# sigmoid). The README's "Calibrated probabilities" table is this run's.
#
#   bin/bench run experiments/calibration.hcl

experiment "calibration" { seed = 1 }

dataset "digits" {
  path       = "data/digits.csv"
  folds_file = "data/folds/digits.folds.csv"
}

encoder "std" { type = "standardize" }

learner "svm" { params = { C = 1 } }

reduction "ova" { scheme = "ova" }

reduction "ova_platt" {
  scheme    = "ova"
  calibrate = "platt"
}

metrics = ["accuracy", "log_loss", "brier"]

output {
  formats = ["markdown"]
}
