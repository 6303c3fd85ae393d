package engine

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/param"
)

// TestHyperbandScheduleMatchesPaper: for R = 81 and eta = 3 the brackets
// are Table 1 of Li et al., "Hyperband" (JMLR 18, 2018): per bracket s,
// n_i candidates on r_i resources in each round i.
func TestHyperbandScheduleMatchesPaper(t *testing.T) {
	want := []struct {
		s    int
		n, r []int
	}{
		{4, []int{81, 27, 9, 3, 1}, []int{1, 3, 9, 27, 81}},
		{3, []int{34, 11, 3, 1}, []int{3, 9, 27, 81}},
		{2, []int{15, 5, 1}, []int{9, 27, 81}},
		{1, []int{8, 2}, []int{27, 81}},
		{0, []int{5}, []int{81}},
	}
	got, err := hyperbandSchedule(1000, 81, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d brackets, want %d", len(got), len(want))
	}
	for i, b := range got {
		var n, r []int
		for _, round := range b.rounds {
			n, r = append(n, round.candidates), append(r, round.resources)
		}
		if w := want[i]; b.s != w.s || !slices.Equal(n, w.n) || !slices.Equal(r, w.r) {
			t.Errorf("bracket %d: s = %d, n_i %v, r_i %v; want s = %d, %v, %v", i, b.s, n, r, w.s, w.n, w.r)
		}
	}
}

// TestHyperbandScheduleRows: in rows, R = rows / min_resources (810 rows
// of min 10 are the paper's R = 81 times 10); a pool smaller than a
// bracket's n caps it; min_resources above the rows is an error.
func TestHyperbandScheduleRows(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		pool, rows, minRes, fa int
		want                   []string
		err                    string
	}{
		{"810 rows, min 10", 1000, 810, 10, 3, []string{
			"s=4: [81 27 9 3 1] on [10 30 90 270 810]", "s=3: [34 11 3 1] on [30 90 270 810]",
			"s=2: [15 5 1] on [90 270 810]", "s=1: [8 2] on [270 810]", "s=0: [5] on [810]"}, ""},
		{"pool of 25", 25, 810, 10, 3, []string{
			"s=4: [25 8 2 1 1] on [10 30 90 270 810]", "s=3: [25 8 2 1] on [30 90 270 810]",
			"s=2: [15 5 1] on [90 270 810]", "s=1: [8 2] on [270 810]", "s=0: [5] on [810]"}, ""},
		{"100 rows, min 10, factor 2", 100, 100, 10, 2, []string{
			"s=3: [8 4 2 1] on [12 25 50 100]", "s=2: [6 3 1] on [25 50 100]",
			"s=1: [4 2] on [50 100]", "s=0: [4] on [100]"}, ""},
		{"too few rows", 9, 50, 60, 3, nil, "min_resources = 60 is more than the 50 rows of the outer training part"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := hyperbandSchedule(tc.pool, tc.rows, tc.minRes, tc.fa)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			var lines []string
			for _, b := range got {
				var n, r []int
				for _, round := range b.rounds {
					n, r = append(n, round.candidates), append(r, round.resources)
				}
				lines = append(lines, fmt.Sprintf("s=%d: %v on %v", b.s, n, r))
			}
			if err != nil || !slices.Equal(lines, tc.want) {
				t.Errorf("brackets %q (%v), want %q", lines, err, tc.want)
			}
		})
	}
}

// TestHyperbandDraws: the brackets take the pool's seeded permutation in
// turn, going round it again, each bracket's candidates distinct and in
// candidate order, the same for the same seed.
func TestHyperbandDraws(t *testing.T) {
	brackets, err := hyperbandSchedule(9, 90, 10, 3) // n = 9, 5, 3
	if err != nil {
		t.Fatal(err)
	}
	got := hyperbandDraws(brackets, 9, 7)
	if len(got) != 3 || len(got[0]) != 9 || len(got[1]) != 5 || len(got[2]) != 3 {
		t.Fatalf("draws %v, want 9, 5 and 3 candidates", got)
	}
	seen := map[int]int{}
	for _, d := range got {
		if !slices.IsSorted(d) || len(slices.Compact(slices.Clone(d))) != len(d) {
			t.Errorf("draw %v is not sorted and distinct", d)
		}
		for _, c := range d {
			seen[c]++
		}
	}
	for c := range 9 {
		// 17 draws over a pool of 9: every candidate once or twice.
		if seen[c] < 1 || seen[c] > 2 {
			t.Errorf("candidate %d drawn %d times, want 1 or 2 (%v)", c, seen[c], got)
		}
	}
	if again := hyperbandDraws(brackets, 9, 7); fmt.Sprint(again) != fmt.Sprint(got) {
		t.Errorf("draws %v then %v for the same seed", got, again)
	}
}

// searchRun runs a tuned search of the 9 candidates c = 1…9 of
// rankedCentroid (c = 7 alone is good) on two outer folds of 90 training
// rows with 3 inner folds, and returns the cell and the fits the learner
// made.
func searchRun(t *testing.T, tune *config.Tune) (*outcome.CellResult, int64) {
	cell, fits, _ := searchRunStats(t, tune)
	return cell, fits
}

