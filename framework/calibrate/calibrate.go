// Package calibrate maps a classifier's scores to probabilities fitted on
// held-out rows: Platt's sigmoid and isotonic regression, as
// scikit-learn's CalibratedClassifierCV does per class.
package calibrate

import (
	"math"
	"sort"
)

// Sigmoid is Platt's calibration P(y = 1 | f) = 1 / (1 + exp(A·f + B)).
type Sigmoid struct{ A, B float64 }

// FitSigmoid fits A and B by maximum likelihood with Platt's smoothed
// targets (N₊+1)/(N₊+2) and 1/(N₋+2), by Newton's method with a
// backtracking line search (Lin, Lin and Weng 2007, the algorithm behind
// LIBSVM and scikit-learn's sigmoid calibration), until both components
// of the gradient are below 1e-9.
func FitSigmoid(f []float64, y []bool) Sigmoid { return FitSigmoidTol(f, y, 1e-9) }

// LIBSVMTol is the gradient tolerance of LIBSVM's sigmoid_train: with it,
// FitSigmoidTol gives the A and B of svm-train -b 1.
const LIBSVMTol = 1e-5

// FitSigmoidTol is FitSigmoid stopping once both components of the
// gradient are below tol: the project's one Platt solver, behind the
// calibration of any learner's scores (FitSigmoid) and the kernel SVM's
// probabilities (LIBSVMTol).
func FitSigmoidTol(f []float64, y []bool, tol float64) Sigmoid {
	var pos, neg float64
	for _, v := range y {
		if v {
			pos++
		} else {
			neg++
		}
	}
	hi, lo := (pos+1)/(pos+2), 1/(neg+2)
	t := make([]float64, len(y))
	for i, v := range y {
		t[i] = lo
		if v {
			t[i] = hi
		}
	}
	loss := func(a, b float64) float64 {
		s := 0.0
		for i, x := range f {
			z := x*a + b
			if z >= 0 {
				s += t[i]*z + math.Log1p(math.Exp(-z))
			} else {
				s += (t[i]-1)*z + math.Log1p(math.Exp(z))
			}
		}
		return s
	}
	a, b := 0.0, math.Log((neg+1)/(pos+1))
	fval := loss(a, b)
	for iter := 0; iter < 100; iter++ {
		h11, h22, h21, g1, g2 := 1e-12, 1e-12, 0.0, 0.0, 0.0
		for i, x := range f {
			p := prob(x*a + b) // P(y = 1)
			d2 := p * (1 - p)
			h11 += x * x * d2
			h22 += d2
			h21 += x * d2
			d1 := t[i] - p
			g1 += x * d1
			g2 += d1
		}
		if math.Abs(g1) < tol && math.Abs(g2) < tol {
			break
		}
		det := h11*h22 - h21*h21
		da, db := -(h22*g1-h21*g2)/det, -(-h21*g1+h11*g2)/det
		gd := g1*da + g2*db
		step := 1.0
		for ; step >= 1e-10; step /= 2 {
			na, nb := a+step*da, b+step*db
			if nf := loss(na, nb); nf < fval+1e-4*step*gd {
				a, b, fval = na, nb, nf
				break
			}
		}
		if step < 1e-10 {
			break
		}
	}
	return Sigmoid{A: a, B: b}
}

// prob is 1 / (1 + exp(z)), computed without overflow.
func prob(z float64) float64 {
	if z >= 0 {
		e := math.Exp(-z)
		return e / (1 + e)
	}
	return 1 / (1 + math.Exp(z))
}

// Predict returns the calibrated probability of score f.
func (s Sigmoid) Predict(f float64) float64 { return prob(s.A*f + s.B) }

// Isotonic is a non-decreasing step-wise linear map from scores to
// probabilities, clipped to its end values outside the scores it was
// fitted on (scikit-learn's IsotonicRegression(out_of_bounds="clip")).
type Isotonic struct{ X, Y []float64 }

// FitIsotonic fits the non-decreasing least-squares fit of y (0/1) on f by
// pool-adjacent-violators; equal scores are pooled first.
func FitIsotonic(f []float64, y []bool) Isotonic {
	idx := make([]int, len(f))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return f[idx[a]] < f[idx[b]] })
	type block struct{ x, sum, w float64 }
	var blocks []block
	for _, i := range idx {
		v := 0.0
		if y[i] {
			v = 1
		}
		if n := len(blocks); n > 0 && blocks[n-1].x == f[i] {
			blocks[n-1].sum += v
			blocks[n-1].w++
			continue
		}
		blocks = append(blocks, block{x: f[i], sum: v, w: 1})
	}
	xs := make([]float64, len(blocks))
	for i, b := range blocks {
		xs[i] = b.x
	}
	// Pool adjacent violators over the unique scores.
	type pool struct {
		sum, w     float64
		start, end int
	}
	var pools []pool
	for i, b := range blocks {
		pools = append(pools, pool{sum: b.sum, w: b.w, start: i, end: i + 1})
		for n := len(pools); n > 1 && pools[n-2].sum/pools[n-2].w >= pools[n-1].sum/pools[n-1].w; n = len(pools) {
			last := pools[n-1]
			pools = pools[:n-1]
			pools[n-2].sum += last.sum
			pools[n-2].w += last.w
			pools[n-2].end = last.end
		}
	}
	ys := make([]float64, len(blocks))
	for _, p := range pools {
		for i := p.start; i < p.end; i++ {
			ys[i] = p.sum / p.w
		}
	}
	return Isotonic{X: xs, Y: ys}
}

// Predict returns the calibrated probability of score f: linear
// interpolation between the fitted points, clipped at the ends.
func (m Isotonic) Predict(f float64) float64 {
	n := len(m.X)
	switch {
	case n == 0:
		return 0.5
	case f <= m.X[0]:
		return m.Y[0]
	case f >= m.X[n-1]:
		return m.Y[n-1]
	}
	j := sort.SearchFloat64s(m.X, f) // m.X[j-1] < f <= m.X[j]
	x0, x1, y0, y1 := m.X[j-1], m.X[j], m.Y[j-1], m.Y[j]
	return y0 + (y1-y0)*(f-x0)/(x1-x0)
}
