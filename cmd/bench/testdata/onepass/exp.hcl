# validate's one pass (TestValidateOnePass): 14 mistakes of every kind,
# all reported by one run of bench validate.
experiment "many" { seed = 1 }

dataset "nope" { path = "data/nope.csv" }
dataset "iris" {
  path = "%REPO%/experiments/data/iris.csv"
  folds = 3
}

encoder "std" { type = "standardise" }

learner "logreg" {
  params = { C = [1, 10] }
  tune { folds = 3, metric = "accuracy" }
}
learner "svm" { params = { kernal = "rbf" } }
learner "lda" {
  tune {
    folds = 3
  }
}
learner "knn" { params = { k = 0 } }

reduction "ecoc" {
  scheme = "ecoc"
  datasets = ["iris"]
  matrix = [
    [1, -1, 1],
    [1, 1, 2],
    [1, -1, 1],
    [-1, 1, -1],
  ]
}

cv { folds = 1 }

output {
  baseline = "nosuch"
  formats  = ["markdown"]
}

metrics = ["acuracy"]

pipeline "p" { steps = ["std", "onehot"] }