// searchRunStats is searchRun with the run's stats.
func searchRunStats(t *testing.T, tune *config.Tune) (*outcome.CellResult, int64, Stats) {
	t.Helper()
	var x []float64
	var y []int
	for i := range 180 {
		x, y = append(x, float64(5*(i%3))+0.1*float64(i%7)), append(y, i%3)
	}
	learner := &rankedCentroid{}
	g := newPluginGridOf(t, x, y, oneVsAll{}, learner)
	g.Experiment.CV.Stratified = true
	l := g.Learners[0]
	tune.Folds, tune.InnerSeed = 3, -1
	l.Config.Tune = tune
	l.TuneMetric = "accuracy"
	for c := 1; c <= 9; c++ {
		l.Candidates = append(l.Candidates, param.Params{"c": param.Number(float64(c))})
	}
	l.Tuned = map[string]bool{"c": true}
	res, stats, err := Run(context.Background(), g, Options{Workers: 2}) // the two outer folds at once
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Failed() {
		t.Fatalf("cell failed: %s", res[0].Error)
	}
	return res[0], learner.fits.Load(), stats
}

// TestHyperbandRun: hyperband over 9 candidates with min_resources 10 on
// 90 rows (R = 9, factor 3) runs the brackets s = 2, 1, 0 (9 candidates on
// 10, 30, 90 rows; 5 on 30, 90; 3 on 90), keeps the good candidate c = 7
// to the end of the first bracket and chooses it. A candidate already
// scored on the same rows is not fitted again: the learner's fits are
// the requested ones less the reused (3 problems × 3 inner folds each,
// plus the refit, per outer fold), and the run's stats say so (fits
// requested and made, as bench run's summary prints them).
func TestHyperbandRun(t *testing.T) {
	cell, fits, stats := searchRunStats(t, &config.Tune{Strategy: config.StrategyHyperband, Factor: 3, MinResources: 10})
	var requested, reused int64
	for _, f := range cell.Folds {
		var got []string
		for _, r := range f.TuneRounds {
			got = append(got, fmt.Sprintf("s=%d: %d on %d rows", *r.Bracket, len(r.Candidates), r.Resources))
			requested += int64(3 * 3 * len(r.Candidates))
			reused += int64(3 * 3 * r.Reused)
		}
		want := []string{"s=2: 9 on 10 rows", "s=2: 3 on 30 rows", "s=2: 1 on 90 rows", "s=1: 5 on 30 rows", "s=1: 1 on 90 rows", "s=0: 3 on 90 rows"}
		if !slices.Equal(got, want) || f.Chosen != "c=7" || f.TuneScores != nil {
			t.Errorf("fold %d: rounds %q, chose %q, scores %v; want %q, c=7 and no per-candidate scores", f.Fold, got, f.Chosen, f.TuneScores, want)
		}
		if r := f.TuneRounds[2]; r.Candidates[0] != 6 || r.Scores[0] != 1 {
			t.Errorf("fold %d: bracket 2's last round %v %v, want c=7 (index 6) scoring 1", f.Fold, r.Candidates, r.Scores)
		}
	}
	refits := int64(3 * len(cell.Folds))
	if reused == 0 || fits != requested-reused+refits {
		t.Errorf("%d fits made; want the %d requested less the %d reused, plus %d refits", fits, requested, reused, refits)
	}
	if stats.FitsRequested != requested+refits || stats.FitsMade != fits {
		t.Errorf("stats: %d fits requested, %d made; want %d and %d", stats.FitsRequested, stats.FitsMade, requested+refits, fits)
	}
	t.Logf("inner fits requested %d, made %d (%d reused)", requested, requested-reused, reused)
}

// TestSearchBudget: max_evals stops a search between rounds (a random
// search's candidates) once that many candidate evaluations were made:
// halving after its first round of 9 (its winner that round's best),
// hyperband after the first
// bracket's 9 + 3 (its winner the best on the most rows reached, 30),
// random after its first 4 candidates (c = 7 never scored: c = 1, the
// first of equal bad scores, is chosen).
func TestSearchBudget(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tune   config.Tune
		rounds []string
		scores int
		chosen string
		fits   int64
	}{
		{"halving", config.Tune{Strategy: config.StrategyHalving, Factor: 3, MinResources: 9, MaxEvals: 9},
			[]string{"9 rows: 9"}, 9, "c=7", 2 * 3 * (1 + 3*9)},
		{"hyperband", config.Tune{Strategy: config.StrategyHyperband, Factor: 3, MinResources: 10, MaxEvals: 12},
			[]string{"10 rows: 9", "30 rows: 3"}, 0, "c=7", 2 * 3 * (1 + 3*12)},
		{"random", config.Tune{Strategy: config.StrategyRandom, NIter: 9, MaxEvals: 4},
			nil, 4, "c=1", 2 * 3 * (1 + 3*4)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cell, fits := searchRun(t, &tc.tune)
			for _, f := range cell.Folds {
				var got []string
				for _, r := range f.TuneRounds {
					got = append(got, fmt.Sprintf("%d rows: %d", r.Resources, len(r.Candidates)))
				}
				if !slices.Equal(got, tc.rounds) || len(f.TuneScores) != tc.scores || f.Chosen != tc.chosen {
					t.Errorf("fold %d: rounds %q, %d scores, chose %q; want %q, %d, %q", f.Fold, got, len(f.TuneScores), f.Chosen, tc.rounds, tc.scores, tc.chosen)
				}
			}
			if fits != tc.fits {
				t.Errorf("%d fits, want %d", fits, tc.fits)
			}
		})
	}
}
