package main

import (
	"strings"
	"testing"
)

// TestValidateTuneErrorNoApplyWarning: n_iter = 0 beside a search space
// is an error at n_iter; it also gave "svm: C applies only when always,
// which no combination of this experiment meets", since a tune block in
// error leaves the learner no parameter set to judge by. That warning is
// gone; a parameter that truly does not apply is still warned of.
func TestValidateTuneErrorNoApplyWarning(t *testing.T) {
	for _, tc := range []struct {
		name, params, tune string
		want, absent       []string
	}{
		{"n_iter 0 with a search space", `C = loguniform(0.01, 100)`, `strategy = "random"
    n_iter   = 0`,
			[]string{"exp.hcl:7:16: error: Invalid value", "n_iter must be a whole number >= 1, not 0."},
			[]string{"Parameter does not apply", "applies only when"}},
		{"gamma with a linear kernel", `kernel = "linear", gamma = 0.5, C = [1, 10]`, `folds = 3`,
			[]string{"warning: Parameter does not apply", "gamma applies only when"},
			nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := writeExperiment(t, `experiment "t" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "svm" {
  params = { `+tc.params+` }
  tune {
    `+tc.tune+`
  }
}
reduction "ova" {}
cv { folds = 3 }
`)
			_, stderr, _ := bench(t, "validate", file)
			for _, want := range tc.want {
				if !strings.Contains(stderr, want) {
					t.Errorf("validate's output lacks %q:\n%s", want, stderr)
				}
			}
			for _, no := range tc.absent {
				if strings.Contains(stderr, no) {
					t.Errorf("validate's output holds %q:\n%s", no, stderr)
				}
			}
		})
	}
}

// TestLDAParametersApply: lda's shrinkage applies only under method lda
// with auto_shrinkage false (Ledoit–Wolf replaces it), auto_shrinkage and
// tol only under method lda, ridge only under lsq and ridge: each set
// where it does not apply is warned of, as other parameters that do not
// apply are (campaign 21 N07, campaign 22 R07: rows named shrinkage=0.9,
// or ridge=5, held the numbers of the setting without it, with no word).
func TestLDAParametersApply(t *testing.T) {
	for _, tc := range []struct {
		name, params string
		warn         string // the parameter warned of; "" for none
	}{
		{"shrinkage beside auto_shrinkage", `shrinkage = [0.5, 0.9], auto_shrinkage = true`, "shrinkage"},
		{"shrinkage without auto_shrinkage", `shrinkage = [0.5, 0.9], auto_shrinkage = false`, ""},
		{"shrinkage under lsq", `method = "lsq", shrinkage = 0.5`, "shrinkage"},
		{"auto_shrinkage under lsq", `method = "lsq", auto_shrinkage = true`, "auto_shrinkage"},
		{"tol under ridge", `method = "ridge", tol = 1e-6`, "tol"},
		{"ridge under lda", `ridge = 5`, "ridge"},
		{"ridge under lsq", `method = "lsq", ridge = 5`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := writeExperiment(t, `experiment "t" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "lda" {
  params = { `+tc.params+` }
}
reduction "none" { scheme = "none" }
cv { folds = 3 }
`)
			_, stderr, err := bench(t, "validate", file)
			if err != nil {
				t.Fatalf("validate: %v\n%s", err, stderr)
			}
			warned := strings.Contains(stderr, "warning: Parameter does not apply")
			if tc.warn == "" {
				if warned {
					t.Errorf("a warning:\n%s", stderr)
				}
				return
			}
			if want := "Learner \"lda\" (plugin lda): " + tc.warn + " applies only when method is "; !warned || !strings.Contains(stderr, want) {
				t.Errorf("no warning %q:\n%s", want, stderr)
			}
		})
	}
}
