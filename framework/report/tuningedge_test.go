package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/outcome"
)

// tunedCell is a tuned cell on dataset "segment" choosing chosen[i] on
// outer fold i among candidates.
func tunedCell(candidates, chosen []string) *outcome.CellResult {
	c := &outcome.CellResult{ID: outcome.ID{Dataset: "segment", Encoder: "std", Learner: "logreg", Params: "(tuned)", Reduction: "ova"},
		TuneMetric: "accuracy", TuneCandidates: candidates}
	for i, ch := range chosen {
		c.Folds = append(c.Folds, outcome.FoldResult{Fold: i, Metrics: map[string]float64{"accuracy": 0.9}, Chosen: ch})
	}
	return c
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func TestTuningEdges(t *testing.T) {
	grid := []string{"C=0.01", "C=0.1", "C=1", "C=10", "C=100"}
	grid2 := []string{"C=1,gamma=0.1", "C=1,gamma=1", "C=1,gamma=10", "C=10,gamma=0.1", "C=10,gamma=1", "C=10,gamma=10"}
	for _, tc := range []struct {
		name       string
		candidates []string
		chosen     []string
		want       []string // "param value highest folds/of"
	}{
		// A run seen on segment: C = 100 in 10 of 10 outer folds.
		{"highest in every fold", grid, repeat("C=100", 10), []string{"C 100 true 10/10"}},
		{"lowest in 6 of 10", grid, append(repeat("C=0.01", 6), repeat("C=1", 4)...), []string{"C 0.01 false 6/10"}},
		{"half is not most", grid, append(repeat("C=100", 5), repeat("C=1", 5)...), nil},
		{"inside the grid", grid, repeat("C=10", 10), nil},
		{"edges split", grid, append(repeat("C=100", 4), repeat("C=0.01", 4)...), nil},
		// The grid in any order: its edges are its smallest and largest.
		{"unsorted grid", []string{"C=10", "C=100", "C=0.01"}, repeat("C=100", 3), []string{"C 100 true 3/3"}},
		{"two values: every choice an edge", []string{"C=1", "C=10"}, repeat("C=10", 5), nil},
		{"strings have no edges", []string{"loss=hinge", "loss=log", "loss=squared_hinge"}, repeat("loss=squared_hinge", 5), nil},
		// Two parameters: only gamma sits on its edge (C has 2 values).
		{"two parameters", grid2, []string{"C=1,gamma=10", "C=10,gamma=10", "C=10,gamma=10", "C=1,gamma=1"}, []string{"gamma 10 true 3/4"}},
		{"scientific notation", []string{"alpha=1e-05", "alpha=0.0001", "alpha=0.001"}, repeat("alpha=1e-05", 4), []string{"alpha 1e-05 false 4/4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, e := range TuningEdges([]*outcome.CellResult{tunedCell(tc.candidates, tc.chosen)}) {
				got = append(got, fmt.Sprintf("%s %s %v %d/%d", e.Param, e.Value, e.Highest, e.Folds, e.Of))
			}
			if strings.Join(got, "; ") != strings.Join(tc.want, "; ") {
				t.Errorf("edges %v, want %v", got, tc.want)
			}
		})
	}
}

// TestNamedTuningEdges: the warning a run prints names the row as its
// tables do: "logreg" when it is the learner's only row (a new user read
// "glass: logreg ova chose C = 10" above tables whose row was "logreg"),
// the reduction too when the learner has rows under two.
func TestNamedTuningEdges(t *testing.T) {
	grid := []string{"C=0.01", "C=0.1", "C=1", "C=10", "C=100"}
	under := func(reduction string) *outcome.CellResult {
		c := tunedCell(grid, repeat("C=100", 4))
		c.Reduction = reduction
		return c
	}
	for _, tc := range []struct {
		name  string
		cells []*outcome.CellResult
		want  []string
	}{
		{"one row", []*outcome.CellResult{under("ova")}, []string{"segment: logreg chose C = 100"}},
		{"two reductions", []*outcome.CellResult{under("ova"), under("ovo")},
			[]string{"segment: logreg ova chose C = 100", "segment: logreg ovo chose C = 100"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			edges := NamedTuningEdges(nil, tc.cells)
			if len(edges) != len(tc.want) {
				t.Fatalf("%d edges, want %d: %v", len(edges), len(tc.want), edges)
			}
			for i, e := range edges {
				if !strings.HasPrefix(e.String(), tc.want[i]+",") {
					t.Errorf("edge %d: %q, want it to start %q", i, e.String(), tc.want[i])
				}
			}
		})
	}
}

// TestTuningEdgeReport: the warning under the Selected parameters table in
// Markdown and HTML, as a comment in LaTeX, and in the JSON.
func TestTuningEdgeReport(t *testing.T) {
	cells := []*outcome.CellResult{tunedCell([]string{"C=0.01", "C=0.1", "C=1", "C=10", "C=100"}, repeat("C=100", 10))}
	tables := BuildTables(Spec{Experiment: "edge", Metrics: []string{"accuracy"}}, cells)
	want := "Warning: segment: logreg chose C = 100, the highest value of its grid (0.01, 0.1, 1, 10, 100), in 10 of 10 outer folds; the best C may lie beyond the grid: widen it if C can go higher."
	var md, html, tex, js bytes.Buffer
	if err := WriteMarkdown(&md, tables, cells); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| segment | logreg | C=100 (10) |\n\n"+want+"\n") {
		t.Errorf("markdown:\n%s", md.String())
	}
	if err := WriteHTML(&html, HTMLReport{Tables: tables, Cells: cells}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(html.String(), "<p class=\"stats note tuning-edge\">"+htmlEscape(want)+"</p>\n</section>") {
		t.Errorf("html lacks the warning in the selected section:\n%s", html.String())
	}
	if err := WriteLaTeX(&tex, tables); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tex.String(), "% "+want+"\n") {
		t.Errorf("latex:\n%s", tex.String())
	}
	if err := WriteJSON(&js, tables); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"tuning_edges": [`) || !strings.Contains(js.String(), `"param": "C"`) || !strings.Contains(js.String(), `"highest": true`) {
		t.Errorf("json:\n%s", js.String())
	}
}
