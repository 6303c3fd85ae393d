package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateOnePass: one run of validate on a file with 14 mistakes of
// every kind (a syntax error, data, encoder, learner parameters, tune, a
// code matrix's three problems, a metric, a baseline, cv, a pipeline
// step naming no encoder) reports every one of them, once each, at its
// file:line:column. Before, the syntax error hid the rest, a code matrix
// showed one problem per pass, metrics = ["acuracy"] was reported a
// second time, at no place, as the default tune metric, and the pipeline's
// unknown step went unreported beside the syntax error. The whole output is the golden
// testdata/onepass/want.txt (-update rewrites it).
func TestValidateOnePass(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "onepass", "exp.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	file := writeExperiment(t, string(src))
	_, stderr, err := bench(t, "validate", file)
	if err == nil {
		t.Fatalf("validate accepted a file with 14 mistakes:\n%s", stderr)
	}
	got := strings.ReplaceAll(stderr, filepath.Dir(file)+string(filepath.Separator), "")
	for _, want := range []string{
		"exp.hcl:15:19: error: Invalid single-argument block definition",
		"exp.hcl:8:3: error: Unsupported argument",
		"exp.hcl:36:14: error: Invalid value",
		"exp.hcl:5:25: error: Cannot load dataset",
		"exp.hcl:11:24: error: Unknown encoder type",
		"exp.hcl:17:28: error: Unknown parameter",
		"exp.hcl:23:32: error: Invalid parameter value",
		"exp.hcl:19:3: error: Nothing to tune",
		"exp.hcl:28:12: error: Invalid reduction",
		"code matrix entry [1][2] = 2: entries must be -1, 0 or +1; code matrix rows 0 and 2 are identical: the two classes cannot be told apart; code matrix: 4 rows but the task has 3 classes",
		"exp.hcl:39:14: error: Unknown baseline",
		"exp.hcl:43:12: error: Unknown metric",
		"exp.hcl:45:24: error: Unknown encoder",
		`Pipeline "p" names encoder "onehot", which is not declared.`,
		"exp.hcl: 12 error(s)",
	} {
		if n := strings.Count(got, want); n != 1 {
			t.Errorf("validate's output holds %q %d times, want once:\n%s", want, n, got)
		}
	}
	if n := strings.Count(got, `unknown metric "acuracy"`); n != 1 {
		t.Errorf(`metrics = ["acuracy"] reported %d times, want once:\n%s`, n, got)
	}
	// docs/experiment-file.md shows the heads of this output.
	var heads []string
	for line := range strings.Lines(got) {
		if strings.Contains(line, ": error: ") || strings.HasSuffix(line, "error(s)\n") {
			heads = append(heads, line)
		}
	}
	if doc := readFile(t, "../../docs/experiment-file.md"); !strings.Contains(doc, "```\n"+strings.Join(heads, "")+"```\n") {
		t.Errorf("docs/experiment-file.md lacks validate's one-pass output:\n%s", strings.Join(heads, ""))
	}
	golden := filepath.Join("testdata", "onepass", "want.txt")
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("validate's output differs from %s (-update rewrites it):\n got:\n%s\nwant:\n%s", golden, got, want)
	}
}

// TestValidateUnknownMetricOnce: an unknown first metric, which a tune
// block without its own metric tunes for, is one error at the metrics
// attribute; it was reported a second time, at no place, as the tune
// metric.
func TestValidateUnknownMetricOnce(t *testing.T) {
	file := writeExperiment(t, `experiment "m" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" {
  params = { C = [1, 2] }
  tune { folds = 3 }
}
reduction "ova" {}
metrics = ["acuracy"]
`)
	_, stderr, err := bench(t, "validate", file)
	if err == nil {
		t.Fatalf("validate accepted metrics = [\"acuracy\"]:\n%s", stderr)
	}
	if n := strings.Count(stderr, "error: "); n != 1 || !strings.Contains(stderr, file+":8:12: error: Unknown metric") || !strings.HasSuffix(stderr, file+": 1 error(s)\n") {
		t.Errorf("want one error, Unknown metric at %s:8:12; got %d:\n%s", file, n, stderr)
	}
}

