package engine

import (
	"encoding/json"
	"testing"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/problem"
	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/framework/setup"
)

// setupGrid is two datasets × one pipeline (standardize, then onehot
// with one option set) × a labelled learner whose C varies (2 settings)
// and an unlabelled one × a labelled ecoc reduction whose decoder varies
// and a calibrated ova: 2·(2+1)·(2+1) = 18 cells, 9 rows.
func setupGrid() *Grid {
	exp := &config.Experiment{Name: "setup", Encoders: []*config.Encoder{
		{Name: "std", Type: "standardize"},
		{Name: "hot", Type: "onehot", Options: map[string]config.Param{"min_frequency": {Value: param.Number(3)}}},
	}}
	specs := []param.ParamSpec{
		{Name: "C", Type: param.NumberParam, Default: param.Number(1)},
		{Name: "max_iter", Type: param.IntegerParam, Default: param.Number(1000)},
		{Name: "tol", Type: param.NumberParam},
	}
	lr := &Learner{Config: &config.Learner{Name: "lr", Plugin: "logreg", Label: "LR",
		Params: map[string]config.Param{"C": {Value: param.List(param.Number(0.1), param.Number(10))}, "tol": {Value: param.Number(1e-6)}}},
		Info: &sdk.LearnerInfo{Params: specs}, Tuned: map[string]bool{"C": true}}
	plain := &Learner{Config: &config.Learner{Name: "svm", Plugin: "svm", ClassWeight: &config.ClassWeight{Balanced: true}},
		Info: &sdk.LearnerInfo{Params: specs}}
	decode := param.ParamSpec{Name: "decode", Type: param.StringParam, Default: param.String("hamming")}
	ecoc := &Reduction{Config: &config.Reduction{Name: "ecoc", Plugin: "reducers", Label: "ECOC"},
		Scheme: sdk.Scheme{Name: "ecoc", Params: []param.ParamSpec{decode, {Name: "code", Type: param.StringParam}}},
		Varied: map[string]bool{"decode": true}}
	ova := &Reduction{Config: &config.Reduction{Name: "ova", Plugin: "reducers", Calibrate: "platt"},
		Scheme: sdk.Scheme{Name: "ova", Params: []param.ParamSpec{{Name: "decode", Type: param.StringParam, Default: param.String("argmax")}}}}
	g := &Grid{Experiment: exp, Pipelines: []*Pipeline{{Config: &config.Pipeline{Name: "prep", Steps: []string{"std", "hot"}}}},
		Learners: []*Learner{lr, plain}, Reductions: []*Reduction{ecoc, ova}}
	for _, name := range []string{"iris", "letter"} {
		g.Datasets = append(g.Datasets, &Dataset{Config: &config.Dataset{Name: name}})
	}
	ecocParams := []param.Params{
		{"code": param.String("random_dense"), "decode": param.String("hamming")},
		{"code": param.String("random_dense"), "decode": param.String("loss:exp")},
	}
	for _, d := range g.Datasets {
		for _, rp := range ecocParams {
			words := "random dense code, ⌈10·log₂ K⌉ columns"
			if d.Config.Name == "letter" {
				words = "random dense code, 48 columns" // a reducer whose words differ by dataset
			}
			g.Plans = append(g.Plans, PlanInfo{Dataset: d.Config.Name, Reduction: ecoc.Label(rp),
				Description: sdk.PlanDescription{Code: words, Decoder: "decoder " + rp.Str("decode")}})
		}
		g.Plans = append(g.Plans, PlanInfo{Dataset: d.Config.Name, Reduction: "ova",
			Description: sdk.PlanDescription{Code: "one-vs-all", Decoder: "argmax"}})
		for _, l := range []struct {
			l *Learner
			p []param.Params
		}{{lr, []param.Params{{"C": param.Number(0.1), "tol": param.Number(1e-6)}, {"C": param.Number(10), "tol": param.Number(1e-6)}}},
			{plain, []param.Params{{}}}} {
			for _, lp := range l.p {
				for _, rp := range ecocParams {
					g.Cells = append(g.Cells, &Cell{Index: len(g.Cells), Dataset: d, Pipeline: g.Pipelines[0], Learner: l.l, Params: lp, Reduction: ecoc, RedParams: rp})
				}
				g.Cells = append(g.Cells, &Cell{Index: len(g.Cells), Dataset: d, Pipeline: g.Pipelines[0], Learner: l.l, Params: lp, Reduction: ova, RedParams: param.Params{}})
			}
		}
	}
	return g
}

