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

// TestOneClassFlagged: a cell whose folds predicted one class for every
// test row of two classes (scores not tied: an rbf kernel whose values
// are all 0 between distinct rows, say) is flagged with the double
// dagger of a constant model and named under the table, in every format;
// the JSON entry carries one_class_folds. A fold whose scores were all
// tied counts as tied, not again as one class.
func TestOneClassFlagged(t *testing.T) {
	cells := tiedCells()
	c := cells[3] // logreg C=1e308 on wine
	c.Folds[0].Confusion = outcome.Confusion{{0, 25}, {0, 25}}
	c.Folds[1].Confusion = outcome.Confusion{{0, 25}, {0, 25}}
	c.Folds[2].Confusion = outcome.Confusion{{20, 5}, {0, 25}}
	cells[1].Folds[0].Confusion = outcome.Confusion{{25, 0}, {25, 0}} // tied as well
	tables := BuildTables(Spec{Experiment: "oneclass", Metrics: []string{"accuracy"}}, cells)
	iris, wine := tables.Metrics[0].Entries[1][0], tables.Metrics[0].Entries[1][1]
	if iris.TiedFolds != 2 || iris.OneClassFolds != 0 || wine.TiedFolds != 0 || wine.OneClassFolds != 2 {
		t.Fatalf("iris tied %d, one class %d; wine tied %d, one class %d; want 2, 0, 0, 2",
			iris.TiedFolds, iris.OneClassFolds, wine.TiedFolds, wine.OneClassFolds)
	}
	for _, tc := range []struct {
		name  string
		write func(*bytes.Buffer) error
		want  []string
	}{
		{"markdown", func(b *bytes.Buffer) error { return WriteMarkdown(b, tables, cells) }, []string{
			"| logreg C=1e308 | 0.5222 ± 0.3272 ‡ | 0.9000 ± 0.0200 ‡ |",
			"‡: one class was predicted for every test row of some folds whose test rows hold several classes: a constant model (features on a scale the learner's arithmetic cannot resolve, a kernel far too narrow, say), whose accuracy says nothing of the learner (logreg C=1e308 on wine: 2 of 3 folds).",
		}},
		{"latex", func(b *bytes.Buffer) error { return WriteLaTeX(b, tables) }, []string{
			`0.9000 $\pm$ 0.0200\,$^\ddagger$`, `$^\ddagger$: one class was predicted for every test row`,
		}},
		{"html", func(b *bytes.Buffer) error { return WriteHTML(b, HTMLReport{Tables: tables, Cells: cells}) }, []string{
			"0.9000 ± 0.0200<sup>‡</sup></td>", "<sup>‡</sup>: one class was predicted for every test row",
		}},
		{"json", func(b *bytes.Buffer) error { return WriteJSON(b, tables) }, []string{`"one_class_folds": 2`, `"tied_folds": 2`}},
	} {
		var b bytes.Buffer
		if err := tc.write(&b); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s lacks %q", tc.name, w)
			}
		}
	}
}
