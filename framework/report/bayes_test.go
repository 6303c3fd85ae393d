package report

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/stats"
)

// bayesCells: rows base, up (about +0.02) and same (base's scores) on
// three datasets, ten folds of 90/10 rows each.
func bayesCells() []*outcome.CellResult {
	base := [][]float64{
		{0.80, 0.82, 0.79, 0.81, 0.80, 0.83, 0.78, 0.80, 0.82, 0.81},
		{0.70, 0.72, 0.71, 0.69, 0.73, 0.70, 0.71, 0.72, 0.70, 0.69},
		{0.90, 0.91, 0.89, 0.92, 0.90, 0.88, 0.91, 0.90, 0.93, 0.90},
	}
	shift := []float64{0.03, 0.01, -0.01, 0.02, 0.04, 0.01, 0.02, 0.03, 0.01, 0.02}
	var cells []*outcome.CellResult
	for d, ds := range []string{"d1", "d2", "d3"} {
		up := make([]float64, 10)
		for i := range up {
			up[i] = base[d][i] + shift[(i+d)%10]
		}
		cells = append(cells,
			mkCell(ds, "base", "", "ova", 90, 10, withErr(base[d])),
			mkCell(ds, "up", "", "ova", 90, 10, withErr(up)),
			mkCell(ds, "same", "", "ova", 90, 10, withErr(base[d])))
	}
	return cells
}

func foldScores(c *outcome.CellResult, m string) []float64 {
	var out []float64
	for _, f := range c.Folds {
		out = append(out, f.Metrics[m])
	}
	return out
}

func negated(x []float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = -v
	}
	return out
}

// TestBayesAgainstBaseline: each row against the baseline (right); per
// dataset the correlated t-test of package stats on the rows' fold scores
// (error negated, lower being better), across datasets the signed-rank
// test on their means from the pair's seed; accuracy and error, which
// mirror each other, give the same probabilities; the numbers of a pair
// do not depend on the other rows; "same" is within the rope everywhere.
func TestBayesAgainstBaseline(t *testing.T) {
	rope := 0.01
	cells := bayesCells()
	tables := BuildTables(Spec{Experiment: "b", Metrics: []string{"accuracy", "error"}, Baseline: "base", Rope: &rope, Seed: 5}, cells)
	acc, errT := tables.Metrics[0], tables.Metrics[1]
	if acc.Bayes == nil || len(acc.Bayes.Pairs) != 2 || acc.Bayes.AllPairs {
		t.Fatalf("bayes %+v", acc.Bayes)
	}
	up := acc.Bayes.Pairs[0]
	if acc.Rows[up.Left].Label != "up" || acc.Rows[up.Right].Label != "base" {
		t.Fatalf("first pair %s vs %s", acc.Rows[up.Left].Label, acc.Rows[up.Right].Label)
	}
	for d := range 3 {
		want, err := stats.BayesCorrelatedTTest(foldScores(cells[3*d+1], "accuracy"), foldScores(cells[3*d], "accuracy"), 900, 100, rope)
		if err != nil {
			t.Fatal(err)
		}
		if got := up.Datasets[d]; got == nil || *got != want {
			t.Errorf("d%d: %+v, want %+v", d+1, got, want)
		}
		e := errT.Bayes.Pairs[0].Datasets[d]
		wantErr, _ := stats.BayesCorrelatedTTest(negated(foldScores(cells[3*d+1], "error")), negated(foldScores(cells[3*d], "error")), 900, 100, rope)
		if *e != wantErr || math.Abs(e.PLeft-want.PLeft) > 1e-9 || math.Abs(e.PRight-want.PRight) > 1e-9 {
			t.Errorf("d%d error: %+v, accuracy %+v", d+1, e, want)
		}
		// The left row (up) is better: P(left) is the larger tail.
		if !(want.PLeft > want.PRight) || math.Abs(acc.leftMinusRight(up.Datasets[d])-(acc.Entries[1][d].Mean-acc.Entries[0][d].Mean)) > 1e-12 {
			t.Errorf("d%d: posterior %+v, means %v %v", d+1, want, acc.Entries[1][d].Mean, acc.Entries[0][d].Mean)
		}
		if s := acc.Bayes.Pairs[1]; s.Datasets[d] != nil || s.NoTest[d] != "zero variance (all 10 differences equal)" {
			t.Errorf("d%d: same vs base %+v (%q), want no test: zero variance", d+1, s.Datasets[d], s.NoTest[d])
		}
	}
	var xs, ys []float64
	for d := range 3 {
		xs, ys = append(xs, acc.Entries[1][d].Mean), append(ys, acc.Entries[0][d].Mean)
	}
	seed := bayesSeed(5, "up ova", "base ova")
	want, err := stats.BayesSignedRank(xs, ys, rope, 0.5, stats.DefaultSignedRankSamples, stats.NewDirichletSource([]float64{0.5, 1, 1, 1}, seed))
	if err != nil {
		t.Fatal(err)
	}
	if up.Across == nil || up.Across.Posterior3 != want.Posterior3 || up.Seed != seed || len(up.AcrossDatasets) != 3 {
		t.Errorf("signed-rank %+v, want %+v", up.Across, want.Posterior3)
	}
	if e := errT.Bayes.Pairs[0].Across; e.Posterior3 != want.Posterior3 {
		t.Errorf("error's signed-rank %v, accuracy's %v", e.Posterior3, want.Posterior3)
	}
	// Without the row "same", the pair (up, base) draws the same samples.
	alone := BuildTables(Spec{Experiment: "b", Metrics: []string{"accuracy"}, Baseline: "base", Rope: &rope, Seed: 5},
		[]*outcome.CellResult{cells[0], cells[1], cells[3], cells[4], cells[6], cells[7]})
	if a := alone.Metrics[0].Bayes.Pairs[0].Across; a.Posterior3 != want.Posterior3 {
		t.Errorf("with fewer rows: %v, want %v", a.Posterior3, want.Posterior3)
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, tables, cells); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"### accuracy: Bayesian comparisons against the baseline (rope 0.01)\n\n| left | right | d1 | d2 | d3 | across datasets |\n",
		"| same | base (baseline) | no test: zero variance (all 10 differences equal) | no test: zero variance (all 10 differences equal) | no test: zero variance (all 10 differences equal) | no test: all 3 differences zero |"} {
		if !strings.Contains(md.String(), s) {
			t.Errorf("markdown lacks %q:\n%s", s, md.String())
		}
	}
	// Another seed, other Monte Carlo samples.
	other := BuildTables(Spec{Experiment: "b", Metrics: []string{"accuracy"}, Baseline: "base", Rope: &rope, Seed: 6}, cells)
	if o := other.Metrics[0].Bayes.Pairs[0]; o.Seed == up.Seed || o.Across.Samples[0] == up.Across.Samples[0] {
		t.Errorf("seed 6 drew the samples of seed 5")
	}
}

