package engine

import (
	"context"
	"testing"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/param"
)

// TestPlannedTuneFitsEqualRun: what validate --plan counts for a tuned
// cell (FoldFits × TotalFitRounds) is what a run of it makes, for each
// strategy, with max_evals stopping a search early, and with outer
// training parts of different rows (179 rows in 2 folds: 90 and 89, where
// min_resources 10 allows halving three rounds and two); hyperband's
// count is exact while its brackets draw no candidate twice, and an
// upper bound (TuneFitsBound) when they do. 3 inner folds, 3 problems
// (one-vs-all on 3 classes).
func TestPlannedTuneFitsEqualRun(t *testing.T) {
	for _, tc := range []struct {
		name      string
		rows      int
		tune      config.Tune
		cands     int
		want      int64 // fits made, counted by hand
		bound     bool
		wantBound bool
	}{
		// (1 + 3 × 9) × 3 problems × 2 folds.
		{"grid", 180, config.Tune{Strategy: config.StrategyGrid}, 9, 168, false, false},
		// (1 + 3 × 4) × 3 × 2.
		{"random, max_evals 4", 180, config.Tune{Strategy: config.StrategyRandom, MaxEvals: 4}, 9, 78, false, false},
		// 90 rows: 9, 3, 1 candidates; 89 rows: 9, 3: (1 + 3 × 13) × 3 + (1 + 3 × 12) × 3.
		{"halving, folds of 90 and 89 rows", 179, config.Tune{Strategy: config.StrategyHalving, MinResources: 10}, 9, 231, false, false},
		// max_evals 10: the third round does not start: (1 + 3 × 12) × 3 × 2.
		{"halving, max_evals 10", 180, config.Tune{Strategy: config.StrategyHalving, MinResources: 9, MaxEvals: 10}, 9, 222, false, false},
		// R = 90 / 9 = 10, s_max 2: brackets of 9, 3, 1; 5, 1; 3
		// candidates (17 of 20 drawn once each): (1 + 3 × 22) × 3 × 2.
		{"hyperband", 180, config.Tune{Strategy: config.StrategyHyperband, MinResources: 9}, 20, 402, false, false},
		// max_evals 12: the first bracket's 9 and 3, then the budget is
		// spent: (1 + 3 × 12) × 3 × 2.
		{"hyperband, max_evals 12", 180, config.Tune{Strategy: config.StrategyHyperband, MinResources: 9, MaxEvals: 12}, 20, 222, false, false},
		// 17 draws of 9 candidates: some meet rows they were scored on.
		{"hyperband drawing again", 180, config.Tune{Strategy: config.StrategyHyperband, MinResources: 9}, 9, -1, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var x []float64
			var y []int
			for i := range tc.rows {
				x, y = append(x, float64(5*(i%3))+0.1*float64(i%7)), append(y, i%3)
			}
			learner := &rankedCentroid{}
			g := newPluginGridOf(t, x, y, oneVsAll{}, learner)
			g.Experiment.CV.Stratified = true
			l := g.Learners[0]
			tune := tc.tune
			tune.Folds, tune.InnerSeed, tune.Factor = 3, -1, 3
			l.Config.Tune = &tune
			l.TuneMetric = "accuracy"
			for c := 1; c <= tc.cands; c++ {
				l.Candidates = append(l.Candidates, param.Params{"c": param.Number(float64(c))})
			}
			l.Tuned = map[string]bool{"c": true}
			c := g.Cells[0]
			per, err := g.FoldFits(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			planned := int64(per.Total() * c.TotalFitRounds())
			res, stats, err := Run(context.Background(), g, Options{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			if res[0].Failed() {
				t.Fatalf("cell failed: %s", res[0].Error)
			}
			if made := learner.fits.Load(); made != stats.FitsMade {
				t.Fatalf("the learner made %d fits, the run counts %d", made, stats.FitsMade)
			}
			if got := c.TuneFitsBound(); got != tc.wantBound {
				t.Errorf("TuneFitsBound %v, want %v", got, tc.wantBound)
			}
			switch {
			case tc.bound && stats.FitsMade > planned:
				t.Errorf("the run made %d fits, more than the %d planned", stats.FitsMade, planned)
			case !tc.bound && (planned != stats.FitsMade || planned != tc.want):
				t.Errorf("planned %d fits, the run made %d; want %d", planned, stats.FitsMade, tc.want)
			}
		})
	}
}
