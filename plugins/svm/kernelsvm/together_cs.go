package kernelsvm

import (
	"math"
	"slices"
)

// csMethod is the Crammer–Singer multiclass SVM (Crammer & Singer 2001),
// in LIBLINEAR's dual form (Keerthi et al. 2008). The primal, with
// wₘ = Σᵢ αᵢᵐ·φ(xᵢ) and φ the kernel's feature map (its constant
// feature Bias included):
//
//	min ½Σₘ‖wₘ‖² + Σᵢ Cᵢ·ξᵢ  s.t.  w_{yᵢ}·φ(xᵢ) − wₘ·φ(xᵢ) ≥ eᵢᵐ − ξᵢ  ∀i, m,
//
// eᵢᵐ = 1 − [m = yᵢ]. Its dual, in K variables per row:
//
//	min_α ½Σₘ Σᵢⱼ αᵢᵐαⱼᵐK(xᵢ, xⱼ) + Σᵢₘ eᵢᵐαᵢᵐ
//	s.t.  αᵢᵐ ≤ Cᵢᵐ,  Σₘ αᵢᵐ = 0,   Cᵢᵐ = Cᵢ·[m = yᵢ],
//
// whose value at the optimum is minus the primal's; the model reports the
// dual in the maximisation form Σᵢ αᵢ^{yᵢ} − ½Σₘ‖wₘ‖². With the gradient
// Gᵢᵐ = fᵢᵐ + eᵢᵐ (fᵢᵐ = wₘ·φ(xᵢ)), row i is optimal given the others when
//
//	vᵢ = maxₘ Gᵢᵐ − min_{m: αᵢᵐ < Cᵢᵐ} Gᵢᵐ ≤ 0,
//
// and the solver stops when maxᵢ vᵢ ≤ eps (LIBLINEAR -s 4's measure). The
// row's sub-problem, min ½Aᵢ Σₘ(αᵢᵐ)² + Σₘ Bₘαᵢᵐ with Aᵢ = K(xᵢ, xᵢ),
// Bₘ = Gᵢᵐ − Aᵢαᵢᵐ, is solved exactly: αᵢᵐ = min(Cᵢᵐ, (β − Bₘ)/Aᵢ) with β
// found by sorting (Crammer & Singer 2001, Fig. 3; LIBLINEAR's
// solve_sub_problem). A row is shrunk when all its variables but one are
// at their bound (the row is at α = 0, or its class's variable at Cᵢ with
// one other class holding −Cᵢ) and the free one's gradient lies below
// every other by more than the last sweep's largest violation.
type csMethod struct {
	// d is the sort buffer of the sub-problem (length K).
	d []float64
}

func (csMethod) coef(c, a []float64, _ int) { copy(c, a) }

func (csMethod) linear(a []float64, y int) float64 { return a[y] }

// grad returns Gᵐ of the row.
func csGrad(f []float64, y, m int) float64 {
	if m == y {
		return f[m]
	}
	return f[m] + 1
}

// csBound returns Cᵐ of the row.
func csBound(y, m int, bound float64) float64 {
	if m == y {
		return bound
	}
	return 0
}

func (csMethod) violation(f, a []float64, y int, bound float64) float64 {
	maxG, minG := math.Inf(-1), math.Inf(1)
	for m := range f {
		g := csGrad(f, y, m)
		maxG = max(maxG, g)
		if a[m] < csBound(y, m, bound) {
			minG = min(minG, g)
		}
	}
	return max(0, maxG-minG)
}

func (csMethod) shrinkable(f, a []float64, y int, bound, margin float64) bool {
	free, others := -1, math.Inf(-1)
	for m := range f {
		if a[m] < csBound(y, m, bound) {
			if free >= 0 {
				return false
			}
			free = m
			continue
		}
		others = max(others, csGrad(f, y, m))
	}
	return free >= 0 && csGrad(f, y, free)-others > margin
}

func (s csMethod) solve(next, f, a []float64, y int, bound, kii float64) {
	b := next // Bₘ first, then the solution over it
	for m := range f {
		b[m] = csGrad(f, y, m) - kii*a[m]
	}
	d := s.d[:len(b)]
	copy(d, b)
	d[y] += kii * bound
	slices.Sort(d)
	slices.Reverse(d)
	beta := d[0] - kii*bound
	r := 1
	for ; r < len(d) && beta < float64(r)*d[r]; r++ {
		beta += d[r]
	}
	beta /= float64(r)
	for m := range b {
		next[m] = min(csBound(y, m, bound), (beta-b[m])/kii)
	}
}
