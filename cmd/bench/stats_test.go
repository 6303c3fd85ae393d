package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStatisticsCaveats runs logreg at three C on iris, wine and vehicle
// (3-fold CV) with a baseline and fit_seconds: the accuracy table carries
// the Friedman test and, against the baseline, Holm's and the
// Bonferroni–Dunn tests with the control CD diagram; the fit_seconds table
// has no ranks or tests, unless output { rank_timings = true }, which the
// manifest keeps for bench table.
func TestStatisticsCaveats(t *testing.T) {
	skipUnderRace(t, "its time goes to the statistics and plots written by one goroutine after the run")
	src := `experiment "caveats" { seed = 2 }
dataset "iris"    { path = "%REPO%/experiments/data/iris.csv" }
dataset "wine"    { path = "%REPO%/experiments/data/wine.csv" }
dataset "vehicle" { path = "%REPO%/experiments/data/vehicle.csv" }
encoder "std" { type = "standardize" }
learner "logreg" { params = { C = [0.01, 1, 100] } }
reduction "ova" { scheme = "ova" }
cv { folds = 3 }
metrics = ["accuracy", "fit_seconds"]
output {
  formats  = ["markdown", "json", "plots"]
  baseline = "logreg C=0.01 ova"
  %RANK%
}
`
	for _, tc := range []struct {
		name, rank string
		ranked     bool
	}{
		{"default", "", false},
		{"rank_timings", "rank_timings = true", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			file := writeExperiment(t, strings.Replace(src, "%RANK%", tc.rank, 1))
			if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			check := func(md string) {
				t.Helper()
				acc := md[strings.Index(md, "## accuracy"):strings.Index(md, "## fit_seconds")]
				fit := md[strings.Index(md, "## fit_seconds"):]
				for _, want := range []string{"| row | iris | wine | vehicle | avg. rank | w/t/l |",
					"Across 3 datasets: Friedman χ²_F = ", "Against the baseline logreg C=0.01 (avg. rank ",
					"with Holm's step-down procedure at α = 0.05: ", "Bonferroni–Dunn critical difference CD = 1.830"} {
					if !strings.Contains(acc, want) {
						t.Errorf("accuracy section lacks %q:\n%s", want, acc)
					}
				}
				head := "| row | iris | wine | vehicle |\n"
				if tc.ranked {
					head = "| row | iris | wine | vehicle | avg. rank | w/t/l |\n"
				}
				if !strings.Contains(fit, head) || strings.Contains(fit, "Friedman") == !tc.ranked ||
					strings.Contains(fit, "timing metric: reported, not ranked or tested") == tc.ranked {
					t.Errorf("fit_seconds section (ranked %v):\n%s", tc.ranked, fit)
				}
			}
			check(readFile(t, filepath.Join(out, "caveats.md")))
			if _, err := os.Stat(filepath.Join(out, "plots", "cd_control_accuracy.png")); err != nil {
				t.Errorf("no control CD diagram: %v", err)
			}
			if _, err := os.Stat(filepath.Join(out, "plots", "cd_fit_seconds.png")); (err == nil) != tc.ranked {
				t.Errorf("cd_fit_seconds.png: %v, want it only with rank_timings", err)
			}
			js := readFile(t, filepath.Join(out, "caveats.json"))
			if !strings.Contains(js, `"mean_diff": `) || !strings.Contains(js, `"ci95": [`) || !strings.Contains(js, `"holm_p": `) {
				t.Errorf("json lacks effect sizes or Holm's tests")
			}
			// bench table renders the same tables from the manifest.
			os.Remove(filepath.Join(out, "caveats.md"))
			if _, stderr, err := bench(t, "table", out); err != nil {
				t.Fatalf("table: %v\n%s", err, stderr)
			}
			check(readFile(t, filepath.Join(out, "caveats.md")))
		})
	}
}
