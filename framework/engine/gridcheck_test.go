package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/problem"
	"github.com/polyclass/polyclass/framework/sdk"
)

// at is a location on line n of exp.hcl.
func at(n int) hcl.Range {
	return hcl.Range{Filename: "exp.hcl", Start: hcl.Pos{Line: n, Column: 1}, End: hcl.Pos{Line: n, Column: 2}}
}

// handGrid is a bound grid built by hand, without files or processes:
// iris (multiclass: a, b, c; 6 rows, 2 folds) and emotions (multi-label),
// a binary learner without weights (svm) and a multiclass one with
// weights (lda), and the reductions ova (binary problems) and none (the
// whole task to the learner).
func handGrid() *Grid {
	exp := &config.Experiment{Metrics: []string{"accuracy"}, MetricRanges: []hcl.Range{at(1)}, MetricsRange: at(1), CV: config.CV{Stratified: true}}
	iris := &Dataset{Config: &config.Dataset{Name: "iris"}, Classes: []string{"a", "b", "c"},
		Labels: []int{0, 1, 2, 0, 1, 2}, Folds: [][]int{{0, 1, 0, 1, 0, 1}}, NumFolds: 2}
	emo := &Dataset{Config: &config.Dataset{Name: "emotions"}, Classes: []string{"happy", "sad"}, MultiLabel: true}
	svm := &Learner{Config: &config.Learner{Name: "svm", Plugin: "svm"}, Info: &sdk.LearnerInfo{Capabilities: sdk.Capabilities{Binary: true, Scores: true}}}
	lda := &Learner{Config: &config.Learner{Name: "lda", Plugin: "lda"}, Info: &sdk.LearnerInfo{Capabilities: sdk.Capabilities{Binary: true, Multiclass: true, Weights: true}}}
	ova := &Reduction{Config: &config.Reduction{Name: "ova", SchemeRange: at(20), CalibrateRange: at(21)}, Scheme: sdk.Scheme{Name: "ova"}}
	none := &Reduction{Config: &config.Reduction{Name: "none", SchemeRange: at(30), Learners: []string{"lda"}}, Scheme: sdk.Scheme{Name: "none", NeedsMulticlass: true}}
	return &Grid{Experiment: exp, Metrics: exp.Metrics, Datasets: []*Dataset{iris, emo},
		Learners: []*Learner{svm, lda}, Reductions: []*Reduction{ova, none}}
}

