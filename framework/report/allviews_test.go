package report

import (
	"bytes"
	"testing"

	"github.com/polyclass/polyclass/framework/outcome"
)

// allViewsCells are the golden cells with a grid-tuned cell choosing the
// highest C in every fold (selected parameters and a tuning edge), a
// halving and a random search (tuning searches) in another pipeline.
func allViewsCells() []*outcome.CellResult {
	random := &outcome.CellResult{ID: outcome.ID{Dataset: "iris", Encoder: "std", Learner: "svm", Params: "C=loguniform(0.001, 1000) (tuned)", Reduction: "ova"},
		TuneMetric: "accuracy", TuneCandidates: []string{"C=0.5", "C=3", "C=40", "C=700"}, TuneStrategy: "random", TuneFolds: 5,
		Folds: []outcome.FoldResult{{Chosen: "C=3", TuneRows: 100, TuneScores: []float64{0.9, 0.95, 0.93, 0.91}, Metrics: map[string]float64{"accuracy": 0.9}},
			{Fold: 1, Chosen: "C=40", TuneRows: 100, TuneScores: []float64{0.9, 0.92, 0.93, 0.91}, Metrics: map[string]float64{"accuracy": 0.8}}}}
	edge := tunedCell([]string{"C=0.01", "C=0.1", "C=1", "C=10", "C=100"}, repeat("C=100", 4))
	edge.Dataset, edge.Encoder = "iris", "default"
	return append(goldenCells(), halvingCell(), random, edge)
}

// TestGoldenAllViews renders a report with every view (warnings, the
// comparison tables with the Bayesian ones, set-up rows, selected
// parameters, a tuning edge, tuning searches, code matrices, per-class
// and threshold views, computed by) in every format, so that moving the
// views between files keeps their bytes.
func TestGoldenAllViews(t *testing.T) {
	cells := allViewsCells()
	s := goldenSetup()
	s.Rows = goldenRows()
	rope := 0.01
	spec := Spec{Experiment: "views", Metrics: []string{"accuracy"}, Baseline: "LR C=1", Rope: &rope, Seed: 7, Setup: s}
	tables := BuildTables(spec, cells)
	tables.Partial = "9 of 10 cells"
	tables.Warnings = []string{"a.hcl:3:5: dataset \"iris\": a warning\nover two lines"}
	tables.ComputedBy = []string{"bench (devel) 3f2a9c1d0e4b: 9 cells"}
	for _, tc := range []struct {
		file string
		fn   func(*bytes.Buffer) error
	}{
		{"golden_views.md", func(b *bytes.Buffer) error { return WriteMarkdown(b, tables, cells) }},
		{"golden_views.tex", func(b *bytes.Buffer) error { return WriteLaTeX(b, tables) }},
		{"golden_views.json", func(b *bytes.Buffer) error { return WriteJSON(b, tables) }},
		{"golden_views.html", func(b *bytes.Buffer) error {
			return WriteHTML(b, HTMLReport{Tables: tables, Cells: cells, Setup: s})
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.fn(&b); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.file, b.Bytes())
		})
	}
}
