package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/outcome"
)

// notConvergedCells: logreg max_iter=1 one-vs-all on iris stopped at its
// iteration bound on all 3 fits of 2 of its 3 folds (the third recorded
// nothing: every fit converged) beside logreg max_iter=1000, whose fits
// all converged; on wine both converged.
func notConvergedCells() []*outcome.CellResult {
	cells := []*outcome.CellResult{
		mkCell("iris", "logreg", "max_iter=1000", "ova", 100, 50, withErr([]float64{0.96, 0.94, 0.98})),
		mkCell("iris", "logreg", "max_iter=1", "ova", 100, 50, withErr([]float64{0.8, 0.82, 0.84})),
		mkCell("wine", "logreg", "max_iter=1000", "ova", 100, 50, withErr([]float64{0.9, 0.92, 0.94})),
		mkCell("wine", "logreg", "max_iter=1", "ova", 100, 50, withErr([]float64{0.88, 0.9, 0.92})),
	}
	for i := range 2 {
		cells[1].Folds[i].NotConverged, cells[1].Folds[i].Fits = 3, 3
	}
	return cells
}

// TestGoldenNotConverged is issue 55's point 4 for fits that did not
// converge: the entry is flagged with § in every format and explained
// under each table, naming the row, the dataset, the fits and the folds;
// the JSON entry carries not_converged. The entries whose fits all
// converged are not flagged (the other goldens are unchanged).
func TestGoldenNotConverged(t *testing.T) {
	cells := notConvergedCells()
	tables := BuildTables(Spec{Experiment: "notconverged", Metrics: []string{"accuracy"}}, cells)
	e := tables.Metrics[0].Entries[1][0]
	if e.NotConverged != 6 || e.Fits != 6 || e.NotConvergedFolds != 2 {
		t.Errorf("logreg max_iter=1 on iris: %d of %d fits on %d folds did not converge, want 6 of 6 on 2", e.NotConverged, e.Fits, e.NotConvergedFolds)
	}
	note := "the learner's fits did not converge on some of the binary or multiclass problems of some folds, each stopping at its iteration bound (max_iter, say) before its stopping rule was met, its model the last iterate, or meeting it on a degenerate kernel matrix (a kernel svm whose off-diagonal kernel values on the training rows are all alike: rbf with a gamma far too large for the data's scale, a saturated sigmoid), its model a constant (logreg max_iter=1 on iris: 6 of 6 fits on 2 of 3 folds)."
	for _, tc := range []struct {
		file  string
		write func(*bytes.Buffer) error
		want  []string
		mark  string // the flag; once in the table, once in the footnote
	}{
		{"golden_notconverged.md", func(b *bytes.Buffer) error { return WriteMarkdown(b, tables, cells) }, []string{
			"| logreg max_iter=1 | 0.8200 ± 0.0200 § |", "§: " + note,
		}, "§"},
		{"golden_notconverged.tex", func(b *bytes.Buffer) error { return WriteLaTeX(b, tables) }, []string{
			`0.8200 $\pm$ 0.0200\,$^\S$`, `$^\S$: ` + strings.ReplaceAll(note, "max_iter", `max\_iter`),
		}, `$^\S$`},
		{"golden_notconverged.html", func(b *bytes.Buffer) error { return WriteHTML(b, HTMLReport{Tables: tables, Cells: cells}) }, []string{
			"0.8200 ± 0.0200<sup>§</sup></td>", "<sup>§</sup>: " + note,
		}, "<sup>§</sup>"},
		{"golden_notconverged.json", func(b *bytes.Buffer) error { return WriteJSON(b, tables) }, []string{
			"\"not_converged\": {\n                \"fits\": 6,\n                \"of\": 6,\n                \"folds\": 2\n              }",
		}, `"not_converged"`},
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
