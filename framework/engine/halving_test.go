package engine

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/sdk"
)

// TestHalvingScheduleMatchesSklearn: the rounds' n_resources and
// n_candidates are scikit-learn's HalvingGridSearchCV's (n_resources_,
// n_candidates_) for the same number of candidates, rows, classes and
// inner folds. The literals are the output of
// testdata/halving_reference.py, which fits scikit-learn 1.2.1's
// HalvingGridSearchCV on each case and checks its transcription of
// BaseSuccessiveHalving._run_search against it: every case matches.
func TestHalvingScheduleMatchesSklearn(t *testing.T) {
	for _, tc := range []struct {
		name                                  string
		candidates, rows, classes, folds, fac int
		minRes                                int
		aggressive                            bool
		resources, perRound                   []int
	}{
		{"letter 15 x 15 pairs", 225, 15000, 26, 5, 3, config.MinExhaust, false, []int{260, 780, 2340, 7020}, []int{225, 75, 25, 9}},
		{"iris outer fold, 5 C", 5, 135, 3, 5, 3, config.MinExhaust, false, []int{45, 135}, []int{5, 2}},
		{"243 = 3^5 candidates", 243, 10000, 2, 5, 3, config.MinExhaust, false, []int{123, 369, 1107, 3321, 9963}, []int{243, 81, 27, 9, 3}},
		{"smallest", 27, 10000, 3, 5, 3, config.MinSmallest, false, []int{30, 90, 270, 810}, []int{27, 9, 3, 1}},
		{"exhaust, as smallest's grid", 27, 10000, 3, 5, 3, config.MinExhaust, false, []int{370, 1110, 3330, 9990}, []int{27, 9, 3, 1}},
		{"aggressive", 225, 1000, 10, 5, 3, config.MinExhaust, true, []int{100, 100, 100, 300, 900}, []int{225, 75, 25, 9, 3}},
		{"aggressive, given min", 100, 600, 2, 3, 3, 40, true, []int{40, 40, 40, 120, 360}, []int{100, 34, 12, 4, 2}},
		{"factor 2", 20, 500, 3, 5, 2, config.MinExhaust, false, []int{31, 62, 124, 248, 496}, []int{20, 10, 5, 3, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tune := &config.Tune{Folds: tc.folds, Factor: tc.fac, MinResources: tc.minRes, AggressiveElimination: tc.aggressive}
			rounds, err := halvingSchedule(tc.candidates, tc.rows, tc.classes, tc.folds, tune)
			if err != nil {
				t.Fatal(err)
			}
			var res, cands []int
			for _, r := range rounds {
				res, cands = append(res, r.resources), append(cands, r.candidates)
			}
			if !slices.Equal(res, tc.resources) || !slices.Equal(cands, tc.perRound) {
				t.Errorf("n_resources %v, n_candidates %v; want %v, %v", res, cands, tc.resources, tc.perRound)
			}
		})
	}
}

