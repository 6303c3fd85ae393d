// Package testscores makes the learner scores the reducers' tests and
// benchmarks decode: seeded, reproducible, with the special values that
// decide ties.
package testscores

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// New returns n × L scores of a kind: "normal" (Gaussian decision values,
// standard deviation 2), "ties" (drawn from −1, −0.5, −0, +0, 0.5 and 1, so
// that distances, votes and confidences tie) or "inf" (Gaussian with about
// one value in 500 ±∞). None is NaN. The same seed gives the same scores.
func New(kind string, n, L int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 7))
	s := mat.NewDense(n, L, nil)
	few := []float64{-1, -0.5, math.Copysign(0, -1), 0, 0.5, 1}
	for i := 0; i < n; i++ {
		row := s.RawRowView(i)
		for j := range row {
			switch kind {
			case "ties":
				row[j] = few[rng.IntN(len(few))]
			case "inf":
				row[j] = 2 * rng.NormFloat64()
				if rng.IntN(500) == 0 {
					row[j] = math.Inf(1 - 2*rng.IntN(2))
				}
			default:
				row[j] = 2 * rng.NormFloat64()
			}
		}
	}
	return s
}

// SameBits reports whether a and b hold the same values bit for bit
// (math.Float64bits: −0 differs from +0, NaN payloads count) and, when
// they do not, the first index where they differ (−1 for different
// lengths).
func SameBits(a, b []float64) (int, bool) {
	if len(a) != len(b) {
		return -1, false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i, false
		}
	}
	return 0, true
}
