experiment "curvesml" { seed = 11 }
dataset "emotions" {
  path          = "../../../experiments/data/emotions.csv"
  labels_prefix = "label_"
}
learner "logreg" { params = { C = 0.1 } }
reduction "br" { scheme = "br" }
cv {
  folds = 3
  stratified = false
}
metrics = ["hamming_loss"]
output {
  formats     = ["csv"]
  predictions = true
}
