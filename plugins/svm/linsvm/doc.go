// Package linsvm implements linear support vector machines and perceptron
// baselines on dense (*mat.Dense) or sparse (sparse.CSR) designs:
//
//   - Fit: binary L2-regularised linear SVM with the hinge (L1) loss or the
//     squared hinge (L2) loss, solved in the dual by coordinate descent with
//     shrinking (Hsieh et al. 2008; LIBLINEAR `-s 3` and `-s 1`,
//     solve_l2r_l1l2_svc).
//   - FitCrammerSinger: native multiclass Crammer–Singer SVM solved by the
//     sequential dual method of Keerthi et al. 2008 (LIBLINEAR `-s 4`,
//     Solver_MCSVM_CS), including its sub-problem solver and shrinking.
//   - Perceptron and Pocket: Rosenblatt's perceptron learning algorithm and
//     Gallant's pocket variant, seeded, as cheap baselines.
//
// # Binary problem
//
// With labels yᵢ ∈ {−1,+1}, optional row weights sᵢ ≥ 0 (nil means all 1)
// and the bias handled as LIBLINEAR's `-B Bias` (a constant feature of value
// Bias appended to every row, whose weight is PENALISED), Fit minimises
//
//	P(w,b) = ½·(‖w‖² + b²) + C·Σᵢ sᵢ·ℓ(yᵢ(w·xᵢ + b·Bias))
//
// with ℓ(m) = max(0, 1−m) (hinge) or max(0, 1−m)² (squared hinge). The
// returned intercept is Result.B = b·Bias, so the decision value is
// w·x + Result.B; with Bias = 1 the penalty is exactly ½(‖w‖²+B²).
// Bias ≤ 0 fits no bias (LIBLINEAR's default −1); DefaultOptions uses 1.
//
// The dual is max D(α) = Σα − ½‖Σαᵢyᵢx̃ᵢ‖² − ½Σ αᵢ²·Dᵢᵢ over 0 ≤ αᵢ ≤ Uᵢ,
// with Uᵢ = C·sᵢ, Dᵢᵢ = 0 for the hinge and Uᵢ = ∞, Dᵢᵢ = 1/(2C·sᵢ) for the
// squared hinge; x̃ᵢ is xᵢ with the bias feature appended.
//
// Options.Tol has LIBLINEAR's meaning (default eps 0.1): the solver stops
// when, over one full pass without shrinking, the spread
// max PG − min PG of the projected dual gradients is ≤ Tol. Tolerances
// around 1e-8 to 1e-10 give optima accurate to ~1e-8 relative.
//
// # Crammer–Singer
//
// With classes yᵢ ∈ {0..K−1}, FitCrammerSinger minimises
//
//	½·Σₖ(‖wₖ‖² + bₖ²) + C·Σᵢ sᵢ·ξᵢ,  ξᵢ = maxₖ(wₖ·x̃ᵢ + 1 − [yᵢ=k]) − w_{yᵢ}·x̃ᵢ
//
// (bias again a penalised constant feature). The stopping rule is
// LIBLINEAR's: the largest per-row gradient spread maxG−minG over a full pass
// is below Tol (default 0.1).
//
// # Concurrency
//
// All solvers keep their state in per-call workspaces and only read their
// inputs, so concurrent calls (for example the K problems of a one-vs-rest
// reduction) are safe as long as the shared inputs are not modified.
package linsvm
