package logistic

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/polyclass/polyclass/plugins/logreg/logistic/internal/softplus"
	"github.com/polyclass/polyclass/plugins/logreg/logistic/internal/sparsemul"
)

// Solver names accepted by Options.Solver.
const (
	// SolverNewton is a trust-region Newton method with preconditioned
	// conjugate gradients (LIBLINEAR's TRON). It is the default.
	SolverNewton = "newton"
	// SolverLBFGS uses gonum's optimize.LBFGS.
	SolverLBFGS = "lbfgs"
	// SolverSGD is plain stochastic gradient descent (a baseline).
	SolverSGD = "sgd"
	// SolverGD is full-batch gradient descent (a baseline).
	SolverGD = "gd"
)

// Options configures Fit. The zero value selects every default.
type Options struct {
	// C is the loss weight (inverse regularisation strength); 0 means 1.
	C float64
	// Tol is the relative gradient tolerance of the LIBLINEAR-style stopping
	// rule described in the package documentation; 0 means 0.01.
	Tol float64
	// MaxIter bounds the outer iterations; 0 means 1000 for newton, 10000
	// for lbfgs and 100000 for gd. SGD uses Epochs instead.
	MaxIter int
	// Solver is one of SolverNewton (default when empty), SolverLBFGS,
	// SolverSGD or SolverGD.
	Solver string
	// Epochs is the maximum number of passes over the data for sgd (0 means
	// 100); sgd stops earlier once the Tol rule holds after an epoch.
	Epochs int
	// Step is the initial step η₀ for sgd (0 means 0.1), with schedule
	// η_t = η₀/(1 + η₀·λ·t), λ = 1/(C·n), t = number of sample updates so
	// far. For gd, Step > 0 selects a fixed step; 0 selects Armijo
	// backtracking.
	Step float64
	// Seed seeds the sgd shuffling.
	Seed uint64
	// Workers is the number of goroutines that compute the products of the
	// newton solver on a DenseDesign or a CSRDesign (FitBatch, and Fit as a
	// batch of one) over chunks of rows; 0 means 1. The results do not
	// depend on it.
	Workers int
}

// Result is a fitted binary model and solver diagnostics.
type Result struct {
	// W holds the d feature weights.
	W []float64
	// B is the (unpenalised) intercept.
	B float64
	// Objective is f(W,B).
	Objective float64
	// GradNorm is ‖∇f(W,B)‖₂ including the intercept component.
	GradNorm float64
	// Iterations is the number of outer iterations (accepted Newton
	// steps, L-BFGS major iterations, gd steps or sgd epochs).
	Iterations int
	// Converged reports whether the stopping rule was met.
	Converged bool
}

// ErrInput reports invalid arguments.
var ErrInput = errors.New("logistic: invalid input")

// ErrNonFinite reports a solver whose arithmetic met a NaN or an infinite
// value (features or weights too large for float64, say): the fit ends
// with it instead of iterating on meaningless numbers.
var ErrNonFinite = errors.New("non-finite value")

// Fit solves the binary L2 logistic regression problem on x with labels
// y ∈ {−1,+1} and optional nonnegative row weights s (nil means all 1).
//
// With the newton solver on a DenseDesign or a CSRDesign, Fit is a batch
// of one problem (see FitBatch), so that a problem has the same iterates
// alone and in any batch.
func Fit(x Design, y, s []float64, opt Options) (*Result, error) {
	if opt.Solver == "" || opt.Solver == SolverNewton {
		switch x.(type) {
		case *DenseDesign, *CSRDesign:
			res, errs, err := solveBatch(context.Background(), x, []BatchProblem{{Y: y, S: s}}, opt)
			if err != nil {
				return nil, err
			}
			return res[0], errs[0]
		}
	}
	return fit(x, y, s, opt)
}

