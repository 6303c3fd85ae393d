package kernelsvm

import "slices"

// wwMethod is the multiclass SVM of Weston & Watkins (1999). The primal,
// with φ the kernel's feature map (its constant feature Bias included, so
// that the intercepts are penalised as in Hsu & Lin 2002):
//
//	min ½Σₘ‖wₘ‖² + Σᵢ Cᵢ Σ_{m≠yᵢ} ξᵢᵐ
//	s.t.  w_{yᵢ}·φ(xᵢ) − wₘ·φ(xᵢ) ≥ 2 − ξᵢᵐ,  ξᵢᵐ ≥ 0,  m ≠ yᵢ.
//
// Its dual has K − 1 variables per row, 0 ≤ αᵢᵐ ≤ Cᵢ (m ≠ yᵢ), with
// wₘ = Σᵢ cᵢᵐ·φ(xᵢ), cᵢᵐ = −αᵢᵐ for m ≠ yᵢ and cᵢ^{yᵢ} = Σ_{m≠yᵢ} αᵢᵐ:
//
//	min_α ½Σₘ‖wₘ‖² − 2Σᵢ Σ_{m≠yᵢ} αᵢᵐ  s.t.  0 ≤ αᵢᵐ ≤ Cᵢ,
//
// reported in the maximisation form 2Σα − ½Σₘ‖wₘ‖². The gradient is
// gᵢᵐ = fᵢ^{yᵢ} − fᵢᵐ − 2 (fᵢᵐ = wₘ·φ(xᵢ)); a variable violates the KKT
// conditions by max(0, −g) at 0, max(0, g) at Cᵢ and |g| between, and the
// solver stops when the largest violation is at most eps. The row's
// sub-problem, in the steps δ of its variables with S = Σδ,
//
//	min ½Aᵢ(S² + Σₘδₘ²) + Σₘ gᵢᵐδₘ,  −αᵢᵐ ≤ δₘ ≤ Cᵢ − αᵢᵐ,  Aᵢ = K(xᵢ, xᵢ),
//
// is solved exactly: δₘ = clip(−gᵢᵐ/Aᵢ − S) for the S that makes
// S = Σδₘ, a strictly decreasing piecewise linear equation solved
// between its sorted breakpoints. A row is shrunk when each of its
// variables is at a bound and satisfies its KKT condition by more than
// the last sweep's largest violation.
type wwMethod struct {
	// bp holds the sub-problem's breakpoints (length 2K).
	bp []float64
}

func (wwMethod) coef(c, a []float64, y int) {
	var s float64
	for m, v := range a {
		if m != y {
			c[m] = -v
			s += v
		}
	}
	c[y] = s
}

func (wwMethod) linear(a []float64, y int) float64 {
	var s float64
	for m, v := range a {
		if m != y {
			s += v
		}
	}
	return 2 * s
}

func (wwMethod) violation(f, a []float64, y int, bound float64) float64 {
	var v float64
	for m := range f {
		if m == y {
			continue
		}
		g := f[y] - f[m] - 2
		switch {
		case a[m] <= 0:
			v = max(v, -g)
		case a[m] >= bound:
			v = max(v, g)
		default:
			v = max(v, g, -g)
		}
	}
	return v
}

func (wwMethod) shrinkable(f, a []float64, y int, bound, margin float64) bool {
	for m := range f {
		if m == y {
			continue
		}
		g := f[y] - f[m] - 2
		if !(a[m] <= 0 && g > margin) && !(a[m] >= bound && g < -margin) {
			return false
		}
	}
	return true
}

// wwClip returns the new value of a variable whose unclipped target, at
// step sum s, is t − s.
func wwClip(t, s, bound float64) float64 { return min(max(t-s, 0), bound) }

// wwExcess returns h(s) = Σₘ (clip(tₘ − s) − αₘ) − s, strictly decreasing.
func wwExcess(t, a []float64, y int, s, bound float64) float64 {
	h := -s
	for m := range t {
		if m != y {
			h += wwClip(t[m], s, bound) - a[m]
		}
	}
	return h
}

func (w wwMethod) solve(next, f, a []float64, y int, bound, kii float64) {
	t := next // targets αₘ − gₘ/A first, then the solution
	bp := w.bp[:0]
	for m := range f {
		if m == y {
			t[m] = 0
			continue
		}
		t[m] = a[m] - (f[y]-f[m]-2)/kii
		bp = append(bp, t[m]-bound, t[m])
	}
	slices.Sort(bp)
	s := wwRoot(t, a, y, bound, bp)
	for m := range t {
		if m != y {
			next[m] = wwClip(t[m], s, bound)
		}
	}
	next[y] = 0
}

// wwRoot returns the root of wwExcess: outside the breakpoints every
// variable is at one bound; between two it is linear.
func wwRoot(t, a []float64, y int, bound float64, bp []float64) float64 {
	lo, hi := bp[0], bp[len(bp)-1]
	hlo := wwExcess(t, a, y, lo, bound)
	if hlo <= 0 { // all at the upper bound up to lo
		var s float64
		for m := range t {
			if m != y {
				s += bound - a[m]
			}
		}
		return s
	}
	if wwExcess(t, a, y, hi, bound) >= 0 { // all at 0 from hi
		var s float64
		for m := range t {
			if m != y {
				s -= a[m]
			}
		}
		return s
	}
	for _, b := range bp[1:] {
		hb := wwExcess(t, a, y, b, bound)
		if hb <= 0 {
			return lo + hlo*(b-lo)/(hlo-hb)
		}
		lo, hlo = b, hb
	}
	return lo
}
