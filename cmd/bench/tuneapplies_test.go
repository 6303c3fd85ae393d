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

// TestLDAShrinkageBesideAutoShrinkage: lda's shrinkage applies only when
// auto_shrinkage is false (Ledoit–Wolf replaces it), so a shrinkage set
// beside auto_shrinkage = true is warned of, as other parameters that do
// not apply are (campaign 21 N07: rows named shrinkage=0.9 held the
// numbers of auto_shrinkage alone, with no word); beside false it is not.
func TestLDAShrinkageBesideAutoShrinkage(t *testing.T) {
	for _, tc := range []struct {
		auto string
		warn bool
	}{{"true", true}, {"false", false}} {
		t.Run("auto_shrinkage="+tc.auto, func(t *testing.T) {
			file := writeExperiment(t, `experiment "t" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "lda" {
  params = { shrinkage = [0.5, 0.9], auto_shrinkage = `+tc.auto+` }
}
reduction "none" { scheme = "none" }
cv { folds = 3 }
`)
			_, stderr, err := bench(t, "validate", file)
			if err != nil {
				t.Fatalf("validate: %v\n%s", err, stderr)
			}
			const want = "shrinkage applies only when auto_shrinkage is false, which no combination of this experiment meets"
			if got := strings.Contains(stderr, "exp.hcl:4:14: warning: Parameter does not apply") && strings.Contains(stderr, want); got != tc.warn {
				t.Errorf("warned %v, want %v:\n%s", got, tc.warn, stderr)
			}
		})
	}
}
