package config

import (
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// TestFaultyTuneError: a decoding error inside a learner's tune block
// faults its own range only, so that later checks of the learner's
// parameters and of the tune block's other settings are reported in the
// same pass (a new user's strategy = "random" without n_iter hid
// kernel = "gaussian" until the next validate; folds = 1 hid the tune
// metric). A syntax error in a tune block, and a decoding error outside
// one, still fault the whole learner block.
func TestFaultyTuneError(t *testing.T) {
	const head = `experiment "x" { seed = 3 }
dataset "iris" { path = "iris.csv" }
`
	for _, tc := range []struct {
		name, learner string
		// params, metric: whether the learner's params attribute and the
		// tune metric's value lie in a faulty range.
		params, metric bool
	}{
		{"random without n_iter", `learner "svm" {
  params = { kernel = "gaussian", C = [1, 10] }
  tune {
    strategy = "random"
    metric   = "acuracy"
  }
}
`, false, false},
		{"folds 1", `learner "svm" {
  params = { kernel = "gaussian", C = [1, 10] }
  tune {
    folds  = 1
    metric = "acuracy"
  }
}
`, false, false},
		{"syntax error in tune", `learner "svm" {
  params = { kernel = "gaussian", C = [1, 10] }
  tune { folds = 3, metric = "acuracy" }
}
`, true, true},
		{"error outside tune", `learner "svm" {
  params = { kernel = "gaussian", C = [1, 10] }
  class_weight = 3
  tune {
    metric = "acuracy"
  }
}
`, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exp, diags := parse(t, head+tc.learner)
			if diags == "" {
				t.Fatal("no error")
			}
			l := exp.Learners[0]
			faulty := func(r hcl.Range) bool { return slices.ContainsFunc(exp.Faulty, r.Overlaps) }
			if got := faulty(l.ParamsRange); got != tc.params {
				t.Errorf("params in a faulty range: %v, want %v (Faulty %v)\n%s", got, tc.params, exp.Faulty, diags)
			}
			if l.Tune == nil || l.Tune.Metric == "" {
				// The parser did not read the metric (a syntax error).
				if !tc.metric {
					t.Fatalf("no tune metric decoded:\n%s", diags)
				}
				return
			}
			if got := faulty(l.Tune.MetricRange); got != tc.metric {
				t.Errorf("tune metric in a faulty range: %v, want %v (Faulty %v)\n%s", got, tc.metric, exp.Faulty, diags)
			}
		})
	}
}
