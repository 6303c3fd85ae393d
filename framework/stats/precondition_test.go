package stats

import (
	"errors"
	"testing"
)

// TestPreconditions: every test refuses data that do not meet a
// precondition with a PreconditionError whose reason a table cell can
// show: fewer than MinFolds splits, fewer than MinDatasets data sets,
// differences of zero variance (t-tests), differences all zero (rank
// tests).
func TestPreconditions(t *testing.T) {
	x3 := []float64{0.80, 0.70, 0.90}
	y3 := []float64{0.82, 0.71, 0.93}
	flat := []float64{0.81, 0.71, 0.91} // x3 + 0.01 everywhere
	alpha := func(n int) []float64 {
		a := []float64{DefaultSignedRankPrior}
		for range n {
			a = append(a, 1)
		}
		return a
	}
	signedRank := func(x, y []float64) error {
		_, err := BayesSignedRank(x, y, 0.01, DefaultSignedRankPrior, 100, NewDirichletSource(alpha(len(x)), 1))
		return err
	}
	correlated := func(x, y []float64) error {
		_, err := BayesCorrelatedTTest(x, y, 90, 10, 0.01)
		return err
	}
	corrected := func(x, y []float64) error {
		_, _, err := CorrectedTTest(x, y, 90, 10)
		return err
	}
	wilcoxon := func(x, y []float64) error {
		_, err := Wilcoxon(x, y)
		return err
	}
	for _, tc := range []struct {
		name string
		run  func(x, y []float64) error
		x, y []float64
		want string
	}{
		{"signed-rank on 2 datasets", signedRank, x3[:2], y3[:2], "signed-rank test: 2 datasets (needs at least 3)"},
		{"signed-rank on 1 dataset", signedRank, x3[:1], y3[:1], "signed-rank test: 1 dataset (needs at least 3)"},
		{"signed-rank, identical rows", signedRank, x3, x3, "signed-rank test: all 3 differences zero"},
		{"correlated t-test on 1 split", correlated, x3[:1], y3[:1], "correlated t-test: 1 split (needs at least 2)"},
		{"correlated t-test, zero variance", correlated, x3, flat, "correlated t-test: zero variance (all 3 differences equal)"},
		{"corrected t-test on 1 split", corrected, x3[:1], y3[:1], "corrected t-test: 1 split (needs at least 2)"},
		{"corrected t-test, zero variance", corrected, x3, flat, "corrected t-test: zero variance (all 3 differences equal)"},
		{"wilcoxon, no difference", wilcoxon, x3, x3, "wilcoxon: all 3 differences zero"},
	} {
		err := tc.run(tc.x, tc.y)
		var pe *PreconditionError
		if err == nil || err.Error() != tc.want || !errors.As(err, &pe) {
			t.Errorf("%s: error %v, want the PreconditionError %q", tc.name, err, tc.want)
			continue
		}
		if why, ok := Unmet(err); !ok || tc.want != pe.Test+": "+why {
			t.Errorf("%s: Unmet gives %q, %v", tc.name, why, ok)
		}
	}
	// Data that meet the preconditions run; a constant difference is no
	// obstacle to the rank tests (the signed-rank test's prior
	// pseudo-observation at zero spreads its posterior).
	for name, err := range map[string]error{"signed-rank": signedRank(x3, y3), "signed-rank, constant difference": signedRank(x3, flat),
		"wilcoxon, constant difference": wilcoxon(x3, flat), "correlated": correlated(x3, y3), "corrected": corrected(x3, y3), "wilcoxon": wilcoxon(x3, y3)} {
		if err != nil {
			t.Errorf("%s on good data: %v", name, err)
		}
	}
	if _, ok := Unmet(errors.New("other")); ok {
		t.Error("Unmet took a plain error for a precondition")
	}
}
