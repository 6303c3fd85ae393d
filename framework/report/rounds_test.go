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
	writeMarkdownSections(&b, searchSection(searches([]*outcome.CellResult{halvingCell(), grid, random}, nil, false), nil))
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
	writeMarkdownSections(&b, searchSection(searches([]*outcome.CellResult{grid}, nil, false), nil))
	if b.String() != "" {
		t.Errorf("a grid-tuned cell alone writes\n%s\nwant nothing (grid reports read as before)", b.String())
	}
}

func TestSearchesJSON(t *testing.T) {
	ss := searches([]*outcome.CellResult{halvingCell()}, nil, false)
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
	s := searches([]*outcome.CellResult{c}, nil, false)[0]
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
	writeHTMLSections(&b, searchSection(searches([]*outcome.CellResult{c}, nil, false), nil))
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
	writeHTMLSections(&b, searchSection(nil, nil))
	if b.String() != "" {
		t.Errorf("no search writes %q", b.String())
	}
}

// TestSearchesHyperband: a hyperband fold's rounds are numbered within
// their bracket, a bracket's last round says it ends it, and a round's
// reused scores (a candidate scored on the same rows by an earlier
// bracket) count no fits; a random search stopped by its budget after 2
// of its 4 candidates counts those 2.
func TestSearchesHyperband(t *testing.T) {
	s1, s0 := 1, 0
	hb := &outcome.CellResult{ID: outcome.ID{Dataset: "iris", Encoder: "std", Learner: "svm", Reduction: "ova"}, TuneMetric: "accuracy",
		TuneCandidates: []string{"C=1", "C=2", "C=3", "C=4"}, TuneStrategy: "hyperband", TuneFolds: 2,
		Folds: []outcome.FoldResult{{Chosen: "C=3", TuneRows: 90, TuneRounds: []outcome.TuneRound{
			{Resources: 30, Candidates: []int{0, 1, 2}, Scores: []float64{0.5, 0.6, 0.7}, Bracket: &s1},
			{Resources: 90, Candidates: []int{2}, Scores: []float64{0.9}, Bracket: &s1},
			{Resources: 90, Candidates: []int{2, 3}, Scores: []float64{0.9, 0.8}, Bracket: &s0, Reused: 1},
		}}}}
	random := &outcome.CellResult{ID: outcome.ID{Dataset: "iris", Encoder: "std", Learner: "rnd", Reduction: "ova"}, TuneMetric: "accuracy",
		TuneCandidates: []string{"C=1", "C=2", "C=3", "C=4"}, TuneStrategy: "random", TuneFolds: 2,
		Folds: []outcome.FoldResult{{Chosen: "C=2", TuneRows: 90, TuneScores: []float64{0.5, 0.6}}}}
	var b strings.Builder
	writeMarkdownSections(&b, searchSection(searches([]*outcome.CellResult{hb, random}, nil, false), nil))
	want := "## Tuning searches\n\n" +
		"**iris · svm · ova**: hyperband search over 4 candidates, each scored by 2 inner folds on accuracy; 10 inner fits on 540 rows in all (fits × their rows), against 8 fits on 720 rows to score every candidate on every row (75.0 % of the rows).\n\n" +
		"| repeat | fold | round | candidates | rows | best | inner mean | survivors |\n| ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |\n" +
		"| 0 | 0 | s=1: 1 | 3 | 30 | C=3 | 0.7000 | C=3 |\n" +
		"| 0 | 0 | s=1: 2 | 1 | 90 | C=3 | 0.9000 | end of bracket |\n" +
		"| 0 | 0 | s=0: 1 | 2 | 90 | C=3 | 0.9000 | chose C=3 |\n\n" +
		"**iris · rnd · ova**: random search over 4 candidates, each scored by 2 inner folds on accuracy; 4 inner fits on 360 rows in all (fits × their rows), against 8 fits on 720 rows to score every candidate on every row (50.0 % of the rows).\n\n"
	if b.String() != want {
		t.Errorf("section\n%s\nwant\n%s", b.String(), want)
	}
}

