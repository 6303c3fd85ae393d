package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateReservedExperimentName: experiment "manifest" with the json
// format wrote its JSON report to manifest.json, over the run manifest,
// and the report was lost. An experiment name whose report takes the
// name of a file the results directory keeps for itself is an error at
// the name, in any case (macOS and Windows compare names without it);
// a name that merely resembles one is fine. submit k8s, which checks the
// file alone, refuses it too.
func TestValidateReservedExperimentName(t *testing.T) {
	for _, tc := range []struct {
		name string
		want string // "" for none
	}{
		{"manifest", "exp.hcl:1:12: error: Reserved experiment name\n"},
		{"Manifest", "exp.hcl:1:12: error: Reserved experiment name\n"},
		{"manifest2", ""},
		{"summary", ""},
		{"run", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := writeExperiment(t, `experiment "`+tc.name+`" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "lda" {}
cv { folds = 3 }
output { formats = ["json", "markdown", "csv"] }
`)
			_, stderr, err := bench(t, "validate", file)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("validate refused experiment %q: %v\n%s", tc.name, err, stderr)
				}
				return
			}
			if err == nil {
				t.Fatalf("validate accepted experiment %q:\n%s", tc.name, stderr)
			}
			detail := `Experiment "` + tc.name + `": its report ` + tc.name + `.json would take the place of manifest.json in the results directory`
			_, k8s, k8sErr := runBench(t, "submit", "k8s", "--shards", "2", "--image", "reg.example.org/polyclass:2", "-o", filepath.Join(t.TempDir(), "res"), file)
			if k8sErr == nil {
				t.Errorf("submit k8s accepted experiment %q:\n%s", tc.name, k8s)
			}
			for _, out := range []string{stderr, k8s} {
				for _, want := range []string{tc.want, detail} {
					if !strings.Contains(out, want) {
						t.Errorf("stderr lacks %q:\n%s", want, out)
					}
				}
			}
		})
	}
}
