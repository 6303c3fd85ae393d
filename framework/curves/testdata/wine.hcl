experiment "curvesref" { seed = 11 }
dataset "wine" { path = "../../../experiments/data/wine.csv" }

encoder "std" { type = "standardize" }
learner "logreg" { params = { C = 0.1 } }
learner "svm" {}
reduction "ova" { scheme = "ova" }
cv {
  folds   = 3
  repeats = 2
}
metrics = ["accuracy"]
output {
  formats     = ["csv"]
  predictions = true
}
