package engine

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/sdk"
)

// TestBudgetResource: a tune block's resource names a parameter the
// plugin declares a budget (ParamSpec.Budget), whose one whole value (or
// the plugin's default) is the largest budget; any other parameter, a
// name the plugin lacks, a tuned budget and a fraction are located
// errors.
func TestBudgetResource(t *testing.T) {
	specs := []param.ParamSpec{
		{Name: "C", Type: param.NumberParam, Default: param.Number(1)},
		{Name: "max_iter", Type: param.IntegerParam, Default: param.Number(1000), Budget: true},
		{Name: "epochs", Type: param.IntegerParam, Default: param.Number(100), Budget: true},
	}
	withSolver := []param.ParamSpec{
		{Name: "solver", Type: param.StringParam, Default: param.String("newton")},
		{Name: "epochs", Type: param.IntegerParam, Default: param.Number(100), Budget: true, AppliesWhen: []param.Condition{param.When("solver", "sgd")}},
	}
	resAt := hcl.Range{Filename: "exp.hcl", Start: hcl.Pos{Line: 9, Column: 16}}
	parAt := hcl.Range{Filename: "exp.hcl", Start: hcl.Pos{Line: 5, Column: 7}}
	for _, tc := range []struct {
		name, resource string
		params         map[string]config.Param
		specs          []param.ParamSpec
		max            int
		want           string
	}{
		{"given", "max_iter", map[string]config.Param{"max_iter": {Value: param.Number(300), Range: parAt}}, specs, 300, ""},
		{"the default", "epochs", nil, specs, 100, ""},
		{"not a budget", "C", nil, specs, 0,
			`exp.hcl:9:16: Not a budget parameter: Learner "lr": resource = "C" is neither "n_samples" nor a parameter plugin "logreg" declares a budget (an integer bounding a fit's work, such as max_iter); its budget parameters are max_iter, epochs.`},
		{"unknown", "iterations", nil, specs[:1], 0,
			`exp.hcl:9:16: Not a budget parameter: Learner "lr": resource = "iterations" is neither "n_samples" nor a parameter plugin "logreg" declares a budget (an integer bounding a fit's work, such as max_iter); it declares none.`},
		{"tuned", "max_iter", map[string]config.Param{"max_iter": {Value: param.List(param.Number(10), param.Number(100)), Range: parAt}}, specs, 0,
			`exp.hcl:5:7: Tuned budget parameter: Learner "lr": max_iter is the search's resource, which its rounds grow: give it one whole number, the largest budget (such as max_iter = 1000), not a list or a search space.`},
		{"applies with the parameters", "epochs", map[string]config.Param{"solver": {Value: param.String("sgd")}}, withSolver, 100, ""},
		{"applies to some candidates", "epochs", map[string]config.Param{"solver": {Value: param.List(param.String("sgd"), param.String("newton"))}}, withSolver, 100, ""},
		{"does not apply", "epochs", nil, withSolver, 0,
			`exp.hcl:9:16: Budget parameter does not apply: Learner "lr": resource = "epochs" does not apply with the learner's parameters (it applies when solver is sgd), so growing it would not change a fit: choose the budget parameter of the method the learner uses, or set the parameters it needs.`},
		{"a fraction", "max_iter", map[string]config.Param{"max_iter": {Value: param.Number(2.5), Range: parAt}}, specs, 0,
			`exp.hcl:5:7: Invalid budget: Learner "lr": the largest budget max_iter = 2.5 is not a whole number >= 1.`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &resolver{ctx: context.Background()}
			l := &config.Learner{Name: "lr", Plugin: "logreg", Params: tc.params,
				Tune: &config.Tune{Strategy: config.StrategyHalving, Resource: tc.resource, ResourceRange: resAt}}
			max, ok := r.budgetResource(l, tc.specs)
			var got string
			for _, d := range r.diags {
				got = fmt.Sprintf("%s:%d:%d: %s: %s", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column, d.Summary, d.Detail)
			}
			if got != tc.want || max != tc.max || ok != (tc.want == "") {
				t.Errorf("largest %d (%v), diagnostic\n%s\nwant %d,\n%s", max, ok, got, tc.max, tc.want)
			}
		})
	}
}

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
