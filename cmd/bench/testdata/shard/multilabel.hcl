# experiments/multilabel.hcl made small for the shard tests: emotions only,
# 3 folds (3 inner folds for stacking), every output format and the predictions.
# Multi-label classification: binary relevance, 2BR stacking and principal
# label space transformation (PLST with M = 2, 4, 6 components) on
# emotions (6 labels), scene (6 labels) and yeast (14 labels).
#
#   bin/bench run experiments/multilabel.hcl

experiment "multilabel" { seed = 1 }

dataset "emotions" {
  path          = "%REPO%/experiments/data/emotions.csv"
  labels_prefix = "label_"
}

encoder "std" { type = "standardize" }

learner "logreg" { params = { C = 1 } }

# PLST regresses on real-valued targets: ordinary least squares.
learner "ols" {
  plugin = "lda"
  params = { method = "ridge", ridge = 0 }
}

reduction "br" { learners = ["logreg"] }

reduction "stack" {
  learners    = ["logreg"]
  inner_folds = 3
}

reduction "plst" {
  learners   = ["ols"]
  components = [2, 4, 6]
}

cv {
  folds = 3
  # Plain shuffled k-fold for multi-label data, unless
  # stratified = "iterative" (Sechidis et al. 2011).
}

metrics = ["hamming_loss", "jaccard", "example_f1", "subset_accuracy", "micro_f1", "macro_f1"]

output {
  formats = ["markdown", "csv", "latex", "json", "html"]
  # Per-row predictions go through shards and the merge too.
  predictions = true
}