// TestBayesPairs: bayes_pairs compares every pair of rows, the earlier
// row on the left, without a baseline; rope 0 gives P(left) / P(right).
func TestBayesPairs(t *testing.T) {
	rope := 0.0
	cells := bayesCells()
	tables := BuildTables(Spec{Experiment: "b", Metrics: []string{"accuracy"}, Rope: &rope, BayesPairs: true, Seed: 5}, cells)
	c := tables.Metrics[0]
	var got []string
	for _, p := range c.Bayes.Pairs {
		got = append(got, c.Rows[p.Left].Label+" vs "+c.Rows[p.Right].Label)
		if c.Rows[p.Left].Label == "base" && c.Rows[p.Right].Label == "same" {
			continue // identical rows: no test (zero variance)
		}
		for d, post := range p.Datasets {
			if post.PRope != 0 || math.Abs(post.PLeft+post.PRight-1) > 1e-12 {
				t.Errorf("%s on d%d: %+v", got[len(got)-1], d+1, post.Posterior3)
			}
		}
		if p.Across.PRope != 0 {
			t.Errorf("%s: signed-rank %+v with rope 0", got[len(got)-1], p.Across.Posterior3)
		}
	}
	if strings.Join(got, ", ") != "base vs up, base vs same, up vs same" || !c.Bayes.AllPairs {
		t.Errorf("pairs %v", got)
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, tables, cells); err != nil {
		t.Fatal(err)
	}
	// base and same are identical: zero variance, no test.
	if !strings.Contains(md.String(), "### accuracy: Bayesian comparisons between every pair of rows (rope 0)") ||
		!strings.Contains(md.String(), "| base | same | no test: zero variance (all 10 differences equal) | no test: zero variance (all 10 differences equal) | no test: zero variance (all 10 differences equal) | no test: all 3 differences zero |") {
		t.Errorf("markdown:\n%s", md.String())
	}
}

