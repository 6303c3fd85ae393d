package report

import (
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/outcome"
)

// TestCSVCell: a field a spreadsheet would read as a formula (it starts
// with =, +, -, @, a tab or a carriage return, and is not a number) gets
// a single quote before it; numbers and other text stay as they are.
func TestCSVCell(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"setosa", "setosa"},
		{"=1+2", "'=1+2"},
		{`=HYPERLINK("http://x","y")`, `'=HYPERLINK("http://x","y")`},
		{"+cmd", "'+cmd"},
		{"-x", "'-x"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\t=1", "'\t=1"},
		{"\r=1", "'\r=1"},
		{"-0.5", "-0.5"},
		{"+1", "+1"},
		{"-1e-300", "-1e-300"},
		{"-1e999", "-1e999"},
		{"-Inf", "-Inf"},
		{"+NaN", "'+NaN"}, // not a number to strconv
		{"a=1", "a=1"},
		{"C=-0.5", "C=-0.5"},
		{"'=1", "'=1"},
		{"-", "'-"},
	} {
		if got := csvCell(tc.in); got != tc.want {
			t.Errorf("csvCell(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// formula reports whether a spreadsheet would read field as a formula:
// it starts with =, +, -, @, a tab or a carriage return, and Go does
// not read it as a number.
func formula(field string) bool {
	_, err := strconv.ParseFloat(field, 64)
	return field != "" && strings.ContainsRune("=+-@\t\r", rune(field[0])) && err != nil && !errors.Is(err, strconv.ErrRange)
}

// hostileCSVCells are two cells whose dataset, learner, parameters,
// reduction, pipeline, classes and tuning candidates start with formula
// characters (and one class is the number -0.5), with confusion matrices,
// predictions and tuning scores, so that every CSV file of a report
// holds them.
func hostileCSVCells() []*outcome.CellResult {
	classes := []string{"=1+2", "-0.5", "@SUM(A1)"}
	var cells []*outcome.CellResult
	for i, learner := range []string{"+learner", "-learner"} {
		scores := mat.NewDense(3, 3, []float64{0.8, 0.1, 0.1, 0.2, 0.7, 0.1, 0.1, 0.1, 0.8})
		c := &outcome.CellResult{
			ID:      outcome.ID{Dataset: "-ds", Encoder: "=pipe", Learner: learner, Params: "@p=1", Reduction: "\tred"},
			Classes: classes, TuneMetric: "accuracy", TuneCandidates: []string{"=C=1", "C=2"},
		}
		for f := range 3 {
			acc := 0.6 + 0.1*float64(i+f)
			c.Folds = append(c.Folds, outcome.FoldResult{Fold: f, NTrain: 6, NTest: 3,
				Metrics:   map[string]float64{"accuracy": acc},
				Confusion: [][]int{{1, 0, 0}, {0, 1, 0}, {0, 1, 0}},
				Predictions: &outcome.Predictions{Rows: []int{3 * f, 3*f + 1, 3*f + 2}, True: []int{0, 1, 2}, Predicted: []int{0, 1, 1},
					Scores: scores},
				TuneScores: []float64{0.5, 0.6}, Chosen: "=C=1"})
		}
		cells = append(cells, c)
	}
	return cells
}

// TestCSVFilesQuoteFormulas writes every CSV file of a report (summary,
// folds, tuning, per_class, predictions) from cells whose every name
// starts with a formula character, reads each back, and checks that no
// field that is not a number starts with one (OWASP's rule), that the
// hostile names are there with one quote before them, and that the
// number -0.5 is untouched. On the code before, "=1+2" and "+learner"
// were written bare.
func TestCSVFilesQuoteFormulas(t *testing.T) {
	dir := t.TempDir()
	spec := Spec{Experiment: "x", Metrics: []string{"accuracy"}, Formats: []string{"csv"}, Predictions: true}
	if _, err := writeAll(dir, spec, hostileCSVCells()); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file  string
		wants []string // fields that must occur
	}{
		{"summary.csv", []string{"'-ds", "'=pipe", "'+learner", "'-learner", "'@p=1", "'\tred"}},
		{"folds.csv", []string{"'-ds", "'+learner"}},
		{"tuning.csv", []string{"'-ds", "'=C=1", "C=2"}},
		{"per_class.csv", []string{"'-ds", "'=1+2", "-0.5", "'@SUM(A1)"}},
		{"predictions/-ds.csv", []string{"'-ds", "'=1+2", "-0.5", "score_=1+2"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f, err := os.Open(filepath.Join(dir, filepath.FromSlash(tc.file)))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			records, err := csv.NewReader(f).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for r, rec := range records {
				for c, field := range rec {
					seen[field] = true
					if formula(field) {
						t.Errorf("record %d field %d: %q would run as a formula", r+1, c+1, field)
					}
				}
			}
			for _, w := range tc.wants {
				if !seen[w] {
					t.Errorf("no field %q in %s", w, tc.file)
				}
			}
		})
	}
}
