package engine

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/problem"
	"github.com/polyclass/polyclass/framework/sdk"
)

// TestTrainingRows: a parameter the plugin bounds by the training rows
// (knn's k) is checked against the smallest training part, 3 rows of
// handGrid's iris: every value over it is an error at the parameter (every
// cell of the learner would fail), some values over it a warning naming
// them; the default counts when the parameter is not given. A parameter
// without the bound is not checked, whatever its name. A reduction whose
// problems train on fewer rows (a one-vs-one pair: plans) is checked
// against its smallest problem, naming the reduction; a tuned learner
// against tuning's inner training parts, and any candidate over fails its
// every cell (campaign 15 KB/ovo and KB/tune: validate said ok and every
// fold failed).
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
		plans   map[string]problemRows // by reduction name
		folds   int                    // tune folds, when tuned
	}{
		{"k = 3", new(param.Number(3)), nil, true, nil, nil, 0},
		{"default 5", nil, nil, true, []string{
			"error at 9: " + where + "k = 5: a fit needs at least k training rows, so every cell of the learner on the dataset would fail."}, nil, 0},
		{"every value over", new(list(4, 5)), nil, true, []string{
			"error at 5: " + where + "k = 4, 5: a fit needs at least k training rows, so every cell of the learner on the dataset would fail."}, nil, 0},
		{"some values over", new(list(1, 2, 3, 4, 10)), nil, true, []string{
			"warning at 5: " + where + "k = 4, 10 (2 of its 5 values): a fit needs at least k training rows, so the cells with those values would fail."}, nil, 0},
		{"many values over", new(list(1, 4, 5, 6, 7, 8)), nil, true, []string{
			"warning at 5: " + where + "k = 4, 5, 6, …, 8 (5 of its 6 values): a fit needs at least k training rows, so the cells with those values would fail."}, nil, 0},
		{"tuned candidates", new(list(2, 8)), []float64{2, 8}, true, []string{
			"error at 5: " + where + "k = 8: a fit needs at least k training rows, and tuning fits every candidate, so every cell of the learner on the dataset would fail."}, nil, 0},
		{"no bound declared", new(param.Number(50)), nil, false, nil, nil, 0},
		{"a pair's problem of fewer rows, some values over", new(list(2, 3)), nil, true, []string{
			`warning at 5: Learner "knn": on dataset "iris" the smallest problem of reduction "ova" (problem 1, in the training part of fold 0) has 2 rows, fewer than k = 3 (1 of its 2 values): a fit needs at least k training rows, so the cells with those values would fail.`},
			map[string]problemRows{"ova": {Rows: 2, Problem: 1, Fold: 0}}, 0},
		{"a pair's problem of fewer rows, every value over", new(param.Number(3)), nil, true, []string{
			`error at 5: Learner "knn": on dataset "iris" the smallest problem of reduction "ova" (problem 1, in the training part of fold 0) has 2 rows, fewer than k = 3: a fit needs at least k training rows, so every cell of the learner with reduction "ova" on the dataset would fail.`},
			map[string]problemRows{"ova": {Rows: 2, Problem: 1, Fold: 0}}, 0},
		{"over the outer part and a problem: each value once", new(list(1, 3, 4)), nil, true, []string{
			"warning at 5: " + where + "k = 4 (1 of its 3 values): a fit needs at least k training rows, so the cells with those values would fail.",
			`warning at 5: Learner "knn": on dataset "iris" the smallest problem of reduction "ova" (problem 0, in the training part of fold 1) has 2 rows, fewer than k = 3 (1 of its 3 values): a fit needs at least k training rows, so the cells with those values would fail.`},
			map[string]problemRows{"ova": {Rows: 2, Problem: 0, Fold: 1}}, 0},
		{"a problem of as many rows as the part: the part's words", new(param.Number(4)), nil, true, []string{
			"error at 5: " + where + "k = 4: a fit needs at least k training rows, so every cell of the learner on the dataset would fail."},
			map[string]problemRows{"ova": {Rows: 3, Problem: 0, Fold: 0}}, 0},
		{"tune inner folds", new(list(2, 3)), []float64{2, 3}, true, []string{
			`error at 5: Learner "knn": on dataset "iris" an inner training part of tuning (tune folds = 3) within the smallest training part (fold 0) has at most 2 rows, fewer than k = 3: a fit needs at least k training rows, and tuning fits every candidate, so every cell of the learner on the dataset would fail.`},
			nil, 3},
		{"tune inner folds, candidates within", new(list(1, 2)), []float64{1, 2}, true, nil, nil, 3},
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
			if tc.folds > 0 {
				cfg.Tune = &config.Tune{Folds: tc.folds}
			}
			g.Learners = []*Learner{knn}
			g.Reductions = g.Reductions[:1]
			plans := map[dsRed]problemRows{}
			for name, pr := range tc.plans {
				for _, red := range g.Reductions {
					if red.Config.Name == name {
						plans[dsRed{g.Datasets[0], red}] = pr
					}
				}
			}
			var ck checker
			ck.trainingRows(g, knn, plans)
			var got []string
			for _, d := range ck.diags {
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

// TestFewestProblemRows: the fewest rows a problem of a plan trains on in
// an outer training part, counted per class for a code matrix's compact
// columns and per row for dense targets: 8 rows of classes 0,0,0,0,1,1,2,2
// in 2 folds, each training part holding classes 0, 0, 1, 2; the pair
// (1, 2) of a one-vs-one code has 2 rows there, the pair (0, 1) 3, a
// one-vs-all column 4.
func TestFewestProblemRows(t *testing.T) {
	d := &Dataset{Labels: []int{0, 0, 0, 0, 1, 1, 2, 2}, Folds: [][]int{{0, 1, 0, 1, 0, 1, 0, 1}}, NumFolds: 2}
	groups := []int32{0, 0, 0, 0, 1, 1, 2, 2}
	compact := func(code ...int8) plugin.Problem {
		return plugin.Problem{Kind: problem.Binary, Compact: &problem.CompactTargets{Groups: groups, Code: code}}
	}
	dense := func(skip int) plugin.Problem {
		p := plugin.Problem{Kind: problem.Multiclass, NumClasses: 3}
		for _, y := range d.Labels {
			v := float64(y)
			if y == skip {
				v = problem.NotUsed
			}
			p.Targets = append(p.Targets, v)
		}
		return p
	}
	tests := []struct {
		name     string
		problems []plugin.Problem
		want     problemRows
		ok       bool
	}{
		{"one-vs-one, compact", []plugin.Problem{compact(1, -1, 0), compact(1, 0, -1), compact(0, 1, -1)}, problemRows{Rows: 2, Problem: 2, Fold: 0}, true},
		{"one-vs-all, compact", []plugin.Problem{compact(1, -1, -1), compact(-1, 1, -1)}, problemRows{Rows: 4, Problem: 0, Fold: 0}, true},
		{"dense, a class left out", []plugin.Problem{dense(2), dense(0)}, problemRows{Rows: 2, Problem: 1, Fold: 0}, true},
		{"dense and compact", []plugin.Problem{dense(2), compact(1, -1, 0)}, problemRows{Rows: 3, Problem: 0, Fold: 0}, true},
		{"no problem", nil, problemRows{}, false},
	}
	// A row in no fold (−1) lies in every training part, as cv.Split has
	// it: row 5 (class 1) in no fold, the pair (1, 2) has rows 5 and 7 in
	// the training part of fold 0 (1 row without it), 4, 5 and 6 in fold
	// 1's.
	tests = append(tests, struct {
		name     string
		problems []plugin.Problem
		want     problemRows
		ok       bool
	}{"a row in no fold", []plugin.Problem{compact(0, 1, -1), dense(0)}, problemRows{Rows: 2, Problem: 0, Fold: 0}, true})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := d
			if tt.name == "a row in no fold" {
				d = &Dataset{Labels: d.Labels, Folds: [][]int{{0, 1, 0, 1, 0, -1, 0, 1}}, NumFolds: 2}
			}
			got, ok := fewestProblemRows(d, tt.problems)
			if got != tt.want || ok != tt.ok {
				t.Errorf("got %+v %v, want %+v %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}