// TestGridSetup: one set-up row per table row, in cell order: the names
// the tables show (labels; a labelled learner's varied parameters only),
// every parameter with its defaults marked, the pipeline's steps with
// their options, the reducer's words per dataset where they differ,
// calibration and class weights.
func TestGridSetup(t *testing.T) {
	rows := setupGrid().Setup()
	if len(rows) != 9 {
		t.Fatalf("%d rows, want 9", len(rows))
	}
	first := rows[1] // LR C=0.1 with ecoc decoding by loss:exp
	want := setup.Row{
		Key:  setup.Key{Encoder: "prep", Learner: "lr", Params: "C=0.1,tol=1e-06", Reduction: "ecoc[decode=loss:exp]"},
		Show: setup.Key{Encoder: "prep", Learner: "LR", Params: "C=0.1", Reduction: "ECOC[decode=loss:exp]"},
		Pipeline: []setup.Step{{Name: "std", Type: "standardize"},
			{Name: "hot", Type: "onehot", Options: []setup.Param{{Name: "min_frequency", Value: "3"}}}},
		LearnerPlugin: "logreg",
		LearnerParams: []setup.Param{{Name: "C", Value: "0.1"}, {Name: "max_iter", Value: "1000", Default: true}, {Name: "tol", Value: "1e-06"}},
		Scheme:        "ecoc", ReductionPlugin: "reducers",
		ReductionParams: []setup.Param{{Name: "code", Value: "random_dense"}, {Name: "decode", Value: "loss:exp"}},
		Code: []setup.Phrase{{Text: "random dense code, ⌈10·log₂ K⌉ columns", Datasets: []string{"iris"}},
			{Text: "random dense code, 48 columns", Datasets: []string{"letter"}}},
		Decoder: []setup.Phrase{{Text: "decoder loss:exp"}},
	}
	// The onehot step's own options come from the encoder's specs: compare
	// the options the test set, and that defaults are marked.
	gotJSON, _ := json.Marshal(trimOptions(first))
	wantJSON, _ := json.Marshal(want)
	if string(gotJSON) != string(wantJSON) {
		t.Errorf("row 1\n got %s\nwant %s", gotJSON, wantJSON)
	}
	for _, o := range first.Pipeline[1].Options {
		if o.Name != "min_frequency" && !o.Default {
			t.Errorf("onehot option %s=%s not marked as a default", o.Name, o.Value)
		}
	}
	ova := rows[8] // svm with the calibrated ova
	if ova.Show.Learner != "svm" || ova.Show.Params != "" || ova.Show.Reduction != "ova" || ova.Calibration != "platt" ||
		ova.ClassWeight != "balanced" || setup.Phrases(ova.Code) != "one-vs-all" {
		t.Errorf("svm ova row: %+v", ova)
	}
	if got := setup.Params(ova.ReductionParams); got != "decode=argmax (default)" {
		t.Errorf("ova parameters %q", got)
	}
	if got := setup.Phrases(first.Code); got != "iris: random dense code, ⌈10·log₂ K⌉ columns; letter: random dense code, 48 columns" {
		t.Errorf("code words %q", got)
	}
}

// trimOptions keeps the options of the pipeline's steps that the file
// set, for comparison.
func trimOptions(r setup.Row) setup.Row {
	steps := make([]setup.Step, len(r.Pipeline))
	for i, s := range r.Pipeline {
		steps[i] = setup.Step{Name: s.Name, Type: s.Type}
		for _, o := range s.Options {
			if !o.Default {
				steps[i].Options = append(steps[i].Options, o)
			}
		}
	}
	r.Pipeline = steps
	return r
}

