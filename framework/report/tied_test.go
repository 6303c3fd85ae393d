package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/outcome"
)

// tiedCells: logreg C=1e308 on iris gave a constant model on 2 of its 3
// folds (every test row decided by the tie-breaking rule, ties = n_test,
// accuracy 1/3) beside an ordinary logreg C=1; on wine both are ordinary.
func tiedCells() []*outcome.CellResult {
	cells := []*outcome.CellResult{
		mkCell("iris", "logreg", "C=1", "ova", 100, 50, withErr([]float64{0.96, 0.94, 0.98})),
		mkCell("iris", "logreg", "C=1e308", "ova", 100, 50, withErr([]float64{1.0 / 3, 1.0 / 3, 0.9})),
		mkCell("wine", "logreg", "C=1", "ova", 100, 50, withErr([]float64{0.9, 0.92, 0.94})),
		mkCell("wine", "logreg", "C=1e308", "ova", 100, 50, withErr([]float64{0.88, 0.9, 0.92})),
	}
	cells[1].Folds[0].Ties, cells[1].Folds[1].Ties = 50, 50
	cells[1].Folds[2].Ties = 3 // some ties, not all: not flagged
	return cells
}

// TestGoldenTied is issue 55's case 11 in the tables: a cell with folds
// whose scores were all tied (a constant model) is flagged with ‡ in
// every format and explained under each table, naming the row, the
// dataset and the folds; the JSON entry carries tied_folds. The cells
// without such folds are not flagged (the other goldens are unchanged).
func TestGoldenTied(t *testing.T) {
	cells := tiedCells()
	tables := BuildTables(Spec{Experiment: "tied", Metrics: []string{"accuracy"}}, cells)
	if got := tables.Metrics[0].Entries[1][0].TiedFolds; got != 2 {
		t.Errorf("logreg C=1e308 on iris: %d tied folds, want 2", got)
	}
	for _, tc := range []struct {
		file  string
		write func(*bytes.Buffer) error
		want  []string
		mark  string // the flag; once in the table, once in the footnote
	}{
		{"golden_tied.md", func(b *bytes.Buffer) error { return WriteMarkdown(b, tables, cells) }, []string{
			"| logreg C=1e308 | 0.5222 ± 0.3272 ‡ |",
			"‡: the class scores were all tied on every test row of some folds, each prediction made by the tie-breaking rule: a constant model, whose accuracy says nothing of the learner (logreg C=1e308 on iris: 2 of 3 folds).",
		}, "‡"},
		{"golden_tied.tex", func(b *bytes.Buffer) error { return WriteLaTeX(b, tables) }, []string{
			`0.5222 $\pm$ 0.3272\,$^\ddagger$`, `$^\ddagger$: the class scores were all tied`,
		}, `$^\ddagger$`},
		{"golden_tied.html", func(b *bytes.Buffer) error { return WriteHTML(b, HTMLReport{Tables: tables, Cells: cells}) }, []string{
			"0.5222 ± 0.3272<sup>‡</sup></td>", "<sup>‡</sup>: the class scores were all tied",
		}, "<sup>‡</sup>"},
		{"golden_tied.json", func(b *bytes.Buffer) error { return WriteJSON(b, tables) }, []string{`"tied_folds": 2`}, `"tied_folds"`},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.write(&b); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("lacks %q", w)
				}
			}
			want := 2
			if strings.HasSuffix(tc.file, ".json") {
				want = 1
			}
			if n := strings.Count(out, tc.mark); n != want {
				t.Errorf("%d × %q, want %d (one entry flagged)", n, tc.mark, want)
			}
			golden(t, tc.file, b.Bytes())
		})
	}
}
