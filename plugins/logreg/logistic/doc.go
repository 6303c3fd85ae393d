// Package logistic implements L2-regularised logistic regression solvers:
// binary logistic regression (trust-region Newton, L-BFGS, stochastic and
// full-batch gradient descent) and native multiclass softmax (multinomial)
// regression, on dense (*mat.Dense) or sparse (sparse.CSR) designs.
//
// # Binary problem
//
// Fit minimises
//
//	f(w,b) = ½·‖w‖² + C·Σᵢ sᵢ·log(1 + exp(−yᵢ(w·xᵢ + b)))
//
// over w ∈ ℝᵈ and the intercept b, which is NOT penalised. yᵢ ∈ {−1,+1}
// and sᵢ ≥ 0 are optional row weights (nil means all 1).
//
// # Stopping rule
//
// Options.Tol has LIBLINEAR's semantics for its primal solvers (`-s 0`), so
// timings compare like with like: a solver stops at the first iterate with
//
//	‖∇f(w,b)‖₂ ≤ Tol · max(min(n₊, n₋), 1)/n · ‖∇f(0,0)‖₂
//
// where n₊ and n₋ count the positive and negative rows (unweighted, as
// LIBLINEAR does). The default Tol is LIBLINEAR's default eps 0.01. The
// gradient includes the intercept component. For tight optima (for example to
// reproduce reference objective values to 1e-6) use Tol around 1e-8.
//
// A rule relative to ‖∇f(0,0)‖₂ alone holds vacuously when one column is
// scaled far beyond the others (a feature of 1e160 makes ‖∇f(0,0)‖₂ about
// 1e160, and the rule then holds after one step whatever the other
// gradients are). Every solver therefore also requires, per coordinate j,
//
//	|∂f/∂θⱼ| ≤ Tol · max(min(n₊, n₋), 1)/n · C/2 · √(Σᵢsᵢ) · √(Σᵢsᵢxᵢⱼ²)
//
// (Σᵢsᵢ in place of the last square root for the intercept), a bound on
// |∂f/∂θⱼ(0,0)| from column j alone. On columns of one scale it is looser
// than the norm rule; on a mis-scaled design the fit runs on or reports
// Converged = false. The softmax solver applies the same bounds with
// C in place of C/2 and without the class-count factor.
//
// # Softmax problem
//
// FitSoftmax minimises ½·Σₖ‖wₖ‖² + C·Σᵢ sᵢ·(−log P(yᵢ|xᵢ)) with
// P(k|x) = exp(wₖ·x+bₖ)/Σⱼexp(wⱼ·x+bⱼ) and unpenalised intercepts, using
// gonum's L-BFGS and a numerically stable log-sum-exp. Since the intercepts
// are only determined up to a common shift, the returned B is normalised to
// sum to zero.
//
// # Arithmetic
//
// The binary losses log(1+exp(−yᵢzᵢ)), their derivatives and the Hessian
// weights come from package softplus (four rows at a time, within a few
// ulp of math.Log1p(math.Exp(…))), their sums in four running sums. The
// newton solver on a DenseDesign or a CSRDesign runs as a batch (see
// FitBatch): its products with X are fused multiply-adds in an order
// fixed per problem, package blockmul's on a dense design, package
// sparsemul's on a CSR one and on a dense one with at most a quarter of
// its entries non-zero, summed over chunks of rows whose size depends on
// the number of rows alone. A problem's iterates are so the same bits
// alone, in any batch, on any number of goroutines (Options.Workers) and
// with or without the assembly kernels; they are not those of the
// design's own methods (MulVec and the others, gonum's order), which the
// other solvers use.
//
// # Explicit Hessian
//
// On a design whose rows have few non-zeros (ExplicitHessian: a
// DenseDesign or a CSRDesign of at most 63 columns and 23 non-zeros a row
// on average), the newton solver forms the Hessian Σᵢ ddᵢ·x̃ᵢx̃ᵢᵀ
// (x̃ᵢ = (xᵢ, 1)) of each Newton step in one pass over the rows and takes
// the products of its conjugate-gradient steps from it, instead of making
// two passes over the rows for each: on letter (16 columns) the fits take
// 0.54× the time as one batch and 0.63× one problem after the other, on
// one-hot covertype (12 non-zeros a row) about 0.4× at 25 000 rows and
// 0.23× at 400 000. The iterates are those of the Hessian-vector products
// up to rounding, with the same guarantees of order (gram.go gives the
// arithmetic).
//
// All solvers keep their state in per-call workspaces, so concurrent calls
// (for example the K problems of a one-vs-rest reduction) are safe as long
// as the shared inputs are not modified.
package logistic
