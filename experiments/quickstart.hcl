# The default experiment: `make run` cross-validates every combination below
# and writes its tables to results/quickstart/.

experiment "quickstart" {
  seed = 1 # fold assignment and every solver seed derive from it
}

dataset "iris" {
  path   = "data/iris.csv" # relative to this file
  target = "class"
}

dataset "wine" {
  path   = "data/wine.csv"
  target = "class"
}

dataset "car" {
  path        = "data/car.csv"
  target      = "class"
  categorical = ["buying", "maint", "doors", "persons", "lug_boot", "safety"]
}

# Without a pipeline block, all encoders form one pipeline in file order:
# standardize the numeric columns, then one-hot encode the categorical ones.
# Both are fitted on the training part of each fold only.
encoder "std" { type = "standardize" }
encoder "onehot" { type = "onehot" }

learner "logreg" {
  plugin = "logreg"
  params = { C = [0.1, 1, 10] } # a list expands into one cell per value
}

learner "svm" {
  plugin = "svm" # linear SVM, hinge loss, dual coordinate descent
  params = { C = 1 }
}

learner "lda" {
  plugin = "lda" # linear discriminant analysis, also binary
}

reduction "ova" {
  plugin = "reducers"
  scheme = "ova"
}

cv {
  folds      = 10
  stratified = true
}

metrics = ["accuracy", "macro_f1"]

output {
  formats = ["markdown", "csv", "latex", "html"]
}