// fit is Fit on the design's own products.
func fit(x Design, y, s []float64, opt Options) (*Result, error) {
	n, d := x.Dims()
	if len(y) != n {
		return nil, fmt.Errorf("%w: %d labels for %d rows", ErrInput, len(y), n)
	}
	if s != nil && len(s) != n {
		return nil, fmt.Errorf("%w: %d row weights for %d rows", ErrInput, len(s), n)
	}
	var npos, nneg int
	for i, v := range y {
		switch v {
		case 1:
			npos++
		case -1:
			nneg++
		default:
			return nil, fmt.Errorf("%w: label %v at row %d is not ±1", ErrInput, v, i)
		}
		if s != nil && !(s[i] >= 0) {
			return nil, fmt.Errorf("%w: row weight %v at row %d is not ≥ 0", ErrInput, s[i], i)
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("%w: no rows", ErrInput)
	}
	o, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	p := newBinProblem(x, y, s, o.C)
	// The LIBLINEAR rule's gradient-norm threshold, and per-coordinate
	// bounds at the same relative tolerance: |∇ⱼf(0)| is at most C/2 times
	// coordBounds' scale of column j.
	g0 := make([]float64, d+1)
	theta := make([]float64, d+1)
	f0 := p.fun(theta)
	p.grad(theta, g0)
	rel := o.Tol * float64(max(min(npos, nneg), 1)) / float64(n)
	thresh := stopRule{norm: rel * floats.Norm(g0, 2), coord: coordBounds(x, s, rel*o.C/2)}

	var iters int
	switch o.Solver {
	case SolverNewton:
		// tron starts from the value and gradient at θ = 0 just computed
		// and ends with those of its last iterate, which is θ.
		var f float64
		iters, f, err = tron(p, theta, g0, f0, thresh, o.MaxIter)
		if err != nil {
			return nil, fmt.Errorf("logistic: %s solver: %w", o.Solver, err)
		}
		return result(theta, f, g0, iters, thresh), nil
	case SolverLBFGS:
		iters, err = lbfgs(p, theta, thresh, o.MaxIter)
	case SolverSGD:
		iters = sgd(p, theta, thresh, o)
	case SolverGD:
		iters, err = gd(p, theta, thresh, o)
	}
	if err != nil {
		return nil, fmt.Errorf("logistic: %s solver: %w", o.Solver, err)
	}
	g := g0
	f := p.fun(theta)
	p.grad(theta, g)
	if err := finiteEnd(f, g, theta, iters); err != nil {
		return nil, fmt.Errorf("logistic: %s solver: %w", o.Solver, err)
	}
	return result(theta, f, g, iters, thresh), nil
}

// finiteEnd returns an error wrapping ErrNonFinite when the objective f,
// the gradient g or the parameters theta a solver stopped at after iters
// iterations hold a NaN or an infinity, else nil.
func finiteEnd(f float64, g, theta []float64, iters int) error {
	for _, v := range []struct {
		name string
		x    []float64
	}{{"objective", []float64{f}}, {"gradient", g}, {"coefficient", theta}} {
		if j, ok := firstNonFinite(v.x); !ok {
			return fmt.Errorf("%w: after %d iterations, %s entry %d is %v", ErrNonFinite, iters, v.name, j, v.x[j])
		}
	}
	return nil
}

// result returns the Result of a solver that stopped at θ = (w, b) after
// iters iterations, with f = f(θ) and g = ∇f(θ); it converged when g
// meets thresh.
func result(theta []float64, f float64, g []float64, iters int, thresh stopRule) *Result {
	d := len(theta) - 1
	gn := floats.Norm(g, 2)
	return &Result{
		W:          theta[:d:d],
		B:          theta[d],
		Objective:  f,
		GradNorm:   gn,
		Iterations: iters,
		Converged:  thresh.met(g),
	}
}

func (o Options) withDefaults() (Options, error) {
	if o.C == 0 {
		o.C = 1
	}
	if !(o.C > 0) || math.IsInf(o.C, 1) {
		return o, fmt.Errorf("%w: C = %v, want a positive finite value", ErrInput, o.C)
	}
	if o.Tol == 0 {
		o.Tol = 0.01
	}
	if !(o.Tol > 0) {
		return o, fmt.Errorf("%w: Tol = %v, want > 0", ErrInput, o.Tol)
	}
	if o.Solver == "" {
		o.Solver = SolverNewton
	}
	if o.MaxIter < 0 || o.Epochs < 0 || o.Step < 0 {
		return o, fmt.Errorf("%w: negative MaxIter, Epochs or Step", ErrInput)
	}
	if o.MaxIter == 0 {
		switch o.Solver {
		case SolverNewton:
			o.MaxIter = 1000
		case SolverLBFGS:
			o.MaxIter = 10000
		case SolverGD:
			o.MaxIter = 100000
		}
	}
	switch o.Solver {
	case SolverNewton, SolverLBFGS, SolverGD:
	case SolverSGD:
		if o.Epochs == 0 {
			o.Epochs = 100
		}
		if o.Step == 0 {
			o.Step = 0.1
		}
	default:
		return o, fmt.Errorf("%w: unknown solver %q (want newton, lbfgs, sgd or gd)", ErrInput, o.Solver)
	}
	return o, nil
}

// binProblem evaluates the binary objective on θ = (w, b) (length d+1, the
// intercept last). It owns its workspaces, so one value must not be shared
// between goroutines.
type binProblem struct {
	x    Design
	y, s []float64
	c    float64
	n, d int
	z    []float64 // X·w + b at the last fun call
	e    []float64 // exp(−|yᵢzᵢ|) at the last fun call
	dd   []float64 // C·sᵢ·σᵢ(1−σᵢ) at the last grad call
	tmp  []float64 // length n scratch
	// gx is the design when its problems form the explicit Hessian (see
	// gram.go), else nil; h is then the packed upper triangle of the
	// Hessian's data part at the last grad point, formed when first needed
	// (stale until then).
	gx    gramer
	h     []float64
	stale bool
}

func newBinProblem(x Design, y, s []float64, c float64) *binProblem {
	n, d := x.Dims()
	p := &binProblem{
		x: x, y: y, s: s, c: c, n: n, d: d,
		z:   make([]float64, n),
		e:   make([]float64, n),
		dd:  make([]float64, n),
		tmp: make([]float64, n),
	}
	if g, ok := x.(gramer); ok && g.explicitHessian() {
		p.gx, p.h = g, make([]float64, sparsemul.GramSize(d+1))
	}
	return p
}

func (p *binProblem) weight(i int) float64 {
	if p.s == nil {
		return 1
	}
	return p.s[i]
}

// sigmoid returns 1/(1+exp(−t)) without overflow.
func sigmoid(t float64) float64 { return sigmoidOf(t, math.Exp(-math.Abs(t))) }

// sigmoidOf returns σ(t) = 1/(1+exp(−t)) from e = exp(−|t|), without
// overflow.
func sigmoidOf(t, e float64) float64 {
	if t >= 0 {
		return 1 / (1 + e)
	}
	return e / (1 + e)
}

// fun returns f(θ) and stores the margins X·w+b and exp(−|yᵢzᵢ|) for a
// following grad call; softplus.Loss adds b to X·w and sums the losses.
func (p *binProblem) fun(theta []float64) float64 {
	w, b := theta[:p.d], theta[p.d]
	p.x.MulVec(p.z, w)
	return 0.5*floats.Dot(w, w) + p.c*softplus.Loss(p.z, b, p.y, p.s, p.e)
}

// grad sets g = ∇f(θ) using the margins of the preceding fun(θ) call and
// stores the Hessian diagonal weights for hv and precond
// (softplus.Grad).
func (p *binProblem) grad(theta, g []float64) {
	gb := softplus.Grad(p.dd, p.tmp, p.z, p.y, p.s, p.e, p.c)
	p.x.MulVecTrans(g[:p.d], p.tmp)
	floats.Add(g[:p.d], theta[:p.d])
	g[p.d] = gb
	p.stale = true
}

// hessian forms the explicit Hessian's data part at the last grad point
// unless it is there.
func (p *binProblem) hessian() {
	if p.stale {
		p.gx.gram(p.h, p.dd)
		p.stale = false
	}
}

// hv sets out = ∇²f·v with the Hessian at the last grad point.
func (p *binProblem) hv(v, out []float64) {
	if p.gx != nil {
		p.hessian()
		symPackedMul(out, p.h, v)
		floats.Add(out[:p.d], v[:p.d])
		return
	}
	var hb float64
	if hx, ok := p.x.(hessVecer); ok {
		hb = hx.hessVec(out[:p.d], p.tmp, v[:p.d], p.dd, v[p.d])
	} else {
		hb = hessVec(p.x, out[:p.d], p.tmp, v[:p.d], p.dd, v[p.d])
	}
	floats.Add(out[:p.d], v[:p.d])
	out[p.d] = hb
}

// precond sets m to the diagonal of the Hessian at the last grad point.
func (p *binProblem) precond(m []float64) {
	if p.gx != nil {
		p.hessian()
		for a := range m {
			m[a] = p.h[sparsemul.GramRowStart(p.d+1, a)+a]
		}
		for i := range m[:p.d] {
			m[i]++
		}
		return
	}
	p.x.MulVecTransSq(m[:p.d], p.dd)
	for i := range m[:p.d] {
		m[i]++
	}
	m[p.d] = softplus.Sum(p.dd)
}
