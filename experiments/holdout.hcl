# A fixed test file: adult's canonical split, fitted once on the 32561
# training rows and scored once on the 16281 test rows; impute +
# standardize + onehot fitted on the training file only, logistic
# regression (C = 1) one-vs-all. scikit-learn's LogisticRegression with the
# same encoding scores 0.853080 (TestHoldoutAdultParity). The README's
# "Test sets and holdout" table is this run's.
#
#   bin/bench run experiments/holdout.hcl

experiment "holdout" { seed = 1 }

dataset "adult" {
  path      = "data/adult_train.csv.gz"
  test_path = "data/adult_test.csv.gz"
}

encoder "fill"   { type = "impute" }
encoder "std"    { type = "standardize" }
encoder "onehot" { type = "onehot" }

learner "logreg" { params = { C = 1, tol = 1e-8 } }

reduction "ova" { scheme = "ova" }

metrics = ["accuracy"]

output {
  formats = ["markdown"]
}