// TestSetupListsApplicableParams: a row lists the learner's parameters
// that apply to the model that ran: under ova (binary problems) the
// solver's own parameters only, under scheme none (the whole multiclass
// task) the softmax's; a tuned learner's parameter that applies to some
// candidate stays. A reduction's parameters follow their conditions too.
func TestSetupListsApplicableParams(t *testing.T) {
	specs := []param.ParamSpec{
		{Name: "C", Type: param.NumberParam, Default: param.Number(1)},
		{Name: "solver", Type: param.StringParam, Default: param.String("newton"), AppliesWhen: []param.Condition{param.OnProblems(problem.Binary)}},
		{Name: "multinomial", Type: param.BoolParam, Default: param.Bool(true), AppliesWhen: []param.Condition{param.OnProblems(problem.Multiclass)}},
		{Name: "max_iter", Type: param.IntegerParam, Default: param.Number(1000), AppliesWhen: []param.Condition{param.When("solver", "newton"), param.OnProblems(problem.Multiclass)}},
		{Name: "epochs", Type: param.IntegerParam, Default: param.Number(100), AppliesWhen: []param.Condition{param.When("solver", "sgd")}},
	}
	info := &sdk.LearnerInfo{Params: specs}
	newton := &Learner{Config: &config.Learner{Name: "newton", Plugin: "logreg"}, Info: info}
	sgd := &Learner{Config: &config.Learner{Name: "sgd", Plugin: "logreg", Params: map[string]config.Param{"solver": {Value: param.String("sgd")}}}, Info: info}
	tuned := &Learner{Config: &config.Learner{Name: "tuned", Plugin: "logreg", Tune: &config.Tune{Folds: 3}, Params: map[string]config.Param{"solver": {Value: param.List(param.String("newton"), param.String("sgd"))}}},
		Info: info, Tuned: map[string]bool{"solver": true}, Candidates: []param.Params{{"solver": param.String("newton")}, {"solver": param.String("sgd")}}}
	ova := &Reduction{Config: &config.Reduction{Name: "ova", Plugin: "reducers"}, Scheme: sdk.Scheme{Name: "ova"}}
	ecoc := &Reduction{Config: &config.Reduction{Name: "ecoc", Plugin: "reducers"}, Scheme: sdk.Scheme{Name: "ecoc", Params: []param.ParamSpec{
		{Name: "code", Type: param.StringParam, Default: param.String("random_dense")},
		{Name: "factor", Type: param.NumberParam, Default: param.Number(10), AppliesWhen: []param.Condition{param.When("code", "random_dense", "random_sparse")}},
	}}, Varied: map[string]bool{"code": true}}
	none := &Reduction{Config: &config.Reduction{Name: "none", Plugin: "reducers"}, Scheme: sdk.Scheme{Name: "none", NeedsMulticlass: true}}
	g := &Grid{Experiment: &config.Experiment{Name: "applies"}, Pipelines: []*Pipeline{{Config: &config.Pipeline{Name: "default"}}}}
	d := &Dataset{Config: &config.Dataset{Name: "iris"}}
	for _, c := range []struct {
		l   *Learner
		p   param.Params
		red *Reduction
		rp  param.Params
	}{
		{newton, param.Params{}, ova, param.Params{}},
		{newton, param.Params{}, none, param.Params{}},
		{sgd, param.Params{"solver": param.String("sgd")}, ova, param.Params{}},
		{sgd, param.Params{"solver": param.String("sgd")}, none, param.Params{}},
		{tuned, whole(tuned.Config.Params), ova, param.Params{}},
		{newton, param.Params{}, ecoc, param.Params{"code": param.String("exhaustive")}},
		{newton, param.Params{}, ecoc, param.Params{"code": param.String("random_dense")}},
	} {
		g.Cells = append(g.Cells, &Cell{Index: len(g.Cells), Dataset: d, Pipeline: g.Pipelines[0], Learner: c.l, Params: c.p, Reduction: c.red, RedParams: c.rp})
	}
	want := []string{
		"newton ova: C=1 (default), max_iter=1000 (default), solver=newton (default) | –",
		"newton none: C=1 (default), max_iter=1000 (default), multinomial=true (default) | –",
		"sgd solver=sgd ova: C=1 (default), epochs=100 (default), solver=sgd | –",
		"sgd solver=sgd none: C=1 (default), max_iter=1000 (default), multinomial=true (default) | –",
		"tuned solver=[newton, sgd] (tuned) ova: C=1 (default), epochs=100 (default), max_iter=1000 (default), solver=[newton, sgd] | –",
		"newton ecoc[code=exhaustive]: C=1 (default), max_iter=1000 (default), solver=newton (default) | code=exhaustive",
		"newton ecoc[code=random_dense]: C=1 (default), max_iter=1000 (default), solver=newton (default) | code=random_dense, factor=10 (default)",
	}
	rows := g.Setup()
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for i, r := range rows {
		got := r.Key.Label(false) + ": " + setup.Params(r.LearnerParams) + " | " + setup.Params(r.ReductionParams)
		if got != want[i] {
			t.Errorf("row %d\n got %s\nwant %s", i, got, want[i])
		}
	}
}

// TestSetupShowsWhatDefaultMeans checks that a parameter whose spec says
// what its placeholder default stands for (DefaultMeans "1/features", as
// the svm plugin's gamma = 0) shows that meaning in the set-up rows, not
// the bare 0, whether left to its default or set to it; any other value
// shows as it is. A description's text is not read for it: coef0's
// "[default: …]" suffix (the form plugins used before DefaultMeans) is
// only words.
func TestSetupShowsWhatDefaultMeans(t *testing.T) {
	specs := []param.ParamSpec{
		{Name: "C", Type: param.NumberParam, Default: param.Number(1)},
		{Name: "coef0", Type: param.NumberParam, Default: param.Number(0), Description: "the kernel's constant [default: none]"},
		{Name: "gamma", Type: param.NumberParam, Default: param.Number(0), DefaultMeans: "1/features",
			Description: "γ of the rbf kernel (0: 1/number of features)"},
	}
	for _, c := range []struct {
		name  string
		given param.Params
		want  string
	}{
		{"left to the default", param.Params{}, "C=1 (default), coef0=0 (default), gamma=1/features (default)"},
		{"set to the default", param.Params{"gamma": param.Number(0)}, "C=1 (default), coef0=0 (default), gamma=1/features"},
		{"set to another value", param.Params{"gamma": param.Number(0.5)}, "C=1 (default), coef0=0 (default), gamma=0.5"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := setup.Params(withDefaults(specs, c.given)); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}
