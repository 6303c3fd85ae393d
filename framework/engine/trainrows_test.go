package engine

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/sdk"
)

// TestTrainingRows: a parameter the plugin bounds by the training rows
// (knn's k) is checked against the smallest training part, 3 rows of
// handGrid's iris: every value over it is an error at the parameter (every
// cell of the learner would fail), some values over it a warning naming
// them; the default counts when the parameter is not given. A parameter
// without the bound is not checked, whatever its name.
func TestTrainingRows(t *testing.T) {
	list := func(xs ...float64) param.Value {
		vs := make([]param.Value, len(xs))
		for i, x := range xs {
			vs[i] = param.Number(x)
		}
		return param.List(vs...)
	}
	const where = `Learner "knn": on dataset "iris" the smallest training part (fold 0) has 3 rows, fewer than `
	for _, tc := range []struct {
		name    string
		k       *param.Value // nil: not given (default 5)
		tuned   []float64    // the candidates of a tuned learner
		bounded bool
		want    []string
	}{
		{"k = 3", new(param.Number(3)), nil, true, nil},
		{"default 5", nil, nil, true, []string{
			"error at 9: " + where + "k = 5: a fit needs at least k training rows, so every cell of the learner on the dataset would fail."}},
		{"every value over", new(list(4, 5)), nil, true, []string{
			"error at 5: " + where + "k = 4, 5: a fit needs at least k training rows, so every cell of the learner on the dataset would fail."}},
		{"some values over", new(list(1, 2, 3, 4, 10)), nil, true, []string{
			"warning at 5: " + where + "k = 4, 10 (2 of its 5 values): a fit needs at least k training rows, so the cells with those values would fail."}},
		{"many values over", new(list(1, 4, 5, 6, 7, 8)), nil, true, []string{
			"warning at 5: " + where + "k = 4, 5, 6, …, 8 (5 of its 6 values): a fit needs at least k training rows, so the cells with those values would fail."}},
		{"tuned candidates", new(list(2, 8)), []float64{2, 8}, true, []string{
			"warning at 5: " + where + "k = 8 (1 of its 2 values): a fit needs at least k training rows, so the cells with those values would fail."}},
		{"no bound declared", new(param.Number(50)), nil, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := handGrid()
			g.Datasets = g.Datasets[:1]
			spec := param.ParamSpec{Name: "k", Type: param.IntegerParam, Default: param.Number(5), Min: param.Bound(1), AtMostTrainingRows: tc.bounded}
			cfg := &config.Learner{Name: "knn", Plugin: "knn", DeclRange: at(9), Params: map[string]config.Param{}}
			if tc.k != nil {
				cfg.Params["k"] = config.Param{Value: *tc.k, Range: at(5)}
			}
			knn := &Learner{Config: cfg, Info: &sdk.LearnerInfo{Params: []param.ParamSpec{spec}, Capabilities: sdk.Capabilities{Binary: true, Multiclass: true}}}
			for _, k := range tc.tuned {
				knn.Candidates = append(knn.Candidates, param.Params{"k": param.Number(k)})
			}
			g.Learners = []*Learner{knn}
			g.Reductions = g.Reductions[:1]
			var got []string
			for _, d := range check(g) {
				if d.Summary == "Fewer training rows than k" {
					sev := "error"
					if d.Severity == hcl.DiagWarning {
						sev = "warning"
					}
					got = append(got, fmt.Sprintf("%s at %d: %s", sev, d.Subject.Start.Line, d.Detail))
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}
