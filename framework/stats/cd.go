package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"
)

// StudentizedRangeCDF returns P(Q ≤ q) for the range Q of k independent
// standard normal variables (the studentized range with infinite degrees of
// freedom):
//
//	P(Q ≤ q) = k ∫ φ(z) (Φ(z) − Φ(z − q))^(k−1) dz,
//
// integrated by 256-point Gauss–Legendre quadrature over [−12, 12+q].
func StudentizedRangeCDF(q float64, k int) float64 {
	if q <= 0 || k < 2 {
		return 0
	}
	n := distuv.UnitNormal
	f := func(z float64) float64 {
		return n.Prob(z) * math.Pow(n.CDF(z)-n.CDF(z-q), float64(k-1))
	}
	return float64(k) * quad.Fixed(f, -12, 12+q, 256, nil, 0)
}

// StudentizedRangeQuantile returns q with StudentizedRangeCDF(q, k) = p,
// found by bisection to about 1e-12.
func StudentizedRangeQuantile(p float64, k int) float64 {
	lo, hi := 0.0, 20.0
	for hi-lo > 1e-13 {
		mid := (lo + hi) / 2
		if StudentizedRangeCDF(mid, k) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// NemenyiQ returns Demšar's q_α for k methods: the 1−α quantile of the
// studentized range of k normals (infinite degrees of freedom) divided by
// √2. It reproduces Demšar's (2006) Table 5(a) to its three decimals.
func NemenyiQ(k int, alpha float64) float64 {
	return StudentizedRangeQuantile(1-alpha, k) / math.Sqrt2
}

// NemenyiCD returns the critical difference of the Nemenyi test for k
// methods on N data sets at level alpha: q_α·sqrt(k(k+1)/(6N)). Two methods
// differ significantly when their average ranks differ by at least CD.
func NemenyiCD(k, N int, alpha float64) (float64, error) {
	if err := checkCD(k, N, alpha); err != nil {
		return 0, fmt.Errorf("nemenyi: %w", err)
	}
	return NemenyiQ(k, alpha) * cdScale(k, N), nil
}

// BonferroniDunnCD returns the critical difference of the Bonferroni–Dunn
// test comparing one control with the k−1 other methods on N data sets:
// z_{1−α/(2(k−1))}·sqrt(k(k+1)/(6N)) (Demšar 2006, Table 5(b)).
func BonferroniDunnCD(k, N int, alpha float64) (float64, error) {
	if err := checkCD(k, N, alpha); err != nil {
		return 0, fmt.Errorf("bonferroni-dunn: %w", err)
	}
	q := distuv.UnitNormal.Quantile(1 - alpha/(2*float64(k-1)))
	return q * cdScale(k, N), nil
}

func cdScale(k, N int) float64 {
	return math.Sqrt(float64(k*(k+1)) / (6 * float64(N)))
}

func checkCD(k, N int, alpha float64) error {
	switch {
	case k < 2:
		return fmt.Errorf("need at least 2 methods, have %d", k)
	case N < 1:
		return fmt.Errorf("need at least 1 data set, have %d", N)
	case !(alpha > 0 && alpha < 1):
		return fmt.Errorf("alpha %v outside (0, 1)", alpha)
	}
	return nil
}
