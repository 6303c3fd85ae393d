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

// iterCentroid is rankedCentroid (c = 7 alone is good) with a budget
// parameter, iters, whose value of every fit it records.
type iterCentroid struct {
	centroid
	seen chan int // the iters of every fit
}

func (c *iterCentroid) Info() sdk.LearnerInfo {
	info := c.centroid.Info()
	info.Params = append(info.Params, param.ParamSpec{Name: "iters", Type: param.IntegerParam, Default: param.Number(27), Budget: true})
	return info
}

func (c *iterCentroid) Fit(ctx context.Context, in sdk.FitInput, p param.Params) (sdk.Model, error) {
	c.seen <- p.Int("iters")
	m, err := c.centroid.Fit(ctx, in, p)
	if err != nil || p.Float("c") == 7 {
		return m, err
	}
	cm := m.(centroidModel)
	return centroidModel{neg: cm.pos, pos: cm.neg}, nil
}

// TestHalvingOverBudgetParameter: resource = "iters" (the largest 27,
// min_resources 3, factor 3) runs rounds of 9, 3 and 1 candidates with
// iters = 3, 9 and 27 on every row of each inner fold (90 outer training
// rows, 3 inner folds), and chooses c = 7; the winner is refitted with
// the largest budget.
func TestHalvingOverBudgetParameter(t *testing.T) {
	var x []float64
	var y []int
	for i := range 180 {
		x, y = append(x, float64(5*(i%3))+0.1*float64(i%7)), append(y, i%3)
	}
	learner := &iterCentroid{seen: make(chan int, 10000)}
	g := newPluginGridOf(t, x, y, oneVsAll{}, learner)
	g.Experiment.CV.Stratified = true
	l := g.Learners[0]
	l.Config.Tune = &config.Tune{Folds: 3, InnerSeed: -1, Strategy: config.StrategyHalving, Factor: 3, MinResources: 3, Resource: "iters"}
	l.MaxResource = 27
	l.TuneMetric = "accuracy"
	for c := 1; c <= 9; c++ {
		l.Candidates = append(l.Candidates, param.Params{"c": param.Number(float64(c)), "iters": param.Number(27)})
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
			got = append(got, fmt.Sprintf("iters %d: %d", r.Resources, len(r.Candidates)))
		}
		if want := []string{"iters 3: 9", "iters 9: 3", "iters 27: 1"}; !slices.Equal(got, want) || f.Chosen != "c=7" {
			t.Errorf("fold %d: rounds %q, chose %q; want %q and c=7", f.Fold, got, f.Chosen, want)
		}
	}
	if res[0].TuneResource != "iters" || res[0].TuneMaxResource != 27 {
		t.Errorf("cell's resource %q up to %d, want iters up to 27", res[0].TuneResource, res[0].TuneMaxResource)
	}
	close(learner.seen)
	count := map[int]int{}
	for it := range learner.seen {
		count[it]++
	}
	// Per outer fold: 3 problems × 3 inner folds × (9, 3, 1) candidates,
	// then the refit's 3 problems with iters = 27.
	if want := map[int]int{3: 2 * 3 * 3 * 9, 9: 2 * 3 * 3 * 3, 27: 2 * (3*3*1 + 3)}; fmt.Sprint(count) != fmt.Sprint(want) {
		t.Errorf("fits by iters %v, want %v", count, want)
	}
}
