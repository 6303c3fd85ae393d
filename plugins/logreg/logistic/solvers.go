package logistic

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/optimize"
)

// ruleConverger stops gonum's optimisers once the gradient meets rule.
type ruleConverger struct{ rule stopRule }

func (c ruleConverger) Init(int) {}

func (c ruleConverger) Converged(loc *optimize.Location) optimize.Status {
	if loc.Gradient != nil && c.rule.met(loc.Gradient) {
		return optimize.GradientThreshold
	}
	return optimize.NotTerminated
}

// cachedFG wraps a function whose gradient needs the state of the function
// evaluation at the same point; it recomputes the function when gonum asks
// for a gradient elsewhere.
type cachedFG struct {
	fun   func(x []float64) float64
	grad  func(x, g []float64)
	lastX []float64
	valid bool
}

func (c *cachedFG) f(x []float64) float64 {
	v := c.fun(x)
	copy(c.lastX, x)
	c.valid = true
	return v
}

func (c *cachedFG) g(g, x []float64) {
	if !c.valid || !floats.Equal(x, c.lastX) {
		c.f(x)
	}
	c.grad(x, g)
}

// lbfgsEvalsPerIter bounds minimizeLBFGS's function evaluations per major
// iteration, on average.
const lbfgsEvalsPerIter = 50

// minimizeLBFGS runs gonum's L-BFGS from x (updated in place) until
// the gradient meets thresh or maxIter major iterations.
func minimizeLBFGS(fun func([]float64) float64, grad func(x, g []float64), x []float64, thresh stopRule, maxIter int) (int, error) {
	c := &cachedFG{fun: fun, grad: grad, lastX: make([]float64, len(x))}
	prob := optimize.Problem{Func: c.f, Grad: c.g}
	settings := &optimize.Settings{
		// gonum's own infinity-norm test is off (NaN): the converger
		// applies the rule, whose per-coordinate bounds may be smaller
		// than any single threshold gonum could test.
		GradientThreshold: math.NaN(),
		Converger:         ruleConverger{rule: thresh},
		MajorIterations:   maxIter,
		// Line searches take a few evaluations an iteration; the bound
		// stops one that never ends (on NaN values, say).
		FuncEvaluations: lbfgsEvalsPerIter * (maxIter + 1),
	}
	res, err := optimize.Minimize(prob, x, settings, &optimize.LBFGS{Store: 15})
	if res == nil {
		return 0, err
	}
	// A line-search failure close to the optimum (floating-point limits)
	// is not fatal: the best point is kept and the callers report the
	// reached gradient norm through Converged.
	copy(x, res.X)
	return res.Stats.MajorIterations, nil
}

func lbfgs(p *binProblem, theta []float64, thresh stopRule, maxIter int) (int, error) {
	return minimizeLBFGS(p.fun, p.grad, theta, thresh, maxIter)
}

// sgd runs o.Epochs epochs of stochastic gradient descent on the per-sample
// objective ½λ‖w‖² + sᵢ·log(1+exp(−yᵢ(w·xᵢ+b))), λ = 1/(C·n), whose
// average over i is f/(C·n):
//
//	w ← (1−η_t·λ)·w + η_t·sᵢ·σ(−yᵢ zᵢ)·yᵢ·xᵢ,   b ← b + η_t·sᵢ·σ(−yᵢ zᵢ)·yᵢ,
//
// with η_t = η₀/(1+η₀·λ·t) and the rows visited in a fresh seeded random
// order every epoch. w is stored as scale·v so the shrinkage costs O(1).
// After each epoch the full gradient is checked against thresh.
func sgd(p *binProblem, theta []float64, thresh stopRule, o Options) int {
	n, d := p.n, p.d
	rng := rand.New(rand.NewPCG(o.Seed, 0x5eed))
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	g := make([]float64, d+1)
	v := theta[:d] // w = scale·v
	scale := 1.0
	lambda := 1 / (o.C * float64(n))
	eta0 := o.Step
	t := 0.0
	epoch := 0
	for epoch < o.Epochs {
		rng.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		for _, i := range perm {
			eta := eta0 / (1 + eta0*lambda*t)
			t++
			yi := p.y[i]
			z := scale*p.x.RowDot(i, v) + theta[d]
			coef := eta * p.weight(i) * sigmoid(-yi*z) * yi
			scale *= 1 - eta*lambda
			if scale < 1e-9 {
				floats.Scale(scale, v)
				scale = 1
			}
			p.x.AddRow(v, i, coef/scale)
			theta[d] += coef
		}
		epoch++
		floats.Scale(scale, v)
		scale = 1
		p.fun(theta)
		p.grad(theta, g)
		if thresh.met(g) {
			break
		}
	}
	return epoch
}

// gd runs full-batch gradient descent: θ ← θ − η·∇f(θ), with the fixed
// step o.Step when it is positive, otherwise with Armijo backtracking
// (sufficient decrease 1e-4, halving, each search starting from twice the
// previous accepted step).
// A NaN objective ends it with an error wrapping ErrNonFinite.
func gd(p *binProblem, theta []float64, thresh stopRule, o Options) (int, error) {
	np := len(theta)
	g := make([]float64, np)
	trial := make([]float64, np)
	f := p.fun(theta)
	p.grad(theta, g)
	step := 1.0
	if o.Step > 0 {
		step = o.Step
	}
	iter := 0
	for iter < o.MaxIter {
		if math.IsNaN(f) {
			return iter, fmt.Errorf("%w: gd iteration %d: the objective is NaN", ErrNonFinite, iter)
		}
		gg := floats.Dot(g, g)
		if math.IsNaN(gg) {
			return iter, fmt.Errorf("%w: gd iteration %d: the gradient holds a NaN", ErrNonFinite, iter)
		}
		if thresh.met(g) {
			break
		}
		iter++
		if o.Step > 0 {
			floats.AddScaled(theta, -step, g)
			f = p.fun(theta)
			p.grad(theta, g)
			continue
		}
		step *= 2
		var fnew float64
		for {
			floats.AddScaledTo(trial, theta, -step, g)
			fnew = p.fun(trial)
			if fnew <= f-1e-4*step*gg || step < 1e-300 {
				break
			}
			step *= 0.5
		}
		copy(theta, trial)
		f = fnew
		p.grad(theta, g)
	}
	return iter, nil
}