// TestCheck: the checks of a bound grid, on grids built by hand, each
// problem at its location, once (svm's class_weight is wrong under both
// reductions it meets); a grid with several problems gets them all.
func TestCheck(t *testing.T) {
	ok := func(g *Grid) {
		g.Datasets = g.Datasets[:1] // multiclass only
	}
	for _, tc := range []struct {
		name string
		edit func(g *Grid)
		want []string // line: summary
	}{
		{"a grid that fits", ok, nil},
		{"unknown metric", func(g *Grid) {
			ok(g)
			g.Experiment.Metrics = []string{"accuracy", "f1_macro"}
			g.Experiment.MetricRanges = []hcl.Range{at(1), at(2)}
		}, []string{"2: Unknown metric"}},
		{"metric of another kind of data", func(g *Grid) {
			ok(g)
			g.Experiment.Metrics = []string{"hamming_loss"}
		}, []string{"1: Metric does not fit the datasets"}},
		{"whole task to a binary learner", func(g *Grid) {
			ok(g)
			g.Reductions[1].Config.Learners = nil
		}, []string{"30: Learner cannot run without a reduction"}},
		{"class weights on a learner without weights", func(g *Grid) {
			ok(g)
			g.Learners[0].Config.ClassWeight = &config.ClassWeight{Balanced: true, Range: at(10)}
		}, []string{"10: Learner cannot take class weights"}},
		{"class weights twice", func(g *Grid) {
			ok(g)
			g.Learners[1].Config.ClassWeight = &config.ClassWeight{Balanced: true, Range: at(11)}
			g.Reductions[1].Config.ClassWeight = &config.ClassWeight{Balanced: true, Range: at(31)}
		}, []string{"31: Conflicting class weights"}},
		{"class weight of an unknown class", func(g *Grid) {
			ok(g)
			g.Learners[1].Config.ClassWeight = &config.ClassWeight{ByClass: map[string]float64{"a": 2, "z": 1}, Range: at(11)}
		}, []string{"11: Unknown class"}},
		{"multiclass scheme on multi-label data", func(g *Grid) {}, []string{"20: Reduction does not fit the dataset", "30: Reduction does not fit the dataset"}},
		{"calibrated on multi-label data", func(g *Grid) {
			g.Reductions = g.Reductions[:1]
			g.Reductions[0].Scheme.MultiLabel = true
			g.Reductions[0].Config.Datasets = []string{"emotions"}
			g.Reductions[0].Config.Calibrate = "platt"
		}, []string{"21: Cannot calibrate"}},
		{"tuning: nothing to tune, too few rows", func(g *Grid) {
			ok(g)
			g.Learners[1].Config.Tune = &config.Tune{Folds: 5, DeclRange: at(12), MetricRange: at(13)}
			g.Learners[1].TuneMetric = "accuracy"
		}, []string{"12: Nothing to tune", "12: Too few rows to tune"}},
		{"tuning for a timing", func(g *Grid) {
			ok(g)
			g.Learners[1].Config.Tune = &config.Tune{Folds: 2, Metric: "fit_seconds", DeclRange: at(12), MetricRange: at(13)}
			g.Learners[1].Tuned = map[string]bool{"C": true}
			g.Learners[1].TuneMetric = "fit_seconds"
		}, []string{"13: Invalid tune metric"}},
		{"tuning for a timing by default", func(g *Grid) {
			ok(g)
			g.Learners[1].Config.Tune = &config.Tune{Folds: 2, DeclRange: at(12)}
			g.Learners[1].Tuned = map[string]bool{"C": true}
			g.Learners[1].TuneMetric = "fit_seconds"
		}, []string{"12: Invalid tune metric"}},
		{"tuning for an unknown metric by default: reported once, at metrics", func(g *Grid) {
			ok(g)
			g.Experiment.Metrics = []string{"acuracy"}
			g.Experiment.MetricRanges = []hcl.Range{at(1)}
			g.Learners[1].Config.Tune = &config.Tune{Folds: 2, DeclRange: at(12)}
			g.Learners[1].Tuned = map[string]bool{"C": true}
			g.Learners[1].TuneMetric = "acuracy"
		}, []string{"1: Unknown metric"}},
		{"all at once", func(g *Grid) {
			g.Experiment.Metrics = []string{"accuracy", "f1_macro"}
			g.Experiment.MetricRanges = []hcl.Range{at(1), at(2)}
			g.Reductions[1].Config.Learners = nil
			g.Learners[0].Config.ClassWeight = &config.ClassWeight{Balanced: true, Range: at(10)}
		}, []string{"2: Unknown metric", "10: Learner cannot take class weights", "30: Learner cannot run without a reduction",
			"20: Reduction does not fit the dataset", "30: Reduction does not fit the dataset"}},
	} {
		g := handGrid()
		tc.edit(g)
		var got []string
		for _, d := range check(g) {
			if d.Severity == hcl.DiagError {
				got = append(got, fmt.Sprintf("%d: %s", d.Subject.Start.Line, d.Summary))
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: errors %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestCells: the cells are the cross product in dataset, pipeline,
// learner, parameter set, reduction, parameter set order, each reduction
// with the datasets it covers and the learners it takes.
func TestCells(t *testing.T) {
	g := handGrid()
	g.Pipelines = []*Pipeline{{Config: &config.Pipeline{Name: "raw"}}, {Config: &config.Pipeline{Name: "std"}}}
	g.Reductions[1].Config.Datasets = []string{"iris"}
	ova, none := g.Reductions[0], g.Reductions[1]
	svm, lda := g.Learners[0], g.Learners[1]
	lp := map[*Learner][]param.Params{svm: {{"C": param.Number(1)}, {"C": param.Number(10)}}, lda: {{}}}
	rp := map[*Reduction][]param.Params{ova: {{}}, none: {{}}}
	var got []string
	for i, c := range cells(g, lp, rp) {
		if c.Index != i {
			t.Errorf("cell %d has index %d", i, c.Index)
		}
		got = append(got, fmt.Sprintf("%s|%s|%s(%v)|%s", c.Dataset.Config.Name, c.Pipeline.Config.Name, c.Learner.Config.Name, c.Params, c.Reduction.Config.Name))
	}
	var want []string
	for _, d := range []string{"iris", "emotions"} {
		for _, p := range []string{"raw", "std"} {
			want = append(want, d+"|"+p+"|svm(C=1)|ova", d+"|"+p+"|svm(C=10)|ova", d+"|"+p+"|lda()|ova")
			if d == "iris" {
				want = append(want, d+"|"+p+"|lda()|none")
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("cells\n%q\nwant\n%q", got, want)
	}
}

// TestParamsApply: a parameter the file sets that applies under none of
// the learner's parameter sets and reductions draws a warning at its
// attribute saying when it applies; one that applies to some
// combination, or to a tuned learner's candidate, does not.
func TestParamsApply(t *testing.T) {
	specs := []param.ParamSpec{
		{Name: "C", Type: param.NumberParam, Default: param.Number(1)},
		{Name: "solver", Type: param.StringParam, Default: param.String("newton"), AppliesWhen: []param.Condition{param.OnProblems(problem.Binary)}},
		{Name: "multinomial", Type: param.BoolParam, Default: param.Bool(true), AppliesWhen: []param.Condition{param.OnProblems(problem.Multiclass)}},
		{Name: "epochs", Type: param.IntegerParam, Default: param.Number(100), AppliesWhen: []param.Condition{param.When("solver", "sgd")}},
	}
	set := func(line int, v param.Value) config.Param { return config.Param{Value: v, Range: at(line)} }
	for _, tc := range []struct {
		name   string
		params map[string]config.Param
		tuned  []param.Params
		none   bool // the learner meets reduction none too
		want   []string
	}{
		{"epochs with newton", map[string]config.Param{"epochs": set(5, param.Number(50)), "C": set(4, param.Number(2))}, nil, false,
			[]string{`5: Learner "lr" (plugin logreg): epochs applies only when solver is sgd, which no combination of this experiment meets; the plugin fits without it.`}},
		{"epochs with sgd in a list", map[string]config.Param{"epochs": set(5, param.Number(50)), "solver": set(6, param.List(param.String("newton"), param.String("sgd")))}, nil, false, nil},
		{"epochs with a tuned sgd", map[string]config.Param{"epochs": set(5, param.Number(50)), "solver": set(6, param.List(param.String("newton"), param.String("sgd")))},
			[]param.Params{{"solver": param.String("newton"), "epochs": param.Number(50)}, {"solver": param.String("sgd"), "epochs": param.Number(50)}}, false, nil},
		{"epochs with sgd under none only", map[string]config.Param{"epochs": set(5, param.Number(50)), "solver": set(6, param.String("sgd"))}, nil, true, nil},
		{"multinomial under ova", map[string]config.Param{"multinomial": set(7, param.Bool(false))}, nil, false,
			[]string{`7: Learner "lr" (plugin logreg): multinomial applies only when the learner fits multiclass problems, which no combination of this experiment meets; the plugin fits without it.`}},
		{"multinomial under ova and none", map[string]config.Param{"multinomial": set(7, param.Bool(false))}, nil, true, nil},
	} {
		g := handGrid()
		g.Datasets = g.Datasets[:1]
		lr := &Learner{Config: &config.Learner{Name: "lr", Plugin: "logreg", Params: tc.params},
			Info: &sdk.LearnerInfo{Params: specs, Capabilities: sdk.Capabilities{Binary: true, Multiclass: true}}, Candidates: tc.tuned}
		g.Learners = []*Learner{lr}
		g.Reductions[1].Config.Learners = nil
		if !tc.none {
			g.Reductions = g.Reductions[:1]
		}
		var got []string
		for _, d := range check(g) {
			if d.Severity == hcl.DiagWarning {
				got = append(got, fmt.Sprintf("%d: %s", d.Subject.Start.Line, d.Detail))
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: warnings %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestHalvingChecks: a halving search's first round must fit in the
// smallest outer training part (iris here: 3 rows, 3 classes), and one
// that the rows allow a single round is warned about.
func TestHalvingChecks(t *testing.T) {
	for _, tc := range []struct {
		name   string
		minRes int
		want   []string
	}{
		{"exhaust starts at 2 folds × 2 × 3 classes", config.MinExhaust, []string{
			"error 14: Too few rows to halve: Learner \"lda\": on dataset \"iris\" (fold 0): min_resources = 12 is more than the 3 rows of the outer training part; set a smaller min_resources."}},
		{"a round of 2 rows", 2, []string{
			"error 14: Too few rows per round: Learner \"lda\": on dataset \"iris\" (fold 0) round 1's 2 row(s) of the 3 rows of the outer training part leave the smallest of the 2 inner test parts (1 rows) no row: the fold would fail; set min_resources = 3 or more.",
			"warning 14: Halving in one round: Learner \"lda\": on dataset \"iris\" (fold 0) the 3 rows allow one round only: every candidate is scored on 2 of them and none is eliminated; lower min_resources or use strategy \"grid\"."}},
		{"rounds of 1 and 3 rows", 1, []string{
			"error 14: Too few rows per round: Learner \"lda\": on dataset \"iris\" (fold 0) round 1's 1 row(s) of the 3 rows of the outer training part leave the smallest of the 2 inner test parts (1 rows) no row: the fold would fail; set min_resources = 3 or more."}},
		{"one round of 3 rows", 3, []string{
			"warning 14: Halving in one round: Learner \"lda\": on dataset \"iris\" (fold 0) the 3 rows allow one round only: every candidate is scored on 3 of them and none is eliminated; lower min_resources or use strategy \"grid\"."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := handGrid()
			g.Datasets = g.Datasets[:1]
			l := g.Learners[1]
			l.Config.Tune = &config.Tune{Folds: 2, Strategy: config.StrategyHalving, Factor: 3, MinResources: tc.minRes, DeclRange: at(12)}
			if tc.minRes != config.MinExhaust {
				l.Config.Tune.MinResourcesRange = at(14)
			} else {
				l.Config.Tune.DeclRange = at(14)
			}
			l.TuneMetric, l.Tuned = "accuracy", map[string]bool{"C": true}
			l.Candidates = []param.Params{{"C": param.Number(1)}, {"C": param.Number(2)}, {"C": param.Number(3)}}
			var got []string
			for _, d := range check(g) {
				if strings.Contains(d.Summary, "alv") || strings.Contains(d.Summary, "per round") {
					got = append(got, fmt.Sprintf("%s %d: %s: %s", map[hcl.DiagnosticSeverity]string{hcl.DiagError: "error", hcl.DiagWarning: "warning"}[d.Severity], d.Subject.Start.Line, d.Summary, d.Detail))
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("diagnostics %q, want %q", got, tc.want)
			}
		})
	}
}
