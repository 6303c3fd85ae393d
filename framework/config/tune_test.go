package config

import (
	"cmp"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/polyclass/polyclass/framework/param"
)

// svm is a learner line after base (line 4) with params p and tune body tb.
func svm(p, tb string) string {
	return base + `learner "svm" {` + "\n  params = { " + p + " }\n  tune {\n" + tb + "\n  }\n}\n"
}

func TestSearchSpaceFunctions(t *testing.T) {
	for _, tc := range []struct {
		expr, want string
		kind       DistKind
		low, high  float64
	}{
		{"loguniform(1e-3, 1e3)", "loguniform(0.001, 1000)", LogUniform, 1e-3, 1e3},
		{"uniform(-1, 2.5)", "uniform(-1, 2.5)", Uniform, -1, 2.5},
		{"randint(1, 10)", "randint(1, 10)", RandInt, 1, 10},
		{"loguniform(pow(2, -5), pow(2, 15))", "loguniform(0.03125, 32768)", LogUniform, 1.0 / 32, 32768},
		{`choice(["rbf", "linear"])`, `choice(["rbf", "linear"])`, Choice, 0, 0},
		{"choice([0.1, 1, true])", "choice([0.1, 1, true])", Choice, 0, 0},
	} {
		t.Run(tc.expr, func(t *testing.T) {
			exp, diags := parse(t, svm("C = "+tc.expr, `strategy = "random"`+"\nn_iter = 4"))
			if diags != "" {
				t.Fatal(diags)
			}
			l := exp.Learners[1]
			d := l.Params["C"].Dist
			if d == nil {
				t.Fatalf("C = %v, no distribution", l.Params["C"].Value)
			}
			if d.String() != tc.want || d.Kind != tc.kind || d.Low != tc.low || d.High != tc.high {
				t.Errorf("%s = %+v, want %s", d, *d, tc.want)
			}
			if got := l.Params["C"].Range.Start; got.Line != 5 || got.Column != 18 {
				t.Errorf("located at %d:%d, want 5:18", got.Line, got.Column)
			}
			if l.Tune.Strategy != StrategyRandom || l.Tune.NIter != 4 || !l.Tune.Sampled() || l.Tune.IsGrid() {
				t.Errorf("tune %+v", *l.Tune)
			}
		})
	}
}