// TestValidateTuneErrorHidesNothing: an error in a learner's tune block
// hides neither the learner's parameter errors nor the tune block's other
// errors. A new user's first file (issue 56, second trial) needed a
// second validate for kernel = "gaussian" behind strategy = "random"
// without n_iter, and for an unknown tune metric behind folds = 1. Each
// case's errors, all in one pass, each once.
func TestValidateTuneErrorHidesNothing(t *testing.T) {
	for _, tc := range []struct {
		name, tune string
		want       []string
	}{
		{"random without n_iter", `strategy = "random"
    metric   = "acuracy"`, []string{
			"exp.hcl:6:16: error: Missing n_iter",
			"exp.hcl:7:16: error: Unknown metric",
			"exp.hcl:4:23: error: Invalid parameter value",
			`kernel = "gaussian" is not one of "linear", "rbf", "poly", "sigmoid".`,
			"exp.hcl: 3 error(s)",
		}},
		{"folds 1", `folds    = 1
    metric   = "acuracy"`, []string{
			"exp.hcl:6:16: error: Invalid value",
			"folds must be a whole number >= 2, not 1.",
			"exp.hcl:7:16: error: Unknown metric",
			`tune metric: unknown metric "acuracy" (did you mean "accuracy"?)`,
			"exp.hcl:4:23: error: Invalid parameter value",
			"exp.hcl: 3 error(s)",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := writeExperiment(t, `experiment "t" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "svm" {
  params = { kernel = "gaussian", C = [1, 10] }
  tune {
    `+tc.tune+`
  }
}
reduction "ova" {}
metrics = ["accuracy"]
`)
			_, stderr, err := bench(t, "validate", file)
			if err == nil {
				t.Fatalf("validate accepted the file:\n%s", stderr)
			}
			got := strings.ReplaceAll(stderr, filepath.Dir(file)+string(filepath.Separator), "")
			for _, want := range tc.want {
				if n := strings.Count(got, want); n != 1 {
					t.Errorf("validate's output holds %q %d times, want once:\n%s", want, n, got)
				}
			}
		})
	}
}

// TestValidateMatrixWithoutData: a code matrix's own faults are reported
// in the same pass as a data path that does not load, though no dataset
// gives the classes to plan on (the reducer's CheckScheme). Before, they
// waited for a second validate, once the path was fixed (issue 56,
// second trial). Its row count, which needs the classes, is no error yet.
func TestValidateMatrixWithoutData(t *testing.T) {
	file := writeExperiment(t, `experiment "t" { seed = 1 }
dataset "iris" { path = "nope.csv" }
learner "logreg" {}
reduction "code" {
  scheme = "ecoc"
  matrix = [[1, -1, 2], [1, -1, 2]]
}
reduction "both" {
  scheme = "ecoc"
  matrix = [[1, -1], [-1, 1]]
  code   = "exhaustive"
}
reduction "neither" { scheme = "ecoc" }
reduction "ovo" {
  decode = "hamming"
  ties   = "libsvm"
}
metrics = ["accuracy"]
`)
	_, stderr, err := bench(t, "validate", file)
	if err == nil {
		t.Fatalf("validate accepted the file:\n%s", stderr)
	}
	got := strings.ReplaceAll(stderr, filepath.Dir(file)+string(filepath.Separator), "")
	for _, want := range []string{
		"exp.hcl:2:25: error: Cannot load dataset",
		"exp.hcl:6:12: error: Invalid reduction",
		"Reduction code: matrix: code matrix entry [0][2] = 2: entries must be -1, 0 or +1; code matrix entry [1][2] = 2: entries must be -1, 0 or +1; code matrix rows 0 and 1 are identical",
		"exp.hcl:10:12: error: Invalid reduction",
		"Reduction both: matrix: give either matrix or code, not both",
		"exp.hcl:13:32: error: Invalid reduction",
		`Reduction neither: scheme ecoc needs matrix = [[...], ...] or code`,
		"exp.hcl:16:12: error: Invalid reduction",
		`Reduction ovo: ties: ties = "libsvm" applies to decode = vote, not hamming`,
		"exp.hcl: 5 error(s)",
	} {
		if n := strings.Count(got, want); n != 1 {
			t.Errorf("validate's output holds %q %d times, want once:\n%s", want, n, got)
		}
	}
}
