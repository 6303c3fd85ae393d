package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/outcome"
)

// TestPipelineColumn: the column that holds the cell's pipeline (its
// encoders' name, "scaled" here) is called pipeline, not encoder, in
// summary.csv, folds.csv and the heading of the rows' table; the tables'
// short names hold it.
func TestPipelineColumn(t *testing.T) {
	cells := []*outcome.CellResult{
		mkCell("d", "base", "", "ova", 90, 10, withErr([]float64{0.8, 0.9})),
		mkCell("d", "base", "", "ova", 90, 10, withErr([]float64{0.7, 0.8})),
	}
	cells[0].ID.Encoder, cells[1].ID.Encoder = "scaled", "raw"
	var sum, folds bytes.Buffer
	if err := WriteSummaryCSV(&sum, Summarise(cells, []string{"accuracy"})); err != nil {
		t.Fatal(err)
	}
	if err := WriteFoldsCSV(&folds, cells, []string{"accuracy"}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"summary.csv": "dataset,pipeline,learner,params,reduction,metric,mean,std,n_folds\nd,scaled,base,,ova,accuracy,0.85",
		"folds.csv":   "dataset,pipeline,learner,params,reduction,repeat,fold,metric,value\nd,scaled,base,,ova,0,0,accuracy,0.8\n",
	} {
		got := map[string]string{"summary.csv": sum.String(), "folds.csv": folds.String()}[name]
		if !strings.HasPrefix(got, want) {
			t.Errorf("%s:\n%s\nwant it to start\n%s", name, got, want)
		}
	}
	files := renderFormats(t, Spec{Experiment: "p", Metrics: []string{"accuracy"}}, cells)
	// The tables name each row by its short name, the pipeline first where
	// the rows differ in it; the rows' table names the column pipeline.
	for name, want := range map[string]string{"p.md": "| scaled base | **0.8500 ± 0.0707** |", "p.html": `<th>pipeline</th>`, "p.tex": `scaled base & \textbf{0.8500 $\pm$ 0.0707}`} {
		if !strings.Contains(files[name], want) || strings.Contains(files[name], "encoder") {
			t.Errorf("%s: want %q and no encoder column:\n%s", name, want, files[name])
		}
	}
}
