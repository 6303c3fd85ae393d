package main

import (
	"strings"
	"testing"
)

// TestValidateConfusableNames: bench validate warns of two dataset names
// that differ only by a Cyrillic homoglyph, naming both where the second
// is, and refuses a learner label holding a right-to-left override at
// the label. On the code before, the file validated "ok".
func TestValidateConfusableNames(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		fails     bool
		wants     []string
	}{
		{name: "Cyrillic i", src: `experiment "c" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
dataset "іris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" {}
`, wants: []string{
			`exp.hcl:3:1: warning: Confusable names`,
			`The dataset "\u0456ris" (shown as "іris") looks like the dataset "iris" (shown as "iris") declared at `,
		}},
		{name: "bidi override in a label", fails: true, src: `experiment "c" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" { label = "LR` + "\u202e" + `x" }
`, wants: []string{
			`exp.hcl:3:28: error: Invalid label`,
			`The label of learner "logreg" holds a right-to-left override (U+202E) at character 3`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, err := bench(t, "validate", writeExperiment(t, tc.src))
			if (err != nil) != tc.fails {
				t.Fatalf("validate error %v, want failure %v:\n%s", err, tc.fails, stderr)
			}
			for _, want := range tc.wants {
				if !strings.Contains(stderr, want) {
					t.Errorf("missing %q in\n%s", want, stderr)
				}
			}
		})
	}
}
