package stats

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// TieTolerance is the difference below which two scores tie, relative to
// the larger magnitude (absolute below 1): the mean of the same fold scores
// summed in another order can differ in its last bits (0.86 and
// 0.8600000000000001), which must not decide a rank or a sign.
const TieTolerance = 1e-12

// Tied reports whether scores a and b tie: |a − b| ≤ TieTolerance ·
// max(1, |a|, |b|).
func Tied(a, b float64) bool {
	return math.Abs(a-b) <= TieTolerance*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// Ranks ranks the scores of several methods on one data set, 1 being the
// best (the highest score when higherIsBetter, the lowest otherwise); tied
// scores (Tied with the best of their group, in sorted order) share the
// average of their ranks. It reuses dst when it has room.
func Ranks(dst, scores []float64, higherIsBetter bool) []float64 {
	n := len(scores)
	if cap(dst) < n {
		dst = make([]float64, n)
	}
	dst = dst[:n]
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	better := func(a, b int) int {
		if higherIsBetter {
			return cmp.Compare(scores[b], scores[a])
		}
		return cmp.Compare(scores[a], scores[b])
	}
	slices.SortStableFunc(idx, better)
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && Tied(scores[idx[hi]], scores[idx[lo]]) {
			hi++
		}
		r := float64(lo+1+hi) / 2
		for _, i := range idx[lo:hi] {
			dst[i] = r
		}
		lo = hi
	}
	return dst
}

// AverageRanks returns the mean over data sets (rows of scores) of each
// method's (column's) rank.
func AverageRanks(scores [][]float64, higherIsBetter bool) ([]float64, error) {
	if len(scores) == 0 || len(scores[0]) == 0 {
		return nil, fmt.Errorf("average ranks: empty score table")
	}
	k := len(scores[0])
	avg := make([]float64, k)
	r := make([]float64, k)
	for i, row := range scores {
		if len(row) != k {
			return nil, fmt.Errorf("average ranks: data set %d has %d scores, want %d", i, len(row), k)
		}
		for j, v := range row {
			if math.IsNaN(v) {
				return nil, fmt.Errorf("average ranks: score of method %d on data set %d is NaN", j, i)
			}
		}
		Ranks(r, row, higherIsBetter)
		for j, v := range r {
			avg[j] += v
		}
	}
	for j := range avg {
		avg[j] /= float64(len(scores))
	}
	return avg, nil
}

// FriedmanResult is the outcome of the Friedman test.
type FriedmanResult struct {
	N, K     int       // data sets and methods
	AvgRanks []float64 // average rank of each method (1 = best)
	ChiSq    float64   // Friedman's χ²_F
	PChiSq   float64   // p-value of χ²_F under χ² with K−1 degrees of freedom
	FF       float64   // Iman–Davenport F_F
	PFF      float64   // p-value of F_F under F(K−1, (K−1)(N−1))
}

// Friedman runs the Friedman test on scores (data sets × methods) as given
// by Demšar (2006, eqs. in section 3.2.2):
//
//	χ²_F = 12N/(k(k+1)) · (Σ_j R_j² − k(k+1)²/4),
//	F_F  = (N−1)χ²_F / (N(k−1) − χ²_F),
//
// with R_j the average ranks. Unlike scipy's friedmanchisquare it applies no
// correction for ties, as in the paper. When the ranks agree perfectly
// across data sets F_F is +Inf and its p-value 0.
func Friedman(scores [][]float64, higherIsBetter bool) (FriedmanResult, error) {
	avg, err := AverageRanks(scores, higherIsBetter)
	if err != nil {
		return FriedmanResult{}, fmt.Errorf("friedman: %w", err)
	}
	N, k := len(scores), len(avg)
	if N < 2 || k < 2 {
		return FriedmanResult{}, fmt.Errorf("friedman: need at least 2 data sets and 2 methods, have %d and %d", N, k)
	}
	nf, kf := float64(N), float64(k)
	var ss float64
	for _, r := range avg {
		ss += r * r
	}
	chi := 12 * nf / (kf * (kf + 1)) * (ss - kf*(kf+1)*(kf+1)/4)
	res := FriedmanResult{N: N, K: k, AvgRanks: avg, ChiSq: chi}
	res.PChiSq = distuv.ChiSquared{K: kf - 1}.Survival(chi)
	if den := nf*(kf-1) - chi; den > 0 {
		res.FF = (nf - 1) * chi / den
		res.PFF = distuv.F{D1: kf - 1, D2: (kf - 1) * (nf - 1)}.Survival(res.FF)
	} else {
		res.FF, res.PFF = math.Inf(1), 0
	}
	return res, nil
}
