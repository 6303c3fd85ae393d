package report

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/engine"
)

func TestChosenParameters(t *testing.T) {
	tuned := &engine.CellResult{ID: engine.ID{Dataset: "iris", Encoder: "std", Learner: "logreg", Params: "C=[1, 10] (tuned)", Reduction: "none"}}
	for i, c := range []string{"C=1", "C=10", "C=10", "C=1", "C=10"} {
		tuned.Folds = append(tuned.Folds, engine.FoldResult{Fold: i, Metrics: map[string]float64{"accuracy": 0.5}, Chosen: c})
	}
	plain := &engine.CellResult{ID: engine.ID{Dataset: "iris", Encoder: "std", Learner: "svm", Reduction: "ova"},
		Folds: []engine.FoldResult{{Metrics: map[string]float64{"accuracy": 1}}}}
	var b strings.Builder
	writeChosenTable(&b, []*engine.CellResult{tuned, plain})
	want := "## Selected parameters\n\n| dataset | learner | reduction | chosen on the training part (folds) |\n| --- | --- | --- | --- |\n" +
		"| iris | logreg | none | C=10 (3), C=1 (2) |\n\n"
	if b.String() != want {
		t.Errorf("table\n%s\nwant\n%s", b.String(), want)
	}
	var csv strings.Builder
	if err := WriteFoldsCSV(&csv, []*engine.CellResult{tuned, plain}, []string{"accuracy"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(csv.String(), "iris,std,logreg,\"C=[1, 10] (tuned)\",none,0,1,chosen,C=10\n") || strings.Count(csv.String(), ",chosen,") != 5 {
		t.Errorf("folds.csv:\n%s", csv.String())
	}
	// Two encoders: a column tells their cells apart.
	raw := &engine.CellResult{ID: tuned.ID, Folds: []engine.FoldResult{{Metrics: map[string]float64{"accuracy": 0.5}, Chosen: "C=1"}}}
	raw.Encoder = "raw"
	b.Reset()
	writeChosenTable(&b, []*engine.CellResult{tuned, raw, plain})
	want = "## Selected parameters\n\n| dataset | encoder | learner | reduction | chosen on the training part (folds) |\n| --- | --- | --- | --- | --- |\n" +
		"| iris | std | logreg | none | C=10 (3), C=1 (2) |\n| iris | raw | logreg | none | C=1 (1) |\n\n"
	if b.String() != want {
		t.Errorf("table\n%s\nwant\n%s", b.String(), want)
	}
	// The JSON tables carry the same choices.
	var js strings.Builder
	if err := WriteJSON(&js, BuildTables(Spec{Experiment: "x", Metrics: []string{"accuracy"}}, []*engine.CellResult{tuned, raw, plain})); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Selected []Selection `json:"selected_parameters"`
	}
	if err := json.Unmarshal([]byte(js.String()), &got); err != nil {
		t.Fatal(err)
	}
	wantSel := []Selection{
		{Dataset: "iris", Encoder: "std", Learner: "logreg", Reduction: "none", Chosen: []ChosenParams{{"C=10", 3}, {"C=1", 2}}},
		{Dataset: "iris", Encoder: "raw", Learner: "logreg", Reduction: "none", Chosen: []ChosenParams{{"C=1", 1}}},
	}
	if !reflect.DeepEqual(got.Selected, wantSel) {
		t.Errorf("JSON selected_parameters %+v, want %+v", got.Selected, wantSel)
	}
	b.Reset()
	writeChosenTable(&b, []*engine.CellResult{plain})
	if b.Len() != 0 {
		t.Errorf("no tuned cell, yet a table: %q", b.String())
	}
}
