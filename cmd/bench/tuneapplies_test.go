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