func TestHalvingScheduleTooFewRows(t *testing.T) {
	_, err := halvingSchedule(9, 50, 2, 5, &config.Tune{Folds: 5, Factor: 3, MinResources: 60})
	if want := "min_resources = 60 is more than the 50 rows of the outer training part"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

// TestPyFloorLog: floor(log(x, base)) as Python's math.log gives it, one
// below the exact power where Python's quotient falls short.
func TestPyFloorLog(t *testing.T) {
	for _, tc := range []struct{ x, base, want int }{
		{243, 3, 4},   // math.log(243, 3) = 4.999999999999999
		{1000, 10, 2}, // 2.9999999999999996
		{9, 3, 2}, {81, 3, 4}, {2187, 3, 7}, {225, 3, 4}, {57, 3, 3}, {1, 3, 0}, {8, 2, 3},
	} {
		if got := pyFloorLog(tc.x, tc.base); got != tc.want {
			t.Errorf("floor(log(%d, %d)) = %d, want %d", tc.x, tc.base, got, tc.want)
		}
	}
}

func TestSurvivors(t *testing.T) {
	for _, tc := range []struct {
		alive  []int
		scores []float64
		keep   int
		higher bool
		want   []int
	}{
		{[]int{0, 1, 2, 3, 4, 5}, []float64{0.5, 0.9, 0.7, 0.9, 0.1, 0.6}, 2, true, []int{1, 3}},
		{[]int{2, 5, 7}, []float64{0.8, 0.8, 0.8}, 1, true, []int{2}}, // a tie: the earlier candidate
		{[]int{0, 4, 8}, []float64{0.3, 0.1, 0.2}, 2, false, []int{4, 8}},
		{[]int{3, 6, 9}, []float64{0.2, 0.9, 0.9}, 2, true, []int{6, 9}},
	} {
		if got := survivors(tc.alive, tc.scores, tc.keep, tc.higher); !slices.Equal(got, tc.want) {
			t.Errorf("survivors(%v, %v, %d) = %v, want %v", tc.alive, tc.scores, tc.keep, got, tc.want)
		}
	}
}

// TestSubsampleOrderStratified: every prefix of the order holds each
// class in proportion (within one row), and the order is the seed's.
func TestSubsampleOrderStratified(t *testing.T) {
	labels := make([]int, 60) // 30 of class 0, 20 of class 1, 10 of class 2
	for i := range labels {
		labels[i] = map[bool]int{true: 0, false: 1}[i < 30]
		if i >= 50 {
			labels[i] = 2
		}
	}
	idx := make([]int, 60)
	for i := range idx {
		idx[i] = i
	}
	label := func(i int) int { return labels[i] }
	order := subsampleOrder(idx, label, 5)
	for n := 1; n <= 60; n++ {
		count := [3]int{}
		for _, i := range order[:n] {
			count[labels[i]]++
		}
		for c, share := range []float64{0.5, 1.0 / 3, 1.0 / 6} {
			if d := float64(count[c]) - share*float64(n); d > 1 || d < -1 {
				t.Fatalf("first %d rows hold %v of the classes, want about %.1f of class %d", n, count, share*float64(n), c)
			}
		}
	}
	if !slices.Equal(order, subsampleOrder(idx, label, 5)) || slices.Equal(order, subsampleOrder(idx, label, 6)) {
		t.Error("the order is not a function of the seed")
	}
}

// TestSampleCandidatesReference: the first draws of the sampler seeded as
// a learner's (PCG(seed, 0), parameters in name order) are these numbers
// (math/rand/v2's PCG and Float64 are specified; loguniform's exp and log
// are Go's); a grid of lists is sampled without replacement.
func TestSampleCandidatesReference(t *testing.T) {
	params := map[string]config.Param{
		"C":      {Dist: &config.Distribution{Kind: config.LogUniform, Low: 1e-3, High: 1e3}},
		"degree": {Dist: &config.Distribution{Kind: config.RandInt, Low: 1, High: 6}},
		"gamma":  {Dist: &config.Distribution{Kind: config.Uniform, Low: 0, High: 2}},
		"kernel": {Dist: &config.Distribution{Kind: config.Choice, Choices: []param.Value{param.String("rbf"), param.String("poly")}}},
		"solver": {Value: param.List(param.String("a"), param.String("b"))},
		"tol":    {Value: param.Number(1e-6)},
	}
	tuned := map[string]bool{"C": true, "degree": true, "gamma": true, "kernel": true, "solver": true}
	got := sampleCandidates(params, tuned, []param.Params{{}}, 3, 42)
	want := []string{
		"C=0.03312104270846414,degree=5,gamma=0.2590432518656358,kernel=poly,solver=b,tol=1e-06",
		"C=0.011872639218284235,degree=5,gamma=1.5940031609748524,kernel=poly,solver=b,tol=1e-06",
		"C=151.62121319765743,degree=4,gamma=1.218801110443593,kernel=poly,solver=b,tol=1e-06",
	}
	var names []string
	for _, c := range got {
		names = append(names, c.String())
	}
	if !slices.Equal(names, want) {
		t.Errorf("draws\n%q\nwant\n%q", names, want)
	}
	grid := make([]param.Params, 10)
	for i := range grid {
		grid[i] = param.Params{"C": param.Number(float64(i))}
	}
	gridParams := map[string]config.Param{"C": {Value: param.List()}}
	var drawn []string
	for _, c := range sampleCandidates(gridParams, map[string]bool{"C": true}, grid, 4, 42) {
		drawn = append(drawn, c.String())
	}
	if wantGrid := []string{"C=3", "C=2", "C=5", "C=6"}; !slices.Equal(drawn, wantGrid) {
		t.Errorf("grid draws %q, want %q", drawn, wantGrid)
	}
	if all := sampleCandidates(gridParams, map[string]bool{"C": true}, grid, 12, 42); len(all) != 10 || all[3]["C"].Num() != 3 {
		t.Errorf("n_iter 12 of a grid of 10: %v, want the grid in order", all)
	}
}

// rankedCentroid is a centroid whose parameter c decides its quality: c =
// 7 predicts as the centroid, any other c the opposite side, so that the
// search must keep c = 7 to the end.
type rankedCentroid struct{ centroid }

func (c *rankedCentroid) Fit(ctx context.Context, in sdk.FitInput, p param.Params) (sdk.Model, error) {
	m, err := c.centroid.Fit(ctx, in, p)
	if err != nil || p.Float("c") == 7 {
		return m, err
	}
	cm := m.(centroidModel)
	return centroidModel{neg: cm.pos, pos: cm.neg}, nil
}

// TestHalvingRun: a halving search over 9 candidates in each of the two
// outer folds (90 training rows, 3 inner folds) plays sklearn's rounds,
// keeps the good candidate to the end, chooses it, and trains what
// FitRounds says: with min_resources 9, rounds of 9, 27 and 81 rows for
// 9, 3 and 1 candidates; with min_resources 30 and aggressive
// elimination, 30, 30 and 90 rows, the replay of 30 rows fitting nothing.
func TestHalvingRun(t *testing.T) {
	for _, tc := range []struct {
		name       string
		minRes     int
		aggressive bool
		rounds     []string
		fitRounds  int
	}{
		{"min_resources 9", 9, false, []string{"9 rows: [0 1 2 3 4 5 6 7 8]", "27 rows: [0 1 6]", "81 rows: [6]"}, 1 + 3*(9+3+1)},
		{"aggressive", 30, true, []string{"30 rows: [0 1 2 3 4 5 6 7 8]", "30 rows: [0 1 6]", "90 rows: [6]"}, 1 + 3*(9+1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var x []float64
			var y []int
			for i := range 180 {
				x, y = append(x, float64(5*(i%3))+0.1*float64(i%7)), append(y, i%3)
			}
			learner := &rankedCentroid{}
			g := newPluginGridOf(t, x, y, oneVsAll{}, learner)
			g.Experiment.CV.Stratified = true
			l := g.Learners[0]
			l.Config.Tune = &config.Tune{Folds: 3, InnerSeed: -1, Strategy: config.StrategyHalving, Factor: 3, MinResources: tc.minRes, AggressiveElimination: tc.aggressive}
			l.TuneMetric = "accuracy"
			for c := 1; c <= 9; c++ {
				l.Candidates = append(l.Candidates, param.Params{"c": param.Number(float64(c))})
			}
			l.Tuned = map[string]bool{"c": true}
			res, _, err := Run(context.Background(), g, Options{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			if res[0].Failed() {
				t.Fatalf("cell failed: %s", res[0].Error)
			}
			for _, f := range res[0].Folds {
				var got []string
				for _, r := range f.TuneRounds {
					got = append(got, fmt.Sprintf("%d rows: %v", r.Resources, r.Candidates))
				}
				if !slices.Equal(got, tc.rounds) || f.Chosen != "c=7" || f.TuneRows != 90 {
					t.Errorf("fold %d: rounds %q, chose %q on %d rows; want %q and c=7 on 90", f.Fold, got, f.Chosen, f.TuneRows, tc.rounds)
				}
				if r := f.TuneRounds[0]; r.Scores[6] != 1 || r.Scores[0] >= 0.5 {
					t.Errorf("fold %d: first round's scores %v, want 1 for c=7, below 0.5 for the others", f.Fold, r.Scores)
				}
			}
			rounds := g.Cells[0].FitRounds()
			if n, want := learner.fits.Load(), int64(3*rounds*2); n != want || rounds != tc.fitRounds {
				t.Errorf("%d fits in %d rounds per fold, want %d in %d (3 problems × rounds × 2 folds)", n, rounds, want, tc.fitRounds)
			}
		})
	}
}
