package bayes

import (
	"errors"
	"fmt"
	"math"

	"github.com/polyclass/polyclass/plugins/internal/numpysum"
	"gonum.org/v1/gonum/mat"
)

// checkFit checks a fit's classes and weights for n rows.
func checkFit(n int, y []int, numClasses int, w []float64) error {
	switch {
	case n == 0:
		return errors.New("bayes: no training rows")
	case len(y) != n:
		return fmt.Errorf("bayes: %d classes for %d training rows", len(y), n)
	case w != nil && len(w) != n:
		return fmt.Errorf("bayes: %d weights for %d training rows", len(w), n)
	case numClasses < 1:
		return fmt.Errorf("bayes: %d classes", numClasses)
	}
	for i, c := range y {
		if c < 0 || c >= numClasses {
			return fmt.Errorf("bayes: class %d of training row %d is outside 0..%d", c, i, numClasses-1)
		}
	}
	for i, v := range w {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("bayes: weight %g of training row %d is not a finite non-negative number", v, i)
		}
	}
	return nil
}

// classRows returns the rows of each class, in row order.
func classRows(y []int, numClasses int) [][]int {
	out := make([][]int, numClasses)
	for i, c := range y {
		out[c] = append(out[c], i)
	}
	return out
}

// Probabilities sets dst to the class probabilities of the joint
// log-likelihoods jll (rows × K): exp(jll − logsumexp(jll)) per row, with
// scipy's logsumexp (the row's largest value subtracted, the exponentials
// summed pairwise). dst may be jll.
func Probabilities(dst, jll *mat.Dense) {
	n, K := jll.Dims()
	tmp := make([]float64, K)
	for i := range n {
		row := jll.RawRowView(i)
		amax := math.Inf(-1)
		for _, v := range row {
			amax = math.Max(amax, v)
		}
		if math.IsInf(amax, 0) || math.IsNaN(amax) {
			amax = 0
		}
		for c, v := range row {
			tmp[c] = math.Exp(v - amax)
		}
		lse := math.Log(numpysum.Pairwise(tmp)) + amax
		out := dst.RawRowView(i)
		for c, v := range row {
			out[c] = math.Exp(v - lse)
		}
	}
}

// Classes returns the class of largest joint log-likelihood of each row
// of jll, the first of several (np.argmax).
func Classes(jll *mat.Dense) []int {
	n, _ := jll.Dims()
	out := make([]int, n)
	for i := range out {
		row := jll.RawRowView(i)
		for c, v := range row {
			if v > row[out[i]] {
				out[i] = c
			}
		}
	}
	return out
}

// ErrNonFinite reports a fit whose parameters overflowed (features too
// large for their sums or squares): a NaN or infinite mean, variance or
// log probability would make every score of the model NaN, so the fit
// ends with this error.
var ErrNonFinite = errors.New("bayes: non-finite value")

// checkFinite returns an error wrapping ErrNonFinite naming the first NaN
// or infinite entry of m (what: the parameter, one row per class) in a
// row whose class has training weight (count[c] > 0), else nil.
func checkFinite(m *mat.Dense, count []float64, what string) error {
	r, c := m.Dims()
	for k := range r {
		if count[k] <= 0 {
			continue
		}
		for j := range c {
			if v := m.At(k, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: the %s of class %d, feature %d, is %v", ErrNonFinite, what, k, j, v)
			}
		}
	}
	return nil
}
