# experiments/reductions.hcl made small for the shard tests: vehicle only
# (the digits-only code goes with digits), 3 folds, every output format and the predictions.
# Reductions of multiclass to binary problems compared on digits (K = 10)
# and vehicle (K = 4): one-vs-all, ordered one-vs-rest, one-vs-one
# (symmetric and asymmetric), a custom 7-column code per dataset, a random
# dense code and the exhaustive code, each decoded by Hamming distance and
# by exponential-loss decoding. The "Code matrices" table of the results
# lists K, L and the minimum row distance d_min of every scheme.
#
#   bin/bench run experiments/reductions.hcl

experiment "reductions" { seed = 1 }

dataset "vehicle" { path = "%REPO%/experiments/data/vehicle.csv" }

encoder "std" { type = "standardize" }

learner "logreg" { params = { C = 1 } }

locals {
  decoders = ["hamming", "loss:exp"]
}

reduction "ova" {
  scheme = "ova"
  decode = local.decoders
}

reduction "ordered" {
  scheme = "ordered"
  decode = local.decoders
}

reduction "ovo" {
  scheme = "ovo"
  decode = local.decoders
}

reduction "ovo_asym" {
  scheme     = "ovo"
  asymmetric = true
  decode     = local.decoders
}

# Vehicle's classes sorted: bus, opel, saab, van. The first three columns
# are one-vs-all for bus and van and the car-vs-car problem; the rest add
# distance between the two cars.
reduction "ecoc7_vehicle" {
  scheme   = "ecoc"
  datasets = ["vehicle"]
  classes  = ["bus", "opel", "saab", "van"]
  matrix = [
    [ 1, -1, 0,  1,  1, -1,  1],
    [-1, -1,  1,  1, -1,  1, -1],
    [-1, -1, -1, -1,  1,  1,  1],
    [-1,  1, 0, -1, -1, -1, -1],
  ]
  decode = local.decoders
}

reduction "random_dense" {
  scheme = "ecoc"
  code   = "random_dense"
  decode = local.decoders
}

reduction "exhaustive" {
  scheme = "ecoc"
  code   = "exhaustive"
  decode = local.decoders
}

cv {
  folds = 3
}

metrics = ["accuracy", "macro_f1"]

output {
  formats = ["markdown", "csv", "latex", "json", "html"]
  # Per-row predictions go through shards and the merge too.
  predictions = true
}