// TestSearchesLaTeX: the LaTeX tables end with the searches' cost table,
// labelled tab:EXPERIMENT-searches (the rows' share escaped, the budget
// parameter named), with the fit seconds only when the experiment asks
// for a timing metric; a run without searches writes no such table.
func TestSearchesLaTeX(t *testing.T) {
	budget := halvingCell()
	budget.ID.Learner, budget.TuneResource, budget.TuneMaxResource = "lr_iter", "max_iter", 135
	for _, tc := range []struct {
		name    string
		metrics []string
		cells   []*outcome.CellResult
		want    []string
		not     []string
	}{
		{"untimed", []string{"accuracy"}, []*outcome.CellResult{halvingCell(), budget}, []string{
			"\n% Tuning searches\n\\begin{table}[htbp]\n",
			"\\label{tab:exp-searches}\n\\sbox0{\\begin{tabular}{llllrrrr}\n\\toprule\n" +
				"dataset & learner & reduction & strategy & candidates & inner fits & all candidates & share of the rows \\\\\n\\midrule\n" +
				"iris & logreg & none & halving & 5 & 42 & 30 & 73.3 \\% \\\\\n" +
				"iris & lr\\_iter & none & halving & 5 & 42 & 30 & 73.3 \\% (max\\_iter) \\\\\n\\bottomrule\n"},
			[]string{"fit seconds"}},
		{"timed", []string{"accuracy", "fit_seconds"}, []*outcome.CellResult{halvingCell()}, []string{
			"{llllrrrrr}", "share of the rows & fit seconds \\\\\n", "& 73.3 \\% & 0.8 \\\\\n"}, nil},
		{"no search", []string{"accuracy"}, nil, nil, []string{"Tuning searches"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := WriteLaTeX(&b, BuildTables(Spec{Experiment: "exp", Metrics: tc.metrics}, tc.cells)); err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("LaTeX\n%s\nwant %q", b.String(), w)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(b.String(), n) {
					t.Errorf("LaTeX\n%s\nholds %q", b.String(), n)
				}
			}
		})
	}
}

// TestSearchesSeconds: with a timing metric asked for, a search's line
// ends with its inner fits' seconds (the folds' tune_seconds summed).
func TestSearchesSeconds(t *testing.T) {
	var b strings.Builder
	writeMarkdownSections(&b, searchSection(searches([]*outcome.CellResult{halvingCell()}, nil, true), nil))
	if want := "(73.3 % of the rows); 0.8 s of inner fits.\n"; !strings.Contains(b.String(), want) {
		t.Errorf("section\n%s\nwant %q", b.String(), want)
	}
}

// TestSearchFigures: a search with rounds gets a figure of its scores by
// round's resource (search_DATASET_LEARNER_REDUCTION, Kind "search"),
// drawn to PNG; a random search, without rounds, gets none.
func TestSearchFigures(t *testing.T) {
	random := &outcome.CellResult{ID: outcome.ID{Dataset: "iris", Encoder: "std", Learner: "svm", Reduction: "ova"},
		TuneMetric: "accuracy", TuneCandidates: []string{"C=1", "C=2"}, TuneStrategy: "random", TuneFolds: 2,
		Folds: []outcome.FoldResult{{Chosen: "C=2", TuneRows: 90, TuneScores: []float64{0.5, 0.6}}}}
	var ff figureFailures
	figs := searchFigures(searches([]*outcome.CellResult{halvingCell(), random}, nil, false), &ff)
	if len(ff) != 0 {
		t.Fatal(ff)
	}
	if len(figs) != 1 || figs[0].Name != "search_iris_logreg_none" || figs[0].Kind != "search" ||
		figs[0].Caption != "iris · logreg · none: halving search: each candidate's inner mean per round against its rows, each outer fold's round best joined" {
		t.Fatalf("figures %+v, want one search_iris_logreg_none", figs)
	}
	if png, err := figs[0].Fig.PNG(); err != nil || len(png) < 1000 {
		t.Errorf("PNG of %d bytes (%v)", len(png), err)
	}
}
