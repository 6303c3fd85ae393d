package engine

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/plugin"
)

// TestOnePlanPerDistinctRequest runs shareGrid's 10 cells (2 learners ×
// ovo, dag and a code decoded three ways; 3 folds) with the run's plan
// cache and without it: 30 plans requested either way; without the cache
// the reducer makes all 30, with it one per distinct request (reduction,
// its parameters and the fold's training labels; the learner is not part
// of it), and every cell file is the same, times aside.
func TestOnePlanPerDistinctRequest(t *testing.T) {
	g := shareGrid(t)
	distinct := map[string]bool{}
	for _, c := range g.Cells {
		for f := range c.Dataset.NumFolds {
			train, _ := cv.Split(c.Dataset.Folds[0], f)
			labels := make([]int, len(train))
			for i, r := range train {
				labels[i] = c.Dataset.Labels[r]
			}
			distinct[fmt.Sprint(c.Reduction.Config.Name, c.RedParams.String(), labels)] = true
		}
	}
	if len(distinct) < 5 || len(distinct) > 15 {
		t.Fatalf("%d distinct plan requests, want 5 to 15 (5 reduction cells, 3 folds)", len(distinct))
	}
	cached, stats := cellFilesOf(t, g, Options{Workers: 2})
	if stats.PlansRequested != 30 || stats.PlansMade != int64(len(distinct)) {
		t.Errorf("plans: %d requested, %d made; want 30 requested, %d made", stats.PlansRequested, stats.PlansMade, len(distinct))
	}
	s := newScheduler(g, Options{Workers: 2, KeepPredictions: true})
	s.plans = nil
	res, nstats, err := s.run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if nstats.PlansRequested != 30 || nstats.PlansMade != 30 {
		t.Errorf("no cache: plans %d requested, %d made; want 30 of each", nstats.PlansRequested, nstats.PlansMade)
	}
	uncached := filesOf(t, g, res)
	for _, c := range g.Cells {
		if cached[c.Index] != uncached[c.Index] {
			t.Errorf("%s: cell file with the plan cache differs from without:\n%s", c.ID().Key(), firstDiff(cached[c.Index], uncached[c.Index]))
		}
	}
}

// TestPlanCache: the cache asks once per request and hands out plans
// whose problems a fold may change without changing the cached plan; it
// keys requests by every field that decides a plan; a failed request is
// not kept; a plan over planCacheBytes is not kept, and one that would
// take the cache past it empties the cache first.
func TestPlanCache(t *testing.T) {
	ctx := context.Background()
	c := newPlanCache()
	req := plugin.PlanRequest{Scheme: "ovo", NumClasses: 3, Labels: []int{0, 1, 2}, ClassNames: []string{"a", "b", "c"}, Seed: 7,
		Params: param.Params{"decode": param.String("dag")}}
	asked := 0
	ask := func(p plugin.Plan, err error) func() (plugin.Plan, error) {
		return func() (plugin.Plan, error) { asked++; return p, err }
	}
	small := plugin.Plan{Problems: []plugin.Problem{{Kind: plugin.Binary, Targets: []float64{1, -1, 0}}}, State: []byte("s")}
	mine, made, err := c.plan(ctx, "reducers", req, ask(small, nil))
	if err != nil || !made || asked != 1 {
		t.Fatalf("first request: made %v, err %v, asked %d", made, err, asked)
	}
	mine.Problems[0].Seed = 99
	got, made, err := c.plan(ctx, "reducers", req, ask(plugin.Plan{}, errors.New("asked again")))
	if err != nil || made || asked != 1 || got.Problems[0].Seed != 0 || string(got.State) != "s" {
		t.Fatalf("second request: %+v, made %v, err %v, asked %d; want the cached plan, seed 0", got, made, err, asked)
	}
	for name, other := range map[string]func(r plugin.PlanRequest) (string, plugin.PlanRequest){
		"reducer": func(r plugin.PlanRequest) (string, plugin.PlanRequest) { return "other", r },
		"scheme":  func(r plugin.PlanRequest) (string, plugin.PlanRequest) { r.Scheme = "ova"; return "reducers", r },
		"params": func(r plugin.PlanRequest) (string, plugin.PlanRequest) {
			r.Params = param.Params{"decode": param.String("vote")}
			return "reducers", r
		},
		"seed": func(r plugin.PlanRequest) (string, plugin.PlanRequest) { r.Seed = 8; return "reducers", r },
		"labels": func(r plugin.PlanRequest) (string, plugin.PlanRequest) {
			r.Labels = []int{0, 2, 1}
			return "reducers", r
		},
		"stage": func(r plugin.PlanRequest) (string, plugin.PlanRequest) { r.Stage = 1; return "reducers", r },
		"state": func(r plugin.PlanRequest) (string, plugin.PlanRequest) { r.State = []byte{1}; return "reducers", r },
		"class names": func(r plugin.PlanRequest) (string, plugin.PlanRequest) {
			r.ClassNames = []string{"a", "bc", ""}
			return "reducers", r
		},
	} {
		before := asked
		reducer, r := other(req)
		if _, made, _ := c.plan(ctx, reducer, r, ask(small, nil)); !made || asked != before+1 {
			t.Errorf("a request of another %s was answered from the cache", name)
		}
	}
	failed := req
	failed.Seed = 10
	if _, _, err := c.plan(ctx, "reducers", failed, ask(plugin.Plan{}, errors.New("boom"))); err == nil || err.Error() != "boom" {
		t.Errorf("failed request: error %v, want boom", err)
	}
	if _, made, err := c.plan(ctx, "reducers", failed, ask(small, nil)); !made || err != nil {
		t.Errorf("after a failure: made %v, err %v; want asked again", made, err)
	}
	big := plugin.Plan{Problems: []plugin.Problem{{Targets: make([]float64, planCacheBytes/8)}}}
	bigReq := req
	bigReq.Seed = 9
	if p, made, err := c.plan(ctx, "reducers", bigReq, ask(big, nil)); err != nil || !made || len(p.Problems[0].Targets) != planCacheBytes/8 {
		t.Fatalf("plan over the bound: made %v, err %v", made, err)
	}
	if _, ok := c.plans[mustKey(t, "reducers", bigReq)]; ok {
		t.Error("a plan over the bound was kept")
	}
	half := plugin.Plan{Problems: []plugin.Problem{{Targets: make([]float64, planCacheBytes/8/2)}}}
	for seed := range uint64(2) {
		r := req
		r.Seed = 100 + seed
		if _, _, err := c.plan(ctx, "reducers", r, ask(half, nil)); err != nil {
			t.Fatal(err)
		}
	}
	if len(c.plans) != 1 || c.bytes > planCacheBytes {
		t.Errorf("after two plans of half the bound: %d plans, %d bytes; want only the last kept", len(c.plans), c.bytes)
	}
}

// mustKey is planKey, which must not fail.
func mustKey(t *testing.T, reducer string, req plugin.PlanRequest) string {
	t.Helper()
	k, err := planKey(reducer, req)
	if err != nil {
		t.Fatal(err)
	}
	return k
}
