package report

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/outcome"
)

// halvingCell is a cell tuned by successive halving over 5 candidates by
// 3 inner folds, over two outer folds of two rounds each.
func halvingCell() *outcome.CellResult {
	c := &outcome.CellResult{ID: outcome.ID{Dataset: "iris", Encoder: "std", Learner: "logreg", Params: "C=[0.01, 0.1, 1, 10, 100] (tuned)", Reduction: "none"},
		TuneMetric: "accuracy", TuneCandidates: []string{"C=0.01", "C=0.1", "C=1", "C=10", "C=100"}, TuneStrategy: "halving", TuneFolds: 3}
	c.Folds = []outcome.FoldResult{
		{Fold: 0, Metrics: map[string]float64{"accuracy": 0.9}, Chosen: "C=10", TuneSeconds: 0.5, TuneRows: 135, TuneRounds: []outcome.TuneRound{
			{Resources: 45, Candidates: []int{0, 1, 2, 3, 4}, Scores: []float64{0.6, 0.8, 0.9, 0.9, 0.85}},
			{Resources: 135, Candidates: []int{2, 3}, Scores: []float64{0.94, 0.96}},
		}},
		{Fold: 1, Metrics: map[string]float64{"accuracy": 0.95}, Chosen: "C=1", TuneSeconds: 0.25, TuneRows: 135, TuneRounds: []outcome.TuneRound{
			{Resources: 45, Candidates: []int{0, 1, 2, 3, 4}, Scores: []float64{0.6, 0.8, 0.95, 0.9, math.NaN()}},
			{Resources: 135, Candidates: []int{2, 3}, Scores: []float64{0.97, 0.96}},
		}},
	}
	return c
}

func TestSearchesMarkdown(t *testing.T) {
	random := &outcome.CellResult{ID: outcome.ID{Dataset: "iris", Encoder: "std", Learner: "svm", Params: "C=loguniform(0.001, 1000) (tuned)", Reduction: "ova"},
		TuneMetric: "accuracy", TuneCandidates: []string{"C=0.5", "C=3", "C=40", "C=700"}, TuneStrategy: "random", TuneFolds: 5,
		Folds: []outcome.FoldResult{{Chosen: "C=3", TuneRows: 100, TuneScores: []float64{0.9, 0.95, 0.93, 0.91}}, {Chosen: "C=40", TuneRows: 100, TuneScores: []float64{0.9, 0.92, 0.93, 0.91}}}}
	grid := &outcome.CellResult{ID: outcome.ID{Dataset: "iris", Learner: "logreg", Reduction: "none"}, TuneMetric: "accuracy",
		TuneCandidates: []string{"C=1"}, Folds: []outcome.FoldResult{{Chosen: "C=1"}}}
	var b strings.Builder
	writeMarkdownSections(&b, searchSection(searches([]*outcome.CellResult{halvingCell(), grid, random}, nil)))
	want := "## Tuning searches\n\n" +
		"**iris · logreg · none**: halving search over 5 candidates, each scored by 3 inner folds on accuracy; 42 inner fits on 2970 rows in all (fits × their rows), against 30 fits on 4050 rows to score every candidate on every row (73.3 % of the rows).\n\n" +
		"| repeat | fold | round | candidates | rows | best | inner mean | survivors |\n| ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |\n" +
		"| 0 | 0 | 1 | 5 | 45 | C=1 | 0.9000 | C=1, C=10 |\n" +
		"| 0 | 0 | 2 | 2 | 135 | C=10 | 0.9600 | chose C=10 |\n" +
		"| 0 | 1 | 1 | 5 | 45 | C=1 | 0.9500 | C=1, C=10 |\n" +
		"| 0 | 1 | 2 | 2 | 135 | C=1 | 0.9700 | chose C=1 |\n\n" +
		"**iris · svm · ova**: random search over 4 candidates, each scored by 5 inner folds on accuracy; 40 inner fits on 4000 rows in all (fits × their rows), against 40 fits on 4000 rows to score every candidate on every row (100.0 % of the rows).\n\n"
	if b.String() != want {
		t.Errorf("section\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	writeMarkdownSections(&b, searchSection(searches([]*outcome.CellResult{grid}, nil)))
	if b.String() != "" {
		t.Errorf("a grid-tuned cell alone writes\n%s\nwant nothing (grid reports read as before)", b.String())
	}
}

func TestSearchesJSON(t *testing.T) {
	ss := searches([]*outcome.CellResult{halvingCell()}, nil)
	out, err := json.Marshal(ss)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "seconds") {
		t.Errorf("JSON %s: a time in the report", out)
	}
	for _, want := range []string{`"fits":42,"full_fits":30,"rows":2970,"full_rows":4050,"folds"`, `"scores":[0.6,0.8,0.95,0.9,null]`, `"best":"C=1","best_score":0.97`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("JSON %s\nwant %s", out, want)
		}
	}
}

// TestSearchReplayFitsNothing: aggressive elimination's replay of the
// round before (same rows) counts no fits and no rows.
func TestSearchReplayFitsNothing(t *testing.T) {
	c := &outcome.CellResult{TuneMetric: "accuracy", TuneStrategy: "halving", TuneFolds: 3,
		TuneCandidates: []string{"c=1", "c=2", "c=3", "c=4", "c=5", "c=6", "c=7", "c=8", "c=9"},
		Folds: []outcome.FoldResult{{Chosen: "c=7", TuneRows: 90, TuneRounds: []outcome.TuneRound{
			{Resources: 30, Candidates: []int{0, 1, 2, 3, 4, 5, 6, 7, 8}, Scores: make([]float64, 9)},
			{Resources: 30, Candidates: []int{0, 1, 6}, Scores: make([]float64, 3)},
			{Resources: 90, Candidates: []int{6}, Scores: []float64{1}},
		}}}}
	s := searches([]*outcome.CellResult{c}, nil)[0]
	if s.Fits != 3*(9+1) || s.Rows != 3*(9*30+90) || s.FullFits != 27 || s.FullRows != 27*90 {
		t.Errorf("fits %d on %d rows, full %d on %d; want 30 on 1080, 27 on 2430", s.Fits, s.Rows, s.FullFits, s.FullRows)
	}
}

// TestSearchesHTML: the HTML report's section says what the Markdown one
// does, escaped for HTML.
func TestSearchesHTML(t *testing.T) {
	c := halvingCell()
	c.Dataset, c.ID.Learner = "iris", "log<reg>"
	var b strings.Builder
	writeHTMLSections(&b, searchSection(searches([]*outcome.CellResult{c}, nil)))
	for _, want := range []string{
		"<section id=\"searches\">\n<h2>Tuning searches</h2>\n",
		"<p><strong>iris · log&lt;reg&gt; · none</strong>: halving search over 5 candidates",
		"<tr><td class=\"num\">0</td><td class=\"num\">1</td><td class=\"num\">2</td><td class=\"num\">2</td><td class=\"num\">135</td><td>C=1</td><td class=\"num\">0.9700</td><td>chose C=1</td></tr>\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("HTML\n%s\nwant %q", b.String(), want)
		}
	}
	b.Reset()
	writeHTMLSections(&b, searchSection(nil))
	if b.String() != "" {
		t.Errorf("no search writes %q", b.String())
	}
}
