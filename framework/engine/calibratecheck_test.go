package engine

import (
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/sdk"
)

// TestCalibrationFoldsWarning: a class with fewer rows in an outer
// training part than the 5 inner folds of calibrate is warned about at
// calibrate, with the class, its rows and the fold (campaign case C01:
// iris and 3 rows of "rare" in 3 folds ran without a word, each training
// part holding 2 of them); 5 rows in every training part, or a reduction
// that does not calibrate, get no warning. 30 rows of "common" and n of
// "rare", fold i%3 for each class's i-th row: "rare" has n minus its rows
// in the test part, n/3 rounded up in fold 0.
func TestCalibrationFoldsWarning(t *testing.T) {
	for _, tc := range []struct {
		name      string
		rare      int
		calibrate string
		want      []string
	}{
		{"3 rare rows (C01)", 3, "platt", []string{`warning: Class smaller than the number of calibration folds: Reduction "ova": on dataset "d" the class "rare" has 2 row(s) in the training part of fold 0, fewer than the 5 inner folds of calibrate = "platt", so some of them have none of it to calibrate its probability on (scikit-learn's CalibratedClassifierCV(cv=5) refuses the same).`}},
		{"7 rare rows: 4 in fold 0's training part", 7, "isotonic", []string{`warning: Class smaller than the number of calibration folds: Reduction "ova": on dataset "d" the class "rare" has 4 row(s) in the training part of fold 0, fewer than the 5 inner folds of calibrate = "isotonic", so some of them have none of it to calibrate its probability on (scikit-learn's CalibratedClassifierCV(cv=5) refuses the same).`}},
		{"8 rare rows: 5 in every training part", 8, "platt", nil},
		{"3 rare rows, no calibration", 3, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &Dataset{Config: &config.Dataset{Name: "d"}, Classes: []string{"common", "rare"}, NumFolds: 3, Folds: [][]int{nil}}
			for c, n := range []int{30, tc.rare} {
				for i := range n {
					d.Labels = append(d.Labels, c)
					d.Folds[0] = append(d.Folds[0], i%3)
				}
			}
			red := &Reduction{Config: &config.Reduction{Name: "ova", Calibrate: tc.calibrate, CalibrateRange: at(7)}, Scheme: sdk.Scheme{Name: "ova"}}
			exp := &config.Experiment{Metrics: []string{"accuracy"}, MetricRanges: []hcl.Range{at(1)}, MetricsRange: at(1), CV: config.CV{Stratified: true}}
			g := &Grid{Experiment: exp, Metrics: exp.Metrics, Datasets: []*Dataset{d}, Reductions: []*Reduction{red}}
			if got := tuneDiags(g); !slices.Equal(got, tc.want) {
				t.Errorf("diagnostics\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}
