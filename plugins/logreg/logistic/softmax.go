package logistic

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// SoftmaxOptions configures FitSoftmax. The zero value selects every
// default.
type SoftmaxOptions struct {
	// C is the loss weight (inverse regularisation strength); 0 means 1.
	C float64
	// Tol stops L-BFGS once ‖∇f(θ)‖₂ ≤ Tol·‖∇f(0)‖₂; 0 means 1e-5.
	Tol float64
	// MaxIter bounds the L-BFGS major iterations; 0 means 10000.
	MaxIter int
}

// SoftmaxResult is a fitted multinomial model and solver diagnostics.
type SoftmaxResult struct {
	// W is the K×d weight matrix, row k = wₖ.
	W *mat.Dense
	// B holds the K intercepts, normalised to sum to zero.
	B []float64
	// Objective is the objective value at (W, B).
	Objective float64
	// GradNorm is the Euclidean norm of the full gradient (W and B).
	GradNorm float64
	// Iterations is the number of L-BFGS major iterations.
	Iterations int
	// Converged reports whether the Tol rule was met.
	Converged bool
}

// FitSoftmax fits multinomial logistic regression with k classes on x,
// class indices y ∈ {0..k−1} and optional nonnegative row weights s (nil
// means all 1). It minimises ½·Σₖ‖wₖ‖² + C·Σᵢ sᵢ·(−log P(yᵢ|xᵢ)) with
// unpenalised intercepts by L-BFGS (gonum optimize). A NaN or infinite
// objective, gradient or coefficient, at the start or the end, is an
// error wrapping ErrNonFinite.
func FitSoftmax(x Design, y []int, k int, s []float64, opt SoftmaxOptions) (*SoftmaxResult, error) {
	n, d := x.Dims()
	switch {
	case n == 0:
		return nil, fmt.Errorf("%w: no rows", ErrInput)
	case len(y) != n:
		return nil, fmt.Errorf("%w: %d labels for %d rows", ErrInput, len(y), n)
	case s != nil && len(s) != n:
		return nil, fmt.Errorf("%w: %d row weights for %d rows", ErrInput, len(s), n)
	case k < 1:
		return nil, fmt.Errorf("%w: %d classes, want ≥ 1", ErrInput, k)
	}
	for i, c := range y {
		if c < 0 || c >= k {
			return nil, fmt.Errorf("%w: class %d at row %d outside 0..%d", ErrInput, c, i, k-1)
		}
		if s != nil && !(s[i] >= 0) {
			return nil, fmt.Errorf("%w: row weight %v at row %d is not ≥ 0", ErrInput, s[i], i)
		}
	}
	if opt.C == 0 {
		opt.C = 1
	}
	if opt.Tol == 0 {
		opt.Tol = 1e-5
	}
	if opt.MaxIter == 0 {
		opt.MaxIter = 10000
	}
	if !(opt.C > 0) || math.IsInf(opt.C, 1) || !(opt.Tol > 0) || opt.MaxIter < 0 {
		return nil, fmt.Errorf("%w: C = %v, Tol = %v, MaxIter = %d", ErrInput, opt.C, opt.Tol, opt.MaxIter)
	}
	p := newSoftProblem(x, y, k, s, opt.C)
	theta := make([]float64, k*d+k)
	g := make([]float64, len(theta))
	f0 := p.fun(theta)
	p.grad(theta, g)
	if err := finiteEnd(f0, g, theta, 0); err != nil {
		return nil, fmt.Errorf("logistic: softmax: %w", err)
	}
	// ‖∇f(0)‖₂-relative, and per coordinate: |∇₍ₖ,ⱼ₎f| ≤ C times
	// coordBounds' scale of column j, as |P(k|xᵢ) − [yᵢ = k]| ≤ 1.
	bounds := coordBounds(x, s, opt.Tol*opt.C)
	coord := make([]float64, 0, len(theta))
	for range k {
		coord = append(coord, bounds[:d]...)
	}
	for range k {
		coord = append(coord, bounds[d])
	}
	thresh := stopRule{norm: opt.Tol * floats.Norm(g, 2), coord: coord}
	iters, err := minimizeLBFGS(p.fun, p.grad, theta, thresh, opt.MaxIter)
	if err != nil {
		return nil, fmt.Errorf("logistic: softmax: %w", err)
	}
	// Intercepts are identified only up to a common shift, which leaves the
	// objective unchanged; centre them.
	b := theta[k*d:]
	mean := floats.Sum(b) / float64(k)
	for j := range b {
		b[j] -= mean
	}
	f := p.fun(theta)
	p.grad(theta, g)
	if err := finiteEnd(f, g, theta, iters); err != nil {
		return nil, fmt.Errorf("logistic: softmax: %w", err)
	}
	gn := floats.Norm(g, 2)
	return &SoftmaxResult{
		W:          mat.NewDense(k, d, theta[:k*d:k*d]),
		B:          b,
		Objective:  f,
		GradNorm:   gn,
		Iterations: iters,
		Converged:  thresh.met(g),
	}, nil
}