func TestTuneSettings(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       Tune
	}{
		{"defaults", "", Tune{Strategy: StrategyGrid, Factor: 3, MinResources: MinExhaust, Resource: ResourceNSamples}},
		{"halving", `strategy = "halving"` + "\nfactor = 2\nmin_resources = 40\naggressive_elimination = true",
			Tune{Strategy: StrategyHalving, Factor: 2, MinResources: 40, Resource: ResourceNSamples, AggressiveElimination: true}},
		{"halving smallest", `strategy = "halving"` + "\nmin_resources = \"smallest\"\nresource = \"n_samples\"",
			Tune{Strategy: StrategyHalving, Factor: 3, MinResources: MinSmallest, Resource: ResourceNSamples}},
		{"halving exhaust, drawn", `strategy = "halving"` + "\nmin_resources = \"exhaust\"\nn_iter = 30",
			Tune{Strategy: StrategyHalving, NIter: 30, Factor: 3, MinResources: MinExhaust, Resource: ResourceNSamples}},
		{"halving over max_iter", `strategy = "halving"` + "\nresource = \"max_iter\"\nmin_resources = 10",
			Tune{Strategy: StrategyHalving, Factor: 3, MinResources: 10, Resource: "max_iter"}},
		{"hyperband", `strategy = "hyperband"` + "\nfactor = 3\nmin_resources = 30\nmax_evals = 200",
			Tune{Strategy: StrategyHyperband, Factor: 3, MinResources: 30, Resource: ResourceNSamples, MaxEvals: 200}},
		{"inner_seed at its bound", "inner_seed = 4294967295",
			Tune{Strategy: StrategyGrid, Factor: 3, MinResources: MinExhaust, Resource: ResourceNSamples, InnerSeed: 4294967295}},
		{"random, budgets", `strategy = "random"` + "\nn_iter = 50\nmax_evals = 20\nmax_time = \"1m30s\"",
			Tune{Strategy: StrategyRandom, NIter: 50, Factor: 3, Resource: ResourceNSamples, MaxEvals: 20, MaxTime: 90 * time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exp, diags := parse(t, svm("C = [1, 10]", tc.body))
			if tc.want.MaxTime != 0 {
				// max_time's warning (TestTuneBudgetWarning) is the only diagnostic.
				diags = ""
			}
			if diags != "" {
				t.Fatal(diags)
			}
			got := *exp.Learners[1].Tune // InnerSeed 0 in want: unset (-1)
			if got.Strategy != tc.want.Strategy || got.NIter != tc.want.NIter || got.Factor != tc.want.Factor ||
				got.MinResources != tc.want.MinResources || got.Resource != tc.want.Resource || got.AggressiveElimination != tc.want.AggressiveElimination ||
				got.MaxEvals != tc.want.MaxEvals || got.MaxTime != tc.want.MaxTime || got.InnerSeed != cmp.Or(tc.want.InnerSeed, -1) {
				t.Errorf("tune %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestSearchSpaceDiagnostics(t *testing.T) {
	random := `strategy = "random"` + "\nn_iter = 4"
	for _, tc := range []struct {
		name, src, want string
	}{
		{"loguniform from 0", svm("C = loguniform(0, 1)", random),
			"exp.hcl:5:29: error: Invalid function argument; Invalid value for \"a\" parameter: loguniform(a, b) needs 0 < a < b, not a = 0."},
		{"uniform reversed", svm("C = uniform(2, 1)", random),
			"exp.hcl:5:29: error: Invalid function argument; Invalid value for \"b\" parameter: uniform(a, b) needs a < b, not a = 2, b = 1."},
		{"randint fraction", svm("C = randint(1, 2.5)", random),
			"exp.hcl:5:29: error: Invalid function argument; Invalid value for \"b\" parameter: randint(a, b) draws whole numbers: its bounds must be whole numbers, not 2.5."},
		{"choice empty", svm("C = choice([])", random),
			"exp.hcl:5:25: error: Invalid function argument; Invalid value for \"values\" parameter: choice needs at least one value."},
		{"choice of a string", svm(`C = choice("rbf")`, random),
			"exp.hcl:5:26: error: Invalid function argument; Invalid value for \"values\" parameter: choice takes a list such as [\"rbf\", \"linear\"], not string."},
		{"choice of lists", svm("C = choice([[1], [2]])", random),
			"exp.hcl:5:25: error: Invalid function argument; choice's values are numbers, strings or bools, not lists"},
		{"distribution in a list", svm("C = [loguniform(1, 2), 3]", random),
			"exp.hcl:5:18: error: Invalid parameter value; Learner \"svm\": C: a distribution such as loguniform(a, b) is a parameter's whole value, not an element of a list."},
		{"no tune block", base + "learner \"svm\" { params = { C = loguniform(1, 10) } }\n",
			"exp.hcl:4:32: error: Search space without tune; Learner \"svm\": C = loguniform(1, 10) is a search space: add tune { strategy = \"random\", n_iter = 20 }"},
		{"grid strategy", svm("C = loguniform(1, 10)", ""),
			"exp.hcl:5:18: error: Search space in a grid; Learner \"svm\": C = loguniform(1, 10) is a search space, but strategy \"grid\" tries listed values only"},
		{"halving without n_iter", svm("C = uniform(1, 10)", `strategy = "halving"`),
			"exp.hcl:5:18: error: Search space in a grid; Learner \"svm\": C = uniform(1, 10) is a search space, but strategy \"halving\" tries listed values only"},
		{"reduction", base + "reduction \"ecoc\" { seed = randint(0, 9) }\n",
			"exp.hcl:4:27: error: Invalid parameter value; Reduction \"ecoc\": seed = randint(0, 9): only a learner's parameters take a search space"},
		{"unknown strategy", svm("C = [1, 2]", `strategy = "bayes"`),
			"exp.hcl:7:12: error: Invalid strategy; strategy is \"grid\", \"random\", \"halving\" or \"hyperband\", not \"bayes\"."},
		{"random without n_iter", svm("C = [1, 2]", `strategy = "random"`),
			"exp.hcl:7:12: error: Missing n_iter; strategy = \"random\" draws n_iter candidates"},
		{"n_iter in a grid", svm("C = [1, 2]", "n_iter = 3"),
			"exp.hcl:7:10: error: Invalid n_iter; n_iter draws candidates for strategy \"random\", \"halving\" or \"hyperband\"; strategy \"grid\" tries every combination."},
		{"n_iter zero", svm("C = [1, 2]", `strategy = "random"`+"\nn_iter = 0"),
			"exp.hcl:8:10: error: Invalid value; n_iter must be a whole number >= 1, not 0."},
		// Campaign 14 T18: 2^32 was refused as "must be a whole number >= 0,
		// not 4.294967296e+09": the bound is named, the number in full.
		{"inner_seed 2^32", svm("C = [1, 2]", "inner_seed = 4294967296"),
			"exp.hcl:7:14: error: Invalid value; inner_seed must be a whole number from 0 to 4294967295, not 4294967296."},
		{"inner_seed 1e30", svm("C = [1, 2]", "inner_seed = 1e30"),
			"exp.hcl:7:14: error: Invalid value; inner_seed must be a whole number from 0 to 4294967295, not 1e+30."},
		{"inner_seed -1", svm("C = [1, 2]", "inner_seed = -1"),
			"exp.hcl:7:14: error: Invalid value; inner_seed must be a whole number >= 0, not -1."},
		{"n_iter above the maximum", svm("C = loguniform(0.01, 100)", `strategy = "random"`+"\nn_iter = 1000000000"),
			"exp.hcl:8:10: error: Too many candidates; n_iter = 1000000000 draws more than the 10000 candidates a search holds; use a smaller n_iter."},
		{"n_iter at the maximum plus one, halving", svm("C = loguniform(0.01, 100)", `strategy = "halving"`+"\nn_iter = 10001"),
			"exp.hcl:8:10: error: Too many candidates; n_iter = 10001 draws"},
		{"factor without halving", svm("C = [1, 2]", "factor = 2"),
			"exp.hcl:7:10: error: Not a halving search; factor, min_resources, resource and aggressive_elimination set successive halving"},
		{"factor 1", svm("C = [1, 2]", `strategy = "halving"`+"\nfactor = 1"),
			"exp.hcl:8:10: error: Invalid value; factor must be a whole number >= 2, not 1."},
		{"min_resources word", svm("C = [1, 2]", `strategy = "halving"`+"\nmin_resources = \"all\""),
			"exp.hcl:8:17: error: Invalid min_resources; min_resources is a whole number of rows >= 1, \"exhaust\" or \"smallest\"."},
		{"min_resources zero", svm("C = [1, 2]", `strategy = "halving"`+"\nmin_resources = 0"),
			"exp.hcl:8:17: error: Invalid min_resources; min_resources is a whole number"},
		{"aggressive hyperband", svm("C = [1, 2]", `strategy = "hyperband"`+"\naggressive_elimination = true"),
			"exp.hcl:8:26: error: Not a halving search; aggressive_elimination is strategy \"halving\"'s: hyperband's brackets each start from their own number of rows."},
		{"max_evals in a grid", svm("C = [1, 2]", "max_evals = 3"),
			"exp.hcl:7:13: error: Budget of a grid; max_evals and max_time bound a search of strategy \"random\", \"halving\" or \"hyperband\"; strategy \"grid\" scores every combination."},
		{"max_evals zero", svm("C = [1, 2]", `strategy = "halving"`+"\nmax_evals = 0"),
			"exp.hcl:8:13: error: Invalid value; max_evals must be a whole number >= 1, not 0."},
		{"max_time not a duration", svm("C = [1, 2]", `strategy = "hyperband"`+"\nmax_time = \"5 minutes\""),
			"exp.hcl:8:12: error: Invalid max_time; max_time is a positive duration such as \"30s\", \"5m\" or \"1h30m\", not \"5 minutes\"."},
		{"max_time negative", svm("C = [1, 2]", `strategy = "random"`+"\nn_iter = 2\nmax_time = \"-1s\""),
			"exp.hcl:9:12: error: Invalid max_time; max_time is a positive duration"},
		{"resource empty", svm("C = [1, 2]", `strategy = "halving"`+"\nresource = \"\""),
			"exp.hcl:8:12: error: Invalid resource; resource is \"n_samples\" or a budget parameter of the learner's plugin, such as \"max_iter\", not \"\"."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parse(t, tc.src)
			at, detail, _ := strings.Cut(tc.want, "; ")
			if !strings.Contains(diags, at+"\n") || !strings.Contains(diags, detail) {
				t.Fatalf("diagnostics:\n%s\nwant %q with %q", diags, at, detail)
			}
		})
	}
}

// TestTuneBudgetWarning: max_time is accepted with a warning at its
// place, since how far a timed search gets depends on the machine.
func TestTuneBudgetWarning(t *testing.T) {
	_, diags := parse(t, svm("C = [1, 2]", `strategy = "halving"`+"\nmax_time = \"5m\""))
	at := "exp.hcl:8:12: warning: Results depend on the machine\n"
	detail := "max_time = \"5m\" stops each outer fold's search after that long: how many candidates and rounds it reaches, and so the choices and every score, then depend on the machine, its load and -j; max_evals bounds the search the same on every machine."
	if !strings.HasPrefix(diags, at) || !strings.Contains(diags, detail) || strings.Contains(diags, "error") {
		t.Errorf("diagnostics:\n%s\nwant only %q with %q", diags, at, detail)
	}
}

func TestDistributionCheckSpec(t *testing.T) {
	num := param.ParamSpec{Name: "C", Type: param.NumberParam, Min: param.Bound(0), MinExclusive: true}
	integer := param.ParamSpec{Name: "degree", Type: param.IntegerParam, Min: param.Bound(1), Max: param.Bound(10)}
	kernel := param.ParamSpec{Name: "kernel", Type: param.StringParam, Allowed: []string{"rbf", "linear"}}
	for _, tc := range []struct {
		name string
		d    Distribution
		s    param.ParamSpec
		want string // "" for no error
	}{
		{"loguniform C", Distribution{Kind: LogUniform, Low: 1e-3, High: 1e3}, num, ""},
		{"uniform from 0 for C > 0", Distribution{Kind: Uniform, Low: 0, High: 1}, num, "it can draw 0: C = 0 is out of range: it must be > 0"},
		{"randint degree", Distribution{Kind: RandInt, Low: 1, High: 11}, integer, ""},
		{"randint degree too high", Distribution{Kind: RandInt, Low: 1, High: 12}, integer, "it can draw 11: degree = 11 is out of range: it must be <= 10"},
		{"loguniform degree", Distribution{Kind: LogUniform, Low: 1, High: 10}, integer, "degree is an integer parameter: loguniform draws fractions; use randint(a, b) or choice([...])"},
		{"uniform kernel", Distribution{Kind: Uniform, Low: 1, High: 10}, kernel, "kernel is a string parameter: uniform draws numbers; use choice([...])"},
		{"choice kernel", Distribution{Kind: Choice, Choices: []param.Value{param.String("rbf"), param.String("linear")}}, kernel, ""},
		{"choice kernel typo", Distribution{Kind: Choice, Choices: []param.Value{param.String("rbf"), param.String("poly")}}, kernel, `kernel = "poly" is not one of "rbf", "linear"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.d.CheckSpec(tc.s)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// FuzzSearchSpaceBounds: a distribution with any bounds is either an
// error at the call or a distribution whose draws lie within them.
func FuzzSearchSpaceBounds(f *testing.F) {
	f.Add("loguniform", 1e-3, 1e3)
	f.Add("uniform", -1.0, 1.0)
	f.Add("randint", 1.0, 10.0)
	f.Add("loguniform", 0.0, 1.0)
	f.Add("randint", 3.0, 3.0)
	f.Add("uniform", 1e300, 1.7e308)
	f.Add("uniform", -1.7e308, 1.7e308)
	f.Fuzz(func(t *testing.T, kind string, a, b float64) {
		if kind != "loguniform" && kind != "uniform" && kind != "randint" {
			return
		}
		d := &Distribution{Kind: DistKind(kind), Low: a, High: b}
		if d.checkBounds() != nil {
			return
		}
		r := rand.New(rand.NewPCG(1, 2))
		for range 20 {
			v := d.Sample(r).Num()
			if !(v >= a && v <= b) || (d.Kind == RandInt && (v == b || v != math.Trunc(v))) || math.IsNaN(v) {
				t.Fatalf("%s drew %v", d, v)
			}
		}
	})
}
