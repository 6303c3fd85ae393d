package logistic

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

// stopRule is the stopping rule of every solver: the gradient g meets it
// when ‖g‖₂ ≤ norm (the LIBLINEAR rule, relative to ‖∇f(0)‖₂) and
// |gⱼ| ≤ coord[j] for every coordinate j.
//
// The per-coordinate bounds make the rule scale-aware: a feature scaled
// by 1e160 makes ‖∇f(0)‖₂ so large that the LIBLINEAR rule alone holds
// after one step, whatever the other coordinates' gradients (issue 55's
// unstandardised 1e160 feature: lbfgs and gd reported convergence at a
// gradient of norm 300 and predicted near-constant scores). coord[j] is
// the tolerance times a bound on |∇ⱼf(0)| computed from column j alone
// (see coordBounds), so each coordinate is held to its own scale; on a
// design whose columns share one scale it is looser than the LIBLINEAR
// rule and does not change when a solver stops.
type stopRule struct {
	norm  float64
	coord []float64
}

// met reports whether the gradient g meets the rule.
func (r stopRule) met(g []float64) bool {
	if !(floats.Norm(g, 2) <= r.norm) {
		return false
	}
	for j, v := range g {
		if !(math.Abs(v) <= r.coord[j]) {
			return false
		}
	}
	return true
}

// coordBounds returns the per-coordinate bounds of a stopRule for the
// design x with row weights s (nil means all 1) and the scalar factor
// tol: bound j is tol·√(Σᵢsᵢ)·√(Σᵢsᵢxᵢⱼ²) for a feature column and
// tol·Σᵢsᵢ for the intercept (the last of the d+1 entries). By
// Cauchy–Schwarz, √(Σᵢsᵢ)·√(Σᵢsᵢxᵢⱼ²) ≥ |Σᵢsᵢ·aᵢ·xᵢⱼ| for any |aᵢ| ≤ 1,
// the data part of a gradient coordinate with unit loss weight. A bound
// that is not a number (an infinite entry with a zero weight) is +Inf:
// that coordinate is left to the norm rule.
func coordBounds(x Design, s []float64, tol float64) []float64 {
	n, d := x.Dims()
	w := s
	if w == nil {
		w = make([]float64, n)
		for i := range w {
			w[i] = 1
		}
	}
	sum := floats.Sum(w)
	b := make([]float64, d+1)
	x.MulVecTransSq(b[:d], w)
	for j := range b[:d] {
		b[j] = tol * math.Sqrt(sum) * math.Sqrt(b[j])
	}
	b[d] = tol * sum
	for j, v := range b {
		if math.IsNaN(v) {
			b[j] = math.Inf(1)
		}
	}
	return b
}
