package stats

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// MinFriedmanDatasets is the smallest number of data sets on which the
// Friedman test is run. With N = 2 the statistic takes so few values that
// its χ² and F approximations mean nothing (N = 2, k = 2 gives F_F = ∞
// whenever one method wins twice); autorank and scmamp refuse it as well.
const MinFriedmanDatasets = 3

// Holm applies Holm's (1979) step-down procedure to the p-values p of m
// hypotheses at family-wise level alpha. It returns the Holm-adjusted
// p-values, max over j ≤ i of min(1, (m−j+1)·p_(j)) in ascending order of p,
// given back in the order of p, and which hypotheses are rejected: those
// whose adjusted p-value is below alpha. Equivalently, the sorted p_(i) are
// compared with alpha/(m−i+1) and the procedure stops at the first one
// that is not below its bound (Demšar 2006, section 3.2.2).
func Holm(p []float64, alpha float64) (adjusted []float64, reject []bool) {
	m := len(p)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(p[a], p[b]) })
	adjusted = make([]float64, m)
	reject = make([]bool, m)
	running := 0.0
	for i, j := range order {
		running = math.Max(running, math.Min(1, float64(m-i)*p[j]))
		adjusted[j] = running
		reject[j] = running < alpha
	}
	return adjusted, reject
}

// ControlComparison is one method compared with the control after the
// Friedman test, by the z statistic of Demšar (2006, section 3.2.2).
type ControlComparison struct {
	// Method is the method's index.
	Method int
	// RankDiff is R_method − R_control: negative when the method ranks
	// better than the control (rank 1 is best).
	RankDiff float64
	// Z is RankDiff / sqrt(k(k+1)/(6N)); P its two-sided normal p-value.
	Z, P float64
	// HolmP is P adjusted by Holm's procedure over the k−1 comparisons;
	// Holm tells whether Holm's procedure rejects equality at level alpha.
	HolmP float64
	Holm  bool
	// BonferroniDunn tells whether |RankDiff| is at least the
	// Bonferroni–Dunn critical difference.
	BonferroniDunn bool
}

// ControlResult holds the post-hoc tests of every method against one
// control.
type ControlResult struct {
	Control int
	// CD is the Bonferroni–Dunn critical difference at level alpha.
	CD float64
	// Comparisons lists the other methods in ascending order of P (the
	// order in which Holm's procedure tests them), ties in index order.
	Comparisons []ControlComparison
}

// CompareWithControl runs the post-hoc tests of Demšar (2006, section
// 3.2.2) of every method against the control, given the methods' average
// ranks over N data sets (1 = best): z = (R_i − R_c)/sqrt(k(k+1)/(6N)) with
// Holm's step-down procedure, and the Bonferroni–Dunn critical difference.
func CompareWithControl(avgRanks []float64, control, N int, alpha float64) (ControlResult, error) {
	k := len(avgRanks)
	if control < 0 || control >= k {
		return ControlResult{}, fmt.Errorf("control: method %d outside the %d methods", control, k)
	}
	cd, err := BonferroniDunnCD(k, N, alpha)
	if err != nil {
		return ControlResult{}, fmt.Errorf("control: %w", err)
	}
	se := cdScale(k, N)
	res := ControlResult{Control: control, CD: cd}
	var ps []float64
	for i, r := range avgRanks {
		if i == control {
			continue
		}
		d := r - avgRanks[control]
		z := d / se
		p := 2 * distuv.UnitNormal.Survival(math.Abs(z))
		res.Comparisons = append(res.Comparisons, ControlComparison{Method: i, RankDiff: d, Z: z, P: p,
			BonferroniDunn: math.Abs(d) >= cd})
		ps = append(ps, p)
	}
	adj, rej := Holm(ps, alpha)
	for i := range res.Comparisons {
		res.Comparisons[i].HolmP, res.Comparisons[i].Holm = adj[i], rej[i]
	}
	slices.SortStableFunc(res.Comparisons, func(a, b ControlComparison) int { return cmp.Compare(a.P, b.P) })
	return res, nil
}

// WilcoxonMinP returns the smallest two-sided p-value the exact Wilcoxon
// signed-ranks test can give on n differences, 2/2^n: below about six
// data sets no result can be significant at 0.05.
func WilcoxonMinP(n int) float64 {
	return math.Min(1, math.Ldexp(1, 1-n))
}
