package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// MaxExactWilcoxon is the largest number of ranked differences for which
// Wilcoxon uses the exact null distribution (as scipy does).
const MaxExactWilcoxon = 50

// WilcoxonResult is the outcome of the Wilcoxon signed-ranks test.
type WilcoxonResult struct {
	N      int     // number of ranked differences (after dropping an odd zero)
	RPlus  float64 // sum of ranks of the differences a − b > 0, plus half of the zeros' ranks
	RMinus float64 // sum of ranks of the differences a − b < 0, plus half of the zeros' ranks
	T      float64 // min(RPlus, RMinus)
	Z      float64 // normal-approximation statistic (T − N(N+1)/4)/σ; 0 when Exact
	P      float64 // two-sided p-value
	Exact  bool    // whether P comes from the exact null distribution
}

// Wilcoxon runs the Wilcoxon signed-ranks test on the paired scores a and b
// (e.g. two learners on N data sets). Zero differences (pairs Tied) are
// handled as in
// Demšar (2006, section 3.1.3): their ranks are split evenly between R+ and
// R−, and if their number is odd one of them is dropped first. When every
// difference is zero (or there is no pair) there is nothing to test: a
// PreconditionError. Tied absolute
// differences share the average rank.
//
// The two-sided p-value is exact (2·P(W ≤ T) under the null, capped at 1)
// when N ≤ MaxExactWilcoxon and there are no zero and no tied differences;
// otherwise it uses the normal approximation with the tie correction
// σ² = N(N+1)(2N+1)/24 − Σ(t³ − t)/48 over groups of t tied |differences|
// (zeros included) and no continuity correction, which is scipy 1.10's
// wilcoxon(zero_method="zsplit", correction=False, mode="approx") whenever
// the number of zeros is even.
func Wilcoxon(a, b []float64) (WilcoxonResult, error) {
	if len(a) != len(b) {
		return WilcoxonResult{}, fmt.Errorf("wilcoxon: %d scores for a but %d for b", len(a), len(b))
	}
	var d []float64
	zeros := 0
	for i := range a {
		v := a[i] - b[i]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return WilcoxonResult{}, fmt.Errorf("wilcoxon: score pair %d (%v, %v) is not finite", i, a[i], b[i])
		}
		if Tied(a[i], b[i]) { // a zero difference, up to rounding
			zeros++
			if zeros%2 == 1 {
				continue // added back in pairs below
			}
			d = append(d, 0, 0)
			continue
		}
		d = append(d, v)
	}
	N := len(d)
	if zeros == len(a) { // no difference to rank, however many zeros are kept
		return WilcoxonResult{}, &PreconditionError{"wilcoxon", fmt.Sprintf("all %d differences zero", len(a))}
	}
	abs := make([]float64, N)
	for i, v := range d {
		abs[i] = math.Abs(v)
	}
	// Rank |d| ascending: Ranks with lower-is-better gives rank 1 to the smallest.
	r := Ranks(nil, abs, false)
	res := WilcoxonResult{N: N}
	for i, v := range d {
		switch {
		case v > 0:
			res.RPlus += r[i]
		case v < 0:
			res.RMinus += r[i]
		default:
			res.RPlus += r[i] / 2
			res.RMinus += r[i] / 2
		}
	}
	res.T = math.Min(res.RPlus, res.RMinus)

	// Tie groups of |d| (zeros included).
	counts := map[float64]int{}
	for _, v := range abs {
		counts[v]++
	}
	var tieSum float64
	for _, t := range counts {
		tf := float64(t)
		tieSum += tf*tf*tf - tf
	}
	if tieSum == 0 && zeros == 0 && N <= MaxExactWilcoxon {
		res.Exact = true
		res.P = math.Min(1, 2*signedRankCDF(int(res.T), N))
		return res, nil
	}
	nf := float64(N)
	sigma := math.Sqrt(nf*(nf+1)*(2*nf+1)/24 - tieSum/48)
	if sigma == 0 {
		res.P = 1
		return res, nil
	}
	res.Z = (res.T - nf*(nf+1)/4) / sigma
	res.P = math.Min(1, 2*distuv.UnitNormal.CDF(-math.Abs(res.Z)))
	return res, nil
}

// signedRankCDF returns P(W ≤ t) for the Wilcoxon signed-rank statistic W
// (the sum of a random subset of the ranks 1..n, each subset equally likely).
func signedRankCDF(t, n int) float64 {
	maxSum := n * (n + 1) / 2
	if t < 0 {
		return 0
	}
	if t >= maxSum {
		return 1
	}
	// ways[s] = number of subsets of {1..i} with sum s, as a probability.
	ways := make([]float64, maxSum+1)
	ways[0] = 1
	for i := 1; i <= n; i++ {
		for s := maxSum; s >= i; s-- {
			ways[s] += ways[s-i]
		}
	}
	var c float64
	for s := 0; s <= t; s++ {
		c += ways[s]
	}
	return c / math.Pow(2, float64(n))
}
