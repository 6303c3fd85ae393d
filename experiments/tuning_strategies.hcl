# Tuning strategies side by side: the RBF kernel SVM's (C, γ) chosen by
# 3-fold inner cross-validation inside each of the 5 outer folds of wine,
# three ways (see docs/experiment-file.md, "Tuning"):
#
# - grid: every pair of a 5 × 5 grid (C = 2^-5, 2^-1, …, 2^11 and
#   γ = 2^-10, 2^-7, …, 2^2, within Hsu & Lin's range): 25 candidates, each
#   scored on every inner fold with every row;
# - random: 10 pairs drawn from loguniform search spaces over the grid's
#   range (the same 10 on every fold and cell: the draws are seeded by the
#   experiment's seed and the learner's name);
# - halving: successive halving over the same 25 pairs, as scikit-learn's
#   HalvingGridSearchCV(factor = 3, min_resources = "exhaust"): on wine's
#   142 or 143 outer training rows, 25 candidates on a stratified subsample
#   of 18 rows, then the best 9 on 54 (the rows allow no third round).
#   Its report lists each fold's rounds and what they cost against the
#   grid ("Tuning searches");
# - hyperband: Li et al.'s brackets of successive halving over the same
#   25 pairs (factor 3, min_resources 9: R = 142 / 9 = 15, so brackets
#   s = 2, 1, 0 of 9, 5 and 3 pairs, each ending on every row; a pair
#   already scored on the same rows by an earlier bracket is not fitted
#   again);
# - random_budget: the random search's 10 draws, stopped after the
#   first 6 (max_evals).
#
# Seconds on two cores; the results are the same whatever -j.
#
#   bin/bench run experiments/tuning_strategies.hcl

experiment "tuning_strategies" { seed = 2 }

dataset "wine" { path = "data/wine.csv" }

encoder "scale" {
  type  = "minmax"
  lower = -1
  upper = 1
}

learner "grid" {
  plugin = "svm"
  params = {
    kernel = "rbf"
    C      = [for e in range(-5, 13, 4) : pow(2, e)]
    gamma  = [for e in range(-10, 3, 3) : pow(2, e)]
  }
  tune {
    folds = 3
  }
}

learner "random" {
  plugin = "svm"
  params = {
    kernel = "rbf"
    C      = loguniform(pow(2, -5), pow(2, 11))
    gamma  = loguniform(pow(2, -10), pow(2, 2))
  }
  tune {
    folds    = 3
    strategy = "random"
    n_iter   = 10
  }
}

learner "halving" {
  plugin = "svm"
  params = {
    kernel = "rbf"
    C      = [for e in range(-5, 13, 4) : pow(2, e)]
    gamma  = [for e in range(-10, 3, 3) : pow(2, e)]
  }
  tune {
    folds         = 3
    strategy      = "halving"
    factor        = 3
    min_resources = "exhaust"
  }
}

learner "hyperband" {
  plugin = "svm"
  params = {
    kernel = "rbf"
    C      = [for e in range(-5, 13, 4) : pow(2, e)]
    gamma  = [for e in range(-10, 3, 3) : pow(2, e)]
  }
  tune {
    folds         = 3
    strategy      = "hyperband"
    factor        = 3
    min_resources = 9
  }
}

learner "random_budget" {
  plugin = "svm"
  params = {
    kernel = "rbf"
    C      = loguniform(pow(2, -5), pow(2, 11))
    gamma  = loguniform(pow(2, -10), pow(2, 2))
  }
  tune {
    folds     = 3
    strategy  = "random"
    n_iter    = 10
    max_evals = 6
  }
}

reduction "ovo" {
  scheme = "ovo"
  ties   = "libsvm"
}

metrics = ["accuracy"]

cv {
  folds = 5
}

output {
  formats = ["markdown", "json"]
}
