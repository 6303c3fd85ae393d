// Package kernelsvm trains kernel support vector machines as LIBSVM's
// C-SVC does (Chang & Lin 2011), on dense or sparse designs, and
// predicts with them.
//
// # Problem
//
// A binary problem has rows xᵢ with targets yᵢ = ±1 and bounds
// Cᵢ = C·wᵢ (row weights wᵢ, default 1). Train solves the dual
//
//	min ½ αᵀQα − Σᵢ αᵢ  s.t.  yᵀα = 0,  0 ≤ αᵢ ≤ Cᵢ,  Q_ij = yᵢyⱼK(xᵢ, xⱼ),
//
// and the decision value of x is f(x) = Σᵢ yᵢαᵢK(x, xᵢ) − ρ, positive for
// +1. The kernels (Kernel) are LIBSVM's linear, rbf, poly and sigmoid with
// its gamma, degree and coef0.
//
// # Algorithm
//
// The solver is LIBSVM's (Fan, Chen & Lin 2005, "Working set selection
// using second order information for training support vector machines",
// JMLR 6): SMO on two variables at a time, chosen by the second-order
// rule (i maximal violating in I_up, j the largest decrease of the
// objective in I_low; curvature ≤ 0 replaced by τ = 1e-12), stopping when
// the maximal violation is below Options.Eps; shrinking every min(l, 1000)
// iterations with the gradient rebuilt from Ḡ (the gradient of the
// variables at their upper bound) before the final check; Q's columns in
// float32 in an LRU cache of Options.CacheBytes, kept in the solver's
// shrinking order. ρ is the mean of yᵢ∇fᵢ over the free variables (the
// middle of its feasible interval when none is free).
//
// The port is literal: the same arithmetic in the same order, float32
// kernel values computed from the rows' dot products and squared norms as
// LIBSVM's training kernel does (and from the summed squared differences
// at prediction, as its k_function), so a problem takes the same path as
// in svm-train: the same iterations, support vectors, coefficients and ρ
// to rounding, and the same decision values. The parity tests compare
// every pair of several data sets and kernels with svm-train 3.24 (Debian
// libsvm-tools; references in testdata, made by gen_libsvm.py).
//
// A problem is laid out as svm-train lays out a two-class training set:
// the class of its first row (in training order) is the internal +1, its
// rows first, then the other class's, each in training order; a model
// whose internal +1 is the target −1 negates its decision values.
//
// # Multiclass problems
//
// A Problem with Classes is split into its one-vs-one pairs as svm-train
// splits a training set, and its Model outputs svm-predict's votes (ties
// to the class seen first in the training rows); with probabilities,
// svm-predict -b 1's coupled class probabilities (Wu, Lin & Weng 2004,
// their second method). The parity tests check both against svm-predict.
//
// # All-together multiclass SVMs
//
// TrainTogether solves the single-problem multiclass SVMs of Crammer &
// Singer (2001) and Weston & Watkins (1999) with any kernel (the duals
// and their optimality conditions are documented at csMethod and
// wwMethod): a decomposition method whose working set is one training
// row's K dual variables, rows visited in random sweeps (Keerthi et al.
// 2008's sequential dual method) and optimised exactly, with LIBSVM's
// shrinking and its column cache (columnCache,
// through qMatrix with every target +1), and the outputs of all rows
// recomputed in float64 before the final check. The tests compare the
// optima with cvxopt's general QP solver (scripts/cs_qp_reference.py)
// and, with the linear kernel, Crammer–Singer's predictions with
// liblinear-train -s 4 (testdata/gen_liblinear_cs.py).
//
// # Probabilities
//
// With Options.Probability a model also fits Platt's sigmoid
// P(+1 | f) = 1/(1 + exp(A·f + B)) (Platt 2000, with the improvements of
// Lin, Lin & Weng 2007) to decision values from a 5-fold
// cross-validation on its training rows, as svm-train -b 1. The folds come
// from a shuffle with the C library's rand(), which svm-train never seeds:
// Train reproduces glibc's rand() from its default state. A binary
// problem draws a fresh stream, as svm-train on a two-class file; the
// pairs of a multiclass problem draw one stream in svm-train's order, so
// that their A and B are svm-train's (to 1e-9 in the tests). The binary
// problems of a one-vs-one reduction (each trained as if alone) therefore
// match svm-train -b 1 for its first pair only.
//
// # Sharing between problems
//
// Train solves all its binary problems together on several goroutines.
// Their rows fall into groups used by the same problems (rowGroups: a
// class under one-vs-one, all rows under one-vs-all), and a row's kernel
// values against a group that two or more problems use both ways are
// computed once, whole, and kept in a cache shared by the problems
// (sharedCache, half of Options.CacheBytes; the solvers' own column caches
// share the other half): under one-vs-one on letter the K − 1 problems of a
// class need its rows against their own class, and of the 158 million
// kernel values the solvers asked for, 84 million were computed. On a
// dense design the dot products of a row with a whole group take one
// vector operation per column. A sparse design with at least 30 % of its
// entries stored is densified first. None of this changes a value: each
// model is the one its problem gives alone.
//
// Predict computes a test row's kernel values against the union of its
// models' support vectors once, then each model's sum in LIBSVM's order;
// the rows are split over GOMAXPROCS goroutines. A row's outputs depend
// on it and its model alone.
package kernelsvm
