package stats

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// CorrectedTTest is Nadeau & Bengio's (2003) corrected resampled t-test on
// paired per-fold scores a and b of two learners evaluated on the same J
// train/test splits of nTrain and nTest rows. With d = a − b,
//
//	t = mean(d) / sqrt((1/J + nTest/nTrain) · var(d)),
//
// var with J − 1 in the denominator, and p is the two-sided p-value of t
// under Student's t with J − 1 degrees of freedom. Fewer than MinFolds
// splits, or differences that are all equal (zero variance: t would be
// 0/0 or ±Inf), are a PreconditionError.
func CorrectedTTest(a, b []float64, nTrain, nTest int) (t, p float64, err error) {
	J := len(a)
	switch {
	case len(b) != J:
		return 0, 0, fmt.Errorf("corrected t-test: %d scores for a but %d for b", J, len(b))
	case J < MinFolds:
		return 0, 0, CheckFolds("corrected t-test", J)
	case nTrain < 1 || nTest < 1:
		return 0, 0, fmt.Errorf("corrected t-test: training (%d) and test (%d) sizes must be positive", nTrain, nTest)
	}
	d := make([]float64, J)
	for i := range d {
		d[i] = a[i] - b[i]
		if math.IsNaN(d[i]) || math.IsInf(d[i], 0) {
			return 0, 0, fmt.Errorf("corrected t-test: score pair %d (%v, %v) is not finite", i, a[i], b[i])
		}
	}
	if err := checkSpread("corrected t-test", d); err != nil {
		return 0, 0, err
	}
	mean, variance := stat.MeanVariance(d, nil)
	v := (1/float64(J) + float64(nTest)/float64(nTrain)) * variance
	t = mean / math.Sqrt(v)
	p = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(J - 1)}.CDF(-math.Abs(t))
	return t, p, nil
}

// CorrectedInterval returns the mean of the paired differences d = a − b
// of two learners' fold scores and its two-sided confidence interval at
// level (e.g. 0.95) by Nadeau & Bengio's (2003) corrected resampled
// t-test: mean(d) ± t_{(1+level)/2, J−1} · sqrt((1/J + nTest/nTrain) ·
// var(d)). It is the effect size that goes with CorrectedTTest: the
// interval excludes 0 exactly when that test's p-value is below 1 − level.
// Where CorrectedTTest has no test (a PreconditionError) there is no
// interval.
func CorrectedInterval(a, b []float64, nTrain, nTest int, level float64) (mean, lo, hi float64, err error) {
	if !(level > 0 && level < 1) {
		return 0, 0, 0, fmt.Errorf("corrected interval: level %v outside (0, 1)", level)
	}
	if _, _, err := CorrectedTTest(a, b, nTrain, nTest); err != nil {
		return 0, 0, 0, fmt.Errorf("corrected interval: %w", err)
	}
	J := len(a)
	d := make([]float64, J)
	for i := range d {
		d[i] = a[i] - b[i]
	}
	mean, variance := stat.MeanVariance(d, nil)
	se := math.Sqrt((1/float64(J) + float64(nTest)/float64(nTrain)) * variance)
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(J - 1)}.Quantile((1 + level) / 2)
	return mean, mean - q*se, mean + q*se, nil
}

// Verdict is the outcome of comparing learner A with learner B.
type Verdict int

const (
	// Tie means the difference is not significant.
	Tie Verdict = iota
	// Win means A is significantly better than B.
	Win
	// Loss means A is significantly worse than B.
	Loss
)

// String returns "tie", "win" or "loss".
func (v Verdict) String() string {
	switch v {
	case Tie:
		return "tie"
	case Win:
		return "win"
	case Loss:
		return "loss"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// Decide turns a test's mean difference A − B and p-value into a verdict at
// level alpha: Win or Loss when p < alpha, depending on the sign of the
// difference and on whether higher scores are better; Tie otherwise.
func Decide(meanDiff, p, alpha float64, higherIsBetter bool) Verdict {
	if !(p < alpha) || meanDiff == 0 {
		return Tie
	}
	if (meanDiff > 0) == higherIsBetter {
		return Win
	}
	return Loss
}

// CompareCorrected runs CorrectedTTest on a and b and returns the verdict for
// a against b at level alpha, together with t and p.
func CompareCorrected(a, b []float64, nTrain, nTest int, alpha float64, higherIsBetter bool) (v Verdict, t, p float64, err error) {
	if !(alpha > 0 && alpha < 1) {
		return Tie, 0, 0, errors.New("corrected t-test: alpha must lie in (0, 1)")
	}
	t, p, err = CorrectedTTest(a, b, nTrain, nTest)
	if err != nil {
		return Tie, 0, 0, err
	}
	return Decide(t, p, alpha, higherIsBetter), t, p, nil
}
