package report

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/outcome"
)

func TestChosenParameters(t *testing.T) {
	tuned := &outcome.CellResult{ID: outcome.ID{Dataset: "iris", Encoder: "std", Learner: "logreg", Params: "C=[1, 10] (tuned)", Reduction: "none"},
		TuneMetric: "accuracy", TuneCandidates: []string{"C=1", "C=10"}}
	scores := [][]float64{{0.9, 0.8}, {0.7, 0.95}, {0.6, 0.65}, {0.9, 0.9}, {0.5, 0.6}}
	for i, c := range []string{"C=1", "C=10", "C=10", "C=1", "C=10"} {
		tuned.Folds = append(tuned.Folds, outcome.FoldResult{Fold: i, Metrics: map[string]float64{"accuracy": 0.5}, Chosen: c, TuneScores: scores[i]})
	}
	plain := &outcome.CellResult{ID: outcome.ID{Dataset: "iris", Encoder: "std", Learner: "svm", Reduction: "ova"},
		Folds: []outcome.FoldResult{{Metrics: map[string]float64{"accuracy": 1}}}}
	var b strings.Builder
	writeMarkdownSections(&b, selectedSection(selectionsOf(tuned, plain), nil))
	want := "## Selected parameters\n\n| dataset | row | chosen on the training part (folds) |\n| --- | --- | --- |\n" +
		"| iris | logreg | C=10 (3), C=1 (2) |\n\n"
	if b.String() != want {
		t.Errorf("table\n%s\nwant\n%s", b.String(), want)
	}
	// folds.csv holds numbers only; tuning.csv a row per fold × candidate.
	var csv strings.Builder
	if err := WriteFoldsCSV(&csv, []*outcome.CellResult{tuned, plain}, []string{"accuracy"}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(csv.String(), "chosen") || strings.Count(csv.String(), ",accuracy,") != 6 {
		t.Errorf("folds.csv:\n%s", csv.String())
	}
	csv.Reset()
	if err := WriteTuningCSV(&csv, []*outcome.CellResult{tuned, plain}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(csv.String()), "\n")
	wantLines := []string{
		"dataset,pipeline,learner,params,reduction,repeat,fold,candidate,tune_metric,inner_mean,chosen",
		"iris,std,logreg,\"C=[1, 10] (tuned)\",none,0,0,C=1,accuracy,0.9,true",
		"iris,std,logreg,\"C=[1, 10] (tuned)\",none,0,0,C=10,accuracy,0.8,false",
		"iris,std,logreg,\"C=[1, 10] (tuned)\",none,0,1,C=1,accuracy,0.7,false",
		"iris,std,logreg,\"C=[1, 10] (tuned)\",none,0,1,C=10,accuracy,0.95,true",
	}
	if len(lines) != 1+2*5 || !slices.Equal(lines[:5], wantLines) {
		t.Errorf("tuning.csv:\n%s\nwant it to start\n%s", csv.String(), strings.Join(wantLines, "\n"))
	}
	// A cell file written before cells named their candidates.
	old := *tuned
	old.TuneCandidates, old.TuneMetric = nil, ""
	csv.Reset()
	if err := WriteTuningCSV(&csv, []*outcome.CellResult{&old}); err != nil {
		t.Fatal(err)
	}
	if want := "iris,std,logreg,\"C=[1, 10] (tuned)\",none,0,0,candidate 2,,0.8,false\n"; !strings.Contains(csv.String(), want) {
		t.Errorf("tuning.csv of an older cell:\n%s\nwant %q", csv.String(), want)
	}
	// Two pipelines: a pipeline column tells their cells apart.
	raw := &outcome.CellResult{ID: tuned.ID, Folds: []outcome.FoldResult{{Metrics: map[string]float64{"accuracy": 0.5}, Chosen: "C=1"}}}
	raw.Encoder = "raw"
	b.Reset()
	writeMarkdownSections(&b, selectedSection(selectionsOf(tuned, raw, plain), nil))
	want = "## Selected parameters\n\n| dataset | row | chosen on the training part (folds) |\n| --- | --- | --- |\n" +
		"| iris | std logreg | C=10 (3), C=1 (2) |\n| iris | raw logreg | C=1 (1) |\n\n"
	if b.String() != want {
		t.Errorf("table\n%s\nwant\n%s", b.String(), want)
	}
	// The JSON tables carry the same choices.
	var js strings.Builder
	if err := WriteJSON(&js, BuildTables(Spec{Experiment: "x", Metrics: []string{"accuracy"}}, []*outcome.CellResult{tuned, raw, plain})); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Selected []Selection `json:"selected_parameters"`
	}
	if err := json.Unmarshal([]byte(js.String()), &got); err != nil {
		t.Fatal(err)
	}
	wantSel := []Selection{
		{Dataset: "iris", Row: "std logreg", Encoder: "std", Learner: "logreg", Reduction: "none", Chosen: []ChosenParams{{"C=10", 3}, {"C=1", 2}}},
		{Dataset: "iris", Row: "raw logreg", Encoder: "raw", Learner: "logreg", Reduction: "none", Chosen: []ChosenParams{{"C=1", 1}}},
	}
	if !reflect.DeepEqual(got.Selected, wantSel) {
		t.Errorf("JSON selected_parameters %+v, want %+v", got.Selected, wantSel)
	}
	// And the HTML report, with its link.
	var html bytes.Buffer
	all := []*outcome.CellResult{tuned, raw, plain}
	if err := WriteHTML(&html, HTMLReport{Tables: BuildTables(Spec{Experiment: "x", Metrics: []string{"accuracy"}}, all), Cells: all}); err != nil {
		t.Fatal(err)
	}
	checkText(t, "html", html.String(), []string{`<a href="#selected">Selected parameters</a>`,
		"<tr><td>iris</td><td>std logreg</td><td>C=10 (3), C=1 (2)</td></tr>",
		"<tr><td>iris</td><td>raw logreg</td><td>C=1 (1)</td></tr>"}, nil)
	// And the LaTeX tables, after the metric tables, escaped.
	var tex strings.Builder
	underscore := *raw
	underscore.Folds = []outcome.FoldResult{{Metrics: map[string]float64{"accuracy": 0.5}, Chosen: "loss=squared_hinge"}}
	underscore.Dataset = "my_data"
	if err := WriteLaTeX(&tex, BuildTables(Spec{Experiment: "x_1", Metrics: []string{"accuracy"}}, append(all, &underscore))); err != nil {
		t.Fatal(err)
	}
	checkText(t, "latex", tex.String(), []string{"\\label{tab:x-1-selected}\n\\sbox0{\\begin{tabular}{lll}\n\\toprule\n" +
		"dataset & row & chosen on the training part (folds) \\\\\n\\midrule\n" +
		"iris & std logreg & C=10 (3), C=1 (2) \\\\\niris & raw logreg & C=1 (1) \\\\\n" +
		"my\\_data & raw logreg & loss=squared\\_hinge (1) \\\\\n\\bottomrule\n"}, nil)
	if i, j := strings.Index(tex.String(), "tab:x-1-accuracy"), strings.Index(tex.String(), "tab:x-1-selected"); i < 0 || j < i {
		t.Errorf("the selected parameters do not follow the accuracy table:\n%s", tex.String())
	}
	// One pipeline: the rows' short names leave it out, in the HTML and
	// LaTeX tables too; a partial run says so in the caption.
	one := []*outcome.CellResult{tuned, plain}
	html.Reset()
	if err := WriteHTML(&html, HTMLReport{Tables: BuildTables(Spec{Experiment: "x", Metrics: []string{"accuracy"}}, one), Cells: one}); err != nil {
		t.Fatal(err)
	}
	checkText(t, "html, one encoder", html.String(), []string{"<thead><tr><th>dataset</th><th>row</th><th>chosen on the training part (folds)</th></tr></thead>",
		"<tr><td>iris</td><td>logreg</td><td>C=10 (3), C=1 (2)</td></tr>"}, []string{"<th>dataset</th><th>pipeline</th>"})
	tex.Reset()
	partial := BuildTables(Spec{Experiment: "x", Metrics: []string{"accuracy"}}, one)
	partial.Partial = "2 of 3 cells finished"
	if err := WriteLaTeX(&tex, partial); err != nil {
		t.Fatal(err)
	}
	checkText(t, "latex, one encoder", tex.String(), []string{"with the number of outer folds that chose them. Partial results: 2 of 3 cells finished.}",
		"\\sbox0{\\begin{tabular}{lll}\n\\toprule\ndataset & row & chosen on the training part (folds) \\\\\n\\midrule\niris & logreg & C=10 (3), C=1 (2) \\\\\n"}, nil)
	tex.Reset()
	if err := WriteLaTeX(&tex, BuildTables(Spec{Experiment: "x", Metrics: []string{"accuracy"}}, []*outcome.CellResult{plain})); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(tex.String(), "selected") {
		t.Errorf("no tuned cell, yet a LaTeX table of choices:\n%s", tex.String())
	}
	b.Reset()
	writeMarkdownSections(&b, selectedSection(selectionsOf(plain), nil))
	if b.Len() != 0 {
		t.Errorf("no tuned cell, yet a table: %q", b.String())
	}
}

// selectionsOf is the tuned cells' choices as BuildTables finds them,
// named by the rows' short names.
func selectionsOf(cells ...*outcome.CellResult) []Selection {
	rows, _, _ := rowsOf(cells, nil)
	return selections(cells, nil, rows)
}
