package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// TestBayesInRun: a run with output { rope } reports, beside each entry
// tested against the baseline, its p-value and effect size, and a table of
// Bayesian comparisons whose correlated t-test, per dataset, is the
// Student t posterior of the fold differences in folds.csv (computed here
// from the definition: J − 1 degrees of freedom, scale √((1/J +
// ρ/(1 − ρ))·s²), ρ = n_test/n = 1/5 on 5 folds) and, on 2 datasets, no
// signed-rank test (it needs 3); the manifest keeps the rope, so bench
// table renders the same report again.
func TestBayesInRun(t *testing.T) {
	skipUnderRace(t, "the Bayesian tests are arithmetic on the finished folds, the same code under either pass")
	src := `experiment "bayesrun" { seed = 4 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
dataset "wine" { path = "%REPO%/experiments/data/wine.csv" }
encoder "std" { type = "standardize" }
learner "logreg" { params = { C = [0.01, 1] } }
reduction "ova" { scheme = "ova" }
cv { folds = 5 }
metrics = ["accuracy"]
output {
  formats  = ["markdown", "csv", "json", "latex"]
  baseline = "logreg C=1 ova"
  rope     = 0.01
}
`
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, writeExperiment(t, src)); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	var rep struct {
		Metrics []struct {
			Bayes struct {
				Rope  float64
				Pairs []struct {
					Left, Right string
					Datasets    []struct {
						Dataset                            string
						PLeft, PRope, PRight, MeanDiff, DF float64
					}
					SignedRank       *struct{ PLeft, PRope, PRight float64 } `json:"signed_rank"`
					SignedRankNoTest string                                  `json:"signed_rank_no_test"`
				}
			}
		}
	}
	b := []byte(readFile(t, filepath.Join(out, "bayesrun.json")))
	if err := json.Unmarshal(snakeless(b), &rep); err != nil {
		t.Fatal(err)
	}
	pairs := rep.Metrics[0].Bayes.Pairs
	if len(pairs) != 1 || pairs[0].Left != "logreg C=0.01" || pairs[0].Right != "logreg C=1" || len(pairs[0].Datasets) != 2 {
		t.Fatalf("pairs %+v", pairs)
	}
	for _, d := range pairs[0].Datasets {
		x, y := foldValues(t, out, "logreg C=0.01 ova", d.Dataset), foldValues(t, out, "logreg C=1 ova", d.Dataset)
		diff := make([]float64, len(x))
		for i := range x {
			diff[i] = x[i] - y[i] // left − right: positive when the left row is better
		}
		mean, sd := stat.MeanStdDev(diff, nil)
		j := float64(len(diff))
		post := distuv.StudentsT{Mu: mean, Sigma: math.Sqrt((1/j + 0.2/0.8) * sd * sd), Nu: j - 1}
		want := []float64{1 - post.CDF(0.01), post.CDF(0.01) - post.CDF(-0.01), post.CDF(-0.01), mean, j - 1}
		for i, got := range []float64{d.PLeft, d.PRope, d.PRight, d.MeanDiff, d.DF} {
			if math.Abs(got-want[i]) > 1e-9 {
				t.Errorf("%s: value %d of %+v, want %v", d.Dataset, i, d, want)
			}
		}
	}
	// Two datasets are too few for the signed-rank test: no numbers, the
	// reason instead.
	if p := pairs[0]; p.SignedRank != nil || p.SignedRankNoTest != "2 datasets (needs at least 3)" {
		t.Errorf("signed-rank %+v, no test %q", p.SignedRank, p.SignedRankNoTest)
	}
	mdPath := filepath.Join(out, "bayesrun.md")
	md := readFile(t, mdPath)
	for _, want := range []string{
		"### accuracy: Bayesian comparisons against the baseline (rope 0.01)",
		"| logreg C=0.01 | logreg C=1 (baseline) | ",
		" | no test: 2 datasets (needs at least 3) |\n",
		"(p = ",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if err := os.Remove(mdPath); err != nil {
		t.Fatal(err)
	}
	if _, stderr, err := bench(t, "table", out); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if again := readFile(t, mdPath); again != md {
		t.Errorf("bench table wrote another report:\n%s\nwant\n%s", again, md)
	}
}

// snakeless drops the underscores of the JSON's keys (p_left → pleft), so
// that encoding/json matches them to the Go fields case-insensitively.
func snakeless(b []byte) []byte {
	return []byte(strings.NewReplacer(`"p_left"`, `"pleft"`, `"p_rope"`, `"prope"`, `"p_right"`, `"pright"`, `"mean_diff"`, `"meandiff"`).Replace(string(b)))
}

// foldValues reads a row's accuracy on dataset from folds.csv, in fold
// order.
func foldValues(t *testing.T, dir, label, dataset string) []float64 {
	t.Helper()
	var out []float64
	for _, r := range foldRecords(t, dir, label, dataset, "accuracy") {
		v, err := strconv.ParseFloat(r[8], 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}
