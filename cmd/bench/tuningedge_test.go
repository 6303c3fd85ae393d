package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestTuningEdgeWarning: logreg on iris tuned over C ∈ {0.0001, 0.001,
// 0.01}, a grid far below its best C, chooses its highest value in every
// outer fold; the run warns on stderr and in run.log, and the report's
// tuning section says so too, each naming the row as the tables do
// ("logreg", not "logreg none").
func TestTuningEdgeWarning(t *testing.T) {
	skipUnderRace(t, "a report check of the tuning choices; the engine's tuning concurrency is raced by framework/engine")
	src := `experiment "edge" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
encoder "std" { type = "standardize" }
learner "logreg" {
  params = { C = [0.0001, 0.001, 0.01] }
  tune { folds = 3 }
}
reduction "none" { scheme = "none" }
cv { folds = 5 }
metrics = ["accuracy"]
output { formats = ["markdown", "html"] }
`
	out := t.TempDir()
	_, stderr, err := bench(t, "run", "-o", out, writeExperiment(t, src))
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	warn := regexp.MustCompile(`iris: logreg chose C = 0\.01, the highest value of its grid \(0\.0001, 0\.001, 0\.01\), in 5 of 5 outer folds; the best C may lie beyond the grid: widen it if C can go higher`)
	if !warn.MatchString(stderr) || !strings.Contains(stderr, "warning: tuning: ") {
		t.Errorf("stderr lacks the warning:\n%s", stderr)
	}
	if log := readFile(t, filepath.Join(out, "run.log")); !warn.MatchString(log) {
		t.Errorf("run.log lacks the warning:\n%s", log)
	}
	md := readFile(t, filepath.Join(out, "edge.md"))
	sel := md[strings.Index(md, "## Selected parameters"):]
	if !warn.MatchString(sel) || !strings.Contains(sel, "| iris | logreg | C=0.01 (") {
		t.Errorf("the tuning section lacks the warning:\n%s", sel)
	}
	if html := readFile(t, filepath.Join(out, "edge.html")); !strings.Contains(html, `<p class="stats note tuning-edge">Warning: iris: logreg chose C = 0.01`) {
		t.Errorf("the HTML report lacks the warning")
	}
}
