package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/outcome"
)

// conventionCells are the golden cells with macro_f1 scores; svm_cs on
// iris set macro_f1 values by convention on three folds (4 values),
// logreg C=10 on wine&co on one; a count for a metric the tables do not
// show is left out, and the failed cell has none.
func conventionCells() []*outcome.CellResult {
	cells := goldenCells()
	for _, c := range cells {
		for i := range c.Folds {
			c.Folds[i].Metrics["macro_f1"] = c.Folds[i].Metrics["accuracy"] - 0.05
		}
	}
	cells[2].Folds[0].Warnings = map[string]int{"macro_f1": 1, "precision_macro": 1}
	cells[2].Folds[1].Warnings = map[string]int{"macro_f1": 1}
	cells[2].Folds[3].Warnings = map[string]int{"macro_f1": 2}
	cells[4].Folds[2].Warnings = map[string]int{"macro_f1": 1}
	return cells
}

// TestGoldenConventions: the conventions view (conventions.go) in every
// format: in the Markdown and HTML reports after the code matrices, in
// LaTeX a float, in JSON the field "conventions"; a report whose folds set
// no value by convention has no such section.
func TestGoldenConventions(t *testing.T) {
	cells := conventionCells()
	tables := BuildTables(Spec{Experiment: "conventions", Metrics: []string{"accuracy", "macro_f1"}, Baseline: "logreg C=1"}, cells)
	for _, tc := range []struct {
		file string
		fn   func(*bytes.Buffer) error
	}{
		{"golden_conventions.md", func(b *bytes.Buffer) error { return WriteMarkdown(b, tables, cells) }},
		{"golden_conventions.html", func(b *bytes.Buffer) error { return WriteHTML(b, HTMLReport{Tables: tables, Cells: cells}) }},
		{"golden_conventions.tex", func(b *bytes.Buffer) error { return WriteLaTeX(b, tables) }},
		{"golden_conventions.json", func(b *bytes.Buffer) error { return WriteJSON(b, tables) }},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.fn(&b); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.file, b.Bytes())
		})
	}
	got := conventionRows(tables, cells)
	want := []conventionRow{{"macro_f1", "iris", "svm_cs", 3, 5, 4}, {"macro_f1", "wine&co", "logreg C=10", 1, 5, 1}}
	if len(got) != len(want) {
		t.Fatalf("rows %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	var b bytes.Buffer
	plain := goldenCells()
	if err := WriteMarkdown(&b, BuildTables(Spec{Experiment: "plain", Metrics: []string{"accuracy"}}, plain), plain); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "convention") {
		t.Errorf("a report without conventions has the section:\n%s", b.String())
	}
}
