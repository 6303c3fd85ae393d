package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// designRef reads a reference of cmd/bench/testdata/design (made by
// refs.py there) into v.
func designRef(t *testing.T, name string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(readFile(t, "testdata/design/"+name)), v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// TestClassWeightParity: glass (9 tableware rows of 214), standardize +
// logreg (C = 1) one-vs-all, with and without class_weight = "balanced",
// against scikit-learn's OneVsRestClassifier(LogisticRegression(
// class_weight="balanced")) on the same five folds: each binary problem
// is balanced from its own positives and negatives, as there.
func TestClassWeightParity(t *testing.T) {
	var ref map[string][]float64
	designRef(t, "class_weight.json", &ref)
	file := writeExperiment(t, `experiment "weights" { seed = 0 }
dataset "glass" {
  path       = "%DATA%/glass.csv"
  folds_file = "%REPO%/cmd/bench/testdata/design/glass.folds.csv"
}
encoder "std" { type = "standardize" }
learner "plain" {
  plugin = "logreg"
  params = { C = 1, tol = 1e-8 }
}
learner "balanced" {
  plugin       = "logreg"
  params       = { C = 1, tol = 1e-8 }
  class_weight = "balanced"
}
reduction "ova" { scheme = "ova" }
metrics = ["accuracy"]
`)
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	cells := readCells(t, out)
	differ := false
	for _, name := range []string{"plain", "balanced"} {
		c := cells["glass|"+name+"|ova"]
		if c == nil || len(c.Folds) != 5 {
			t.Fatalf("cell glass|%s|ova: %+v", name, c)
		}
		for _, f := range c.Folds {
			got, want := f.Metrics["accuracy"], ref[name][f.Fold]
			if math.Abs(got-want) > 1/float64(f.NTest)+1e-9 {
				t.Errorf("%s fold %d: accuracy %.6f, scikit-learn %.6f (%d test rows)", name, f.Fold, got, want, f.NTest)
			}
			if name == "balanced" && got != cells["glass|plain|ova"].Folds[f.Fold].Metrics["accuracy"] {
				differ = true
			}
		}
	}
	if !differ {
		t.Error("balanced and plain accuracies agree on every fold: the weights had no effect")
	}
}

// TestValidateClassWeight: class_weight that cannot apply is rejected by
// validate, located at the class_weight attribute.
func TestValidateClassWeight(t *testing.T) {
	file := writeExperiment(t, `experiment "cw" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "lda" { class_weight = "balanced" }
learner "logreg" { class_weight = { setosa = 2, "Iris-setosa" = 3 } }
learner "svm" { class_weight = "balanced" }
reduction "ova" {
  scheme       = "ova"
  learners     = ["svm"]
  class_weight = { setosa = 2 }
}
reduction "none" {
  scheme   = "none"
  learners = ["lda", "logreg"]
}
`)
	_, stderr, err := bench(t, "validate", file)
	if err == nil {
		t.Fatalf("validate accepted class weights that cannot apply:\n%s", stderr)
	}
	for _, want := range []string{
		`exp.hcl:3:32: error: Learner cannot take class weights`,
		`learner "lda" (plugin lda) does not take them`,
		`exp.hcl:4:35: error: Unknown class`,
		`learner logreg: class_weight names class "Iris-setosa", which no dataset it meets has.`,
		`exp.hcl:9:18: error: Conflicting class weights`,
		`Reduction "ova" and learner "svm" both set class_weight`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("missing %q", want)
		}
	}
	if strings.Contains(stderr, `"setosa", which`) {
		t.Error("setosa is a class of iris")
	}
	if t.Failed() {
		t.Logf("stderr:\n%s", stderr)
	}
}