// softProblem evaluates the multinomial objective on θ = (vec(W), b),
// W K×d row-major followed by the K intercepts.
type softProblem struct {
	x       Design
	y       []int
	s       []float64
	c       float64
	n, d, k int
	p       []float64 // n×K probabilities at the last fun call
	r       []float64 // n×K residual scratch
	tmp     []float64 // length n scratch for designs without matMuler
}

func newSoftProblem(x Design, y []int, k int, s []float64, c float64) *softProblem {
	n, d := x.Dims()
	return &softProblem{
		x: x, y: y, s: s, c: c, n: n, d: d, k: k,
		p:   make([]float64, n*k),
		r:   make([]float64, n*k),
		tmp: make([]float64, n),
	}
}

// scores sets dst (n×K, row-major) = X·Wᵀ + 1·bᵀ.
func scores(dst []float64, x Design, w []float64, b []float64, tmp []float64) {
	n, d := x.Dims()
	k := len(b)
	if mm, ok := x.(matMuler); ok {
		mm.mulXWT(blas64.General{Rows: n, Cols: k, Stride: k, Data: dst},
			blas64.General{Rows: k, Cols: d, Stride: d, Data: w})
	} else {
		for c := 0; c < k; c++ {
			x.MulVec(tmp, w[c*d:(c+1)*d])
			for i, v := range tmp {
				dst[i*k+c] = v
			}
		}
	}
	for i := 0; i < n; i++ {
		floats.Add(dst[i*k:(i+1)*k], b)
	}
}

// softmaxRow replaces z by softmax(z) and returns log Σ exp(z).
func softmaxRow(z []float64) float64 {
	m := floats.Max(z)
	var sum float64
	for j, v := range z {
		e := math.Exp(v - m)
		z[j] = e
		sum += e
	}
	floats.Scale(1/sum, z)
	return m + math.Log(sum)
}

func (p *softProblem) weight(i int) float64 {
	if p.s == nil {
		return 1
	}
	return p.s[i]
}

func (p *softProblem) fun(theta []float64) float64 {
	kd := p.k * p.d
	w, b := theta[:kd], theta[kd:]
	scores(p.p, p.x, w, b, p.tmp)
	var loss float64
	for i := 0; i < p.n; i++ {
		row := p.p[i*p.k : (i+1)*p.k]
		zy := row[p.y[i]]
		lse := softmaxRow(row)
		loss += p.weight(i) * (lse - zy)
	}
	return 0.5*floats.Dot(w, w) + p.c*loss
}

// grad sets g = ∇f(θ) using the probabilities of the preceding fun(θ).
func (p *softProblem) grad(theta, g []float64) {
	k, d, kd := p.k, p.d, p.k*p.d
	gb := g[kd:]
	clear(gb)
	for i := 0; i < p.n; i++ {
		cs := p.c * p.weight(i)
		pr := p.p[i*k : (i+1)*k]
		rr := p.r[i*k : (i+1)*k]
		for j, v := range pr {
			rr[j] = cs * v
		}
		rr[p.y[i]] -= cs
		floats.Add(gb, rr)
	}
	gw := g[:kd]
	if mm, ok := p.x.(matMuler); ok {
		mm.mulRTX(blas64.General{Rows: k, Cols: d, Stride: d, Data: gw},
			blas64.General{Rows: p.n, Cols: k, Stride: k, Data: p.r})
	} else {
		for c := 0; c < k; c++ {
			for i := range p.tmp {
				p.tmp[i] = p.r[i*k+c]
			}
			p.x.MulVecTrans(gw[c*d:(c+1)*d], p.tmp)
		}
	}
	floats.Add(gw, theta[:kd])
}
