package report

import (
	"math"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/outcome"
)

// TestCompareFoldsAndMetrics: the differences inside a cell both runs
// have, one case each: a fold only in one run, a metric only in one fold,
// NaN equal to NaN, and nil metric names comparing every metric either
// fold recorded (a given list only those).
func TestCompareFoldsAndMetrics(t *testing.T) {
	id := outcome.ID{Dataset: "iris", Encoder: "std", Learner: "svm", Reduction: "ova"}
	cell := func(folds ...outcome.FoldResult) []*outcome.CellResult {
		return []*outcome.CellResult{{ID: id, Folds: folds}}
	}
	fold := func(f int, metrics map[string]float64) outcome.FoldResult {
		return outcome.FoldResult{Fold: f, Metrics: metrics}
	}
	nan := math.NaN()
	tests := []struct {
		name  string
		a, b  []*outcome.CellResult
		names []string
		want  []string
	}{
		{"fold missing and added", cell(fold(0, nil), fold(1, nil)), cell(fold(1, nil), fold(2, nil)), nil, []string{
			"iris|std|svm||ova repeat 0 fold 0: missing",
			"iris|std|svm||ova repeat 0 fold 2: added",
		}},
		{"metric missing and added, every metric", cell(fold(0, map[string]float64{"accuracy": 1, "macro_f1": 0.5})),
			cell(fold(0, map[string]float64{"accuracy": 0.5, "log_loss": nan})), nil, []string{
				"iris|std|svm||ova repeat 0 fold 0 accuracy: 1 → 0.5 (Δ -0.5)",
				"iris|std|svm||ova repeat 0 fold 0 log_loss: added",
				"iris|std|svm||ova repeat 0 fold 0 macro_f1: missing",
			}},
		{"only the metrics named", cell(fold(0, map[string]float64{"accuracy": 1, "macro_f1": 0.5})),
			cell(fold(0, map[string]float64{"accuracy": 0.5})), []string{"macro_f1", "brier"}, []string{
				"iris|std|svm||ova repeat 0 fold 0 macro_f1: missing",
			}},
		{"NaN equals NaN", cell(fold(0, map[string]float64{"log_loss": nan})), cell(fold(0, map[string]float64{"log_loss": nan})), nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range Compare(tt.a, tt.b, tt.names) {
				got = append(got, d.String())
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("differences:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
