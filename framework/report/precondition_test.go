package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/outcome"
)

// preconditionCells: rows base and up on the datasets ds, folds fold
// scores each; up is base plus the differences diff (cycled), so a
// constant diff gives differences of zero variance.
func preconditionCells(ds []string, folds int, diff ...float64) []*outcome.CellResult {
	var cells []*outcome.CellResult
	for d, name := range ds {
		base, up := make([]float64, folds), make([]float64, folds)
		for i := range base {
			base[i] = 0.70 + 0.01*float64((i*3+d)%7)
			up[i] = base[i] + diff[(i+d)%len(diff)]
		}
		cells = append(cells, mkCell(name, "base", "", "ova", 90, 10, withErr(base)), mkCell(name, "up", "", "ova", 90, 10, withErr(up)))
	}
	return cells
}

// renderFormats returns every file Files writes for cells in Markdown,
// HTML, LaTeX and JSON (figures included), by name.
func renderFormats(t *testing.T, spec Spec, cells []*outcome.CellResult) map[string]string {
	t.Helper()
	spec.Formats = []string{"markdown", "html", "latex", "json"}
	files, err := Files(spec, cells)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range files {
		var b bytes.Buffer
		if err := f.Write(&b); err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		out[f.Name] = b.String()
	}
	return out
}

// TestNoTestWherePreconditionsFail: a test whose preconditions fail is
// not reported: its cell says why in Markdown, HTML, LaTeX and JSON, with
// no probabilities, and no posterior plot is drawn. One case per
// precondition: fewer than 3 datasets across datasets (the finding: 2
// datasets gave P(rope) = 1.000 in bold beside "they need at least 3"),
// fewer than 2 splits, zero variance of the fold differences, and
// differences all zero across datasets.
func TestNoTestWherePreconditionsFail(t *testing.T) {
	rope := 0.01
	for _, tc := range []struct {
		name  string
		cells []*outcome.CellResult
		// cell is the Bayesian table's entry, which Markdown, HTML and
		// LaTeX show; json the JSON's reason and effect its baseline
		// test's; wantNot what no format may hold (a test's numbers).
		cell, json, effect string
		wantNot            []string
	}{
		{name: "2 datasets across datasets", cells: preconditionCells([]string{"d1", "d2"}, 10, 0.001, 0.002, 0.0015, 0.003, 0.0005),
			cell: "no test: 2 datasets (needs at least 3)", json: `"signed_rank_no_test": "2 datasets (needs at least 3)"`,
			wantNot: []string{`"signed_rank": {`, "across 2 datasets"}},
		{name: "1 split", cells: preconditionCells([]string{"h"}, 1, 0.05),
			cell: "no test: 1 split (needs at least 2)", json: `"reason": "1 split (needs at least 2)"`,
			effect: `"no_test": "1 split (needs at least 2)"`, wantNot: []string{`"baseline_test"`, `"p_left"`}},
		{name: "zero variance of the fold differences", cells: preconditionCells([]string{"d1"}, 10, 0.25),
			cell: "no test: zero variance (all 10 differences equal)", json: `"reason": "zero variance (all 10 differences equal)"`,
			effect: `"no_test": "zero variance (all 10 differences equal)"`, wantNot: []string{`"baseline_test"`, `"p_left"`}},
		{name: "differences all zero across datasets", cells: preconditionCells([]string{"d1", "d2", "d3"}, 10, 0),
			cell: "no test: all 3 differences zero", json: `"signed_rank_no_test": "all 3 differences zero"`,
			wantNot: []string{`"signed_rank": {`, "across 3 datasets"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := renderFormats(t, Spec{Experiment: "p", Metrics: []string{"accuracy"}, Baseline: "base", Rope: &rope, Seed: 3}, tc.cells)
			want := map[string]string{
				"p.md":   "| up | base (baseline) |",
				"p.html": `<td class="num notest">` + tc.cell + `</td>`,
				"p.tex":  "up & base (baseline) & ",
				"p.json": tc.json,
			}
			for name, w := range want {
				got, ok := files[name]
				switch {
				case !ok:
					t.Fatalf("no %s among %d files", name, len(files))
				case !strings.Contains(got, w):
					t.Errorf("%s lacks %q:\n%s", name, w, got)
				case name != "p.json" && !strings.Contains(got, tc.cell):
					t.Errorf("%s lacks the cell %q", name, tc.cell)
				}
				for _, bad := range tc.wantNot {
					if strings.Contains(got, bad) {
						t.Errorf("%s claims %q", name, bad)
					}
				}
			}
			if tc.effect != "" {
				// The t-test against the baseline, beside the entry.
				for name, w := range map[string]string{"p.json": tc.effect, "p.md": " (" + tc.cell + ")",
					"p.html": `<span class="effect">` + tc.cell + `</span>`, "p.tex": `{\scriptsize(` + tc.cell + `)}`} {
					if !strings.Contains(files[name], w) {
						t.Errorf("%s lacks the baseline test's %s", name, w)
					}
				}
			}
			for name := range files {
				if strings.HasPrefix(name, "plots/bayes_") {
					t.Errorf("posterior plot %s drawn without a test", name)
				}
			}
		})
	}
}
