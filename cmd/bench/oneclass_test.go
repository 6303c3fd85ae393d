package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneClassTestFileReport: a test file holding one class (the first 10
// iris rows, all setosa; the other 140 train) with every output format. The macro-averaged ROC
// curve is undefined there (no class has both positive and negative test
// rows; its AUC is "–"): the curves figure leaves it out and says so in
// its caption, and every table and figure is written, with the numbers of
// the split (accuracy 1 on the 10 setosa rows). Before, the run ended
// with "plotter: NaN data point" and no table at all.
func TestOneClassTestFileReport(t *testing.T) {
	iris := readFile(t, "../../experiments/data/iris.csv")
	lines := strings.SplitAfter(iris, "\n")
	dir := t.TempDir()
	trainFile, testFile := filepath.Join(dir, "train.csv"), filepath.Join(dir, "setosa.csv")
	if err := os.WriteFile(trainFile, []byte(lines[0]+strings.Join(lines[11:], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(testFile, []byte(strings.Join(lines[:11], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	file := writeExperiment(t, `experiment "onecls" { seed = 1 }
dataset "d" {
  path      = "`+trainFile+`"
  test_path = "`+testFile+`"
}
learner "logreg" {}
metrics = ["accuracy"]
output { formats = ["markdown", "csv", "json", "latex", "html", "plots"] }
`)
	out := filepath.Join(dir, "out")
	_, stderr, err := bench(t, "run", "-o", out, file)
	if err != nil || strings.Contains(stderr, "warning") {
		t.Fatalf("run: %v\n%s", err, stderr)
	}
	for name, wants := range map[string][]string{
		"summary.csv": {"d,none,logreg,,none,accuracy,1,0,1\n"},
		"folds.csv":   {"d,none,logreg,,none,0,0,accuracy,1\n"},
		"per_class.csv": {"d,logreg,setosa,1.0000,1.0000,1.0000,10\n", "d,logreg,versicolor,0.0000,0.0000,0.0000,0\n",
			"d,logreg,accuracy,,,1.0000,10\n"},
		"onecls.md":   {"| logreg | **1.0000** | 1.00 |", "| logreg | – | 1.0000 | 1.0000 | 1.0000 |"},
		"onecls.tex":  {"1.0000"},
		"onecls.json": {`"d"`},
		"onecls.html": {"left out, undefined: the macro-average ROC curve (no class has both positive and negative rows)"},
	} {
		got := readFile(t, filepath.Join(out, name))
		for _, want := range wants {
			if !strings.Contains(got, want) {
				t.Errorf("%s lacks %q:\n%s", name, want, got)
			}
		}
	}
	for _, fig := range []string{"box_accuracy", "confusion_d_logreg", "curves_d_logreg", "reliability_d_logreg"} {
		for _, ext := range []string{".png", ".svg"} {
			if st, err := os.Stat(filepath.Join(out, "plots", fig+ext)); err != nil || st.Size() < 1000 {
				t.Errorf("plots/%s%s: %v", fig, ext, err)
			}
		}
	}
	// The tables render again from the results directory alone.
	if _, stderr, err := bench(t, "table", out); err != nil || strings.Contains(stderr, "warning") {
		t.Errorf("table: %v\n%s", err, stderr)
	}
}