// TestBayesFigures: with several datasets a simplex per pair tested (none
// for "same", identical to the baseline: zero variance), with one the
// posterior density; a single split has no correlated t-test.
func TestBayesFigures(t *testing.T) {
	rope := 0.01
	cells := bayesCells()
	tables := BuildTables(Spec{Experiment: "b", Metrics: []string{"accuracy"}, Baseline: "base", Rope: &rope}, cells)
	figs, err := BuildFigures(tables, cells, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range figs {
		if strings.HasPrefix(f.Name, "bayes_") {
			names = append(names, f.Name+": "+f.Caption)
		}
	}
	want := []string{
		"bayes_accuracy_up_vs_base: accuracy: up vs base across 3 datasets: 50000 Monte Carlo samples of the Bayesian signed-rank test's posterior (rope 0.01)",
	}
	if strings.Join(names, "\n") != strings.Join(want, "\n") {
		t.Errorf("figures\n%s\nwant\n%s", strings.Join(names, "\n"), strings.Join(want, "\n"))
	}
	one := BuildTables(Spec{Experiment: "b", Metrics: []string{"accuracy"}, Baseline: "base", Rope: &rope}, cells[:3])
	figs, err = BuildFigures(one, cells[:3], nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range figs {
		if f.Name == "bayes_accuracy_up_vs_base" {
			found = strings.Contains(f.Caption, "on d1: posterior of the mean difference of the fold scores (Bayesian correlated t-test, rope 0.01)")
			if _, err := f.Fig.PNG(); err != nil {
				t.Error(err)
			}
		}
	}
	if !found {
		t.Errorf("no density figure for one dataset")
	}
	// A holdout: one split, no correlated t-test.
	hold := []*outcome.CellResult{
		mkCell("h", "base", "", "ova", 90, 10, withErr([]float64{0.8})),
		mkCell("h", "up", "", "ova", 90, 10, withErr([]float64{0.9})),
	}
	ht := BuildTables(Spec{Experiment: "h", Metrics: []string{"accuracy"}, Baseline: "base", Rope: &rope}, hold)
	if p := ht.Metrics[0].Bayes.Pairs[0]; p.Datasets[0] != nil || p.Across != nil {
		t.Errorf("holdout: %+v", p)
	}
	var md bytes.Buffer
	WriteMarkdown(&md, ht, hold)
	if !strings.Contains(md.String(), "| up | base (baseline) | no test: 1 split (needs at least 2) |") {
		t.Errorf("holdout markdown:\n%s", md.String())
	}
}

// TestBayesReference: the report's correlated t-test of up against base
// (left up, right base) on each dataset of bayesCells, accuracy and error
// alike, against scipy's Student t from the definition
// (testdata/bayes_report_reference.py): the fold differences are a
// rotation of one another, so every dataset has mean difference 0.018,
// scale √((1/10 + 1/9)·s²) = 0.0064253 and P(left) = 0.87773.
func TestBayesReference(t *testing.T) {
	ref := [][5]float64{ // mean of up − base, scale, P(left), P(rope), P(right)
		{0.018000000000000016, 0.006425258797689322, 0.8777289599101679, 0.12135637999283211, 0.0009146600970000277},
		{0.018000000000000016, 0.006425258797689322, 0.8777289599101679, 0.12135637999283211, 0.0009146600970000277},
		{0.018000000000000016, 0.006425258797689321, 0.8777289599101679, 0.12135637999283211, 0.0009146600970000271},
	}
	rope := 0.01
	tables := BuildTables(Spec{Experiment: "b", Metrics: []string{"accuracy", "error"}, Baseline: "base", Rope: &rope, Seed: 5}, bayesCells())
	for _, c := range tables.Metrics {
		for d, want := range ref {
			got := c.Bayes.Pairs[0].Datasets[d]
			diff := c.leftMinusRight(got)
			if !c.HigherIsBetter {
				diff = -diff // error: base − up in error is up − base in accuracy
			}
			for i, g := range []float64{diff, got.Scale, got.PLeft, got.PRope, got.PRight} {
				if math.Abs(g-want[i]) > 1e-9 {
					t.Errorf("%s d%d: value %d = %.15g, scipy %.15g", c.Metric, d+1, i, g, want[i])
				}
			}
		}
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, tables, bayesCells()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| up | base (baseline) | 0.878 / 0.121 / 0.001 | 0.878 / 0.121 / 0.001 | 0.878 / 0.121 / 0.001 |") {
		t.Errorf("markdown:\n%s", md.String())
	}
}
