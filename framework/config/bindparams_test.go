package config

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/param"
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
		params         map[string]Param
		specs          []param.ParamSpec
		max            int
		want           string
	}{
		{"given", "max_iter", map[string]Param{"max_iter": {Value: param.Number(300), Range: parAt}}, specs, 300, ""},
		{"the default", "epochs", nil, specs, 100, ""},
		{"not a budget", "C", nil, specs, 0,
			`exp.hcl:9:16: Not a budget parameter: Learner "lr": resource = "C" is neither "n_samples" nor a parameter plugin "logreg" declares a budget (an integer bounding a fit's work, such as max_iter); its budget parameters are max_iter, epochs.`},
		{"unknown", "iterations", nil, specs[:1], 0,
			`exp.hcl:9:16: Not a budget parameter: Learner "lr": resource = "iterations" is neither "n_samples" nor a parameter plugin "logreg" declares a budget (an integer bounding a fit's work, such as max_iter); it declares none.`},
		{"tuned", "max_iter", map[string]Param{"max_iter": {Value: param.List(param.Number(10), param.Number(100)), Range: parAt}}, specs, 0,
			`exp.hcl:5:7: Tuned budget parameter: Learner "lr": max_iter is the search's resource, which its rounds grow: give it one whole number, the largest budget (such as max_iter = 1000), not a list or a search space.`},
		{"applies with the parameters", "epochs", map[string]Param{"solver": {Value: param.String("sgd")}}, withSolver, 100, ""},
		{"applies to some candidates", "epochs", map[string]Param{"solver": {Value: param.List(param.String("sgd"), param.String("newton"))}}, withSolver, 100, ""},
		{"does not apply", "epochs", nil, withSolver, 0,
			`exp.hcl:9:16: Budget parameter does not apply: Learner "lr": resource = "epochs" does not apply with the learner's parameters (it applies when solver is sgd), so growing it would not change a fit: choose the budget parameter of the method the learner uses, or set the parameters it needs.`},
		{"a fraction", "max_iter", map[string]Param{"max_iter": {Value: param.Number(2.5), Range: parAt}}, specs, 0,
			`exp.hcl:5:7: Invalid budget: Learner "lr": the largest budget max_iter = 2.5 is not a whole number >= 1.`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &Learner{Name: "lr", Plugin: "logreg", Params: tc.params,
				Tune: &Tune{Strategy: StrategyHalving, Resource: tc.resource, ResourceRange: resAt}}
			max, d := budgetResource(l, tc.specs)
			ok := d == nil
			var got string
			if d != nil {
				got = fmt.Sprintf("%s:%d:%d: %s: %s", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column, d.Summary, d.Detail)
			}
			if got != tc.want || max != tc.max || ok != (tc.want == "") {
				t.Errorf("largest %d (%v), diagnostic\n%s\nwant %d,\n%s", max, ok, got, tc.max, tc.want)
			}
		})
	}
}

func TestExpand(t *testing.T) {
	specs := []param.ParamSpec{
		{Name: "C", Type: param.NumberParam},
		{Name: "solver", Type: param.StringParam},
		{Name: "matrix", Type: param.NumberMatrixParam},
		{Name: "order", Type: param.StringListParam},
	}
	params := map[string]Param{
		"C":      {Value: param.List(param.Number(0.1), param.Number(1))},
		"solver": {Value: param.List(param.String("newton"), param.String("lbfgs"), param.String("sgd"))},
		"matrix": {Value: param.List(param.List(param.Number(1)), param.List(param.Number(-1)))},
		"order":  {Value: param.List(param.String("a"), param.String("b"))},
	}
	got, varied := Expand(params, specs)
	if len(got) != 6 {
		t.Fatalf("%d combinations, want 2 × 3 = 6", len(got))
	}
	var labels []string
	for _, p := range got {
		labels = append(labels, p.String())
	}
	// Lists of list-typed parameters stay whole; names expand in sorted
	// order, values in the order written.
	want := "C=0.1,matrix=[[1], [-1]],order=[a, b],solver=newton"
	if labels[0] != want || !strings.HasPrefix(labels[5], "C=1,") || !strings.HasSuffix(labels[5], "solver=sgd") {
		t.Errorf("combinations %v", labels)
	}
	if !varied["C"] || !varied["solver"] || varied["matrix"] || varied["order"] {
		t.Errorf("varied = %v", varied)
	}
	if got, _ := Expand(nil, specs); len(got) != 1 || len(got[0]) != 0 {
		t.Errorf("no parameters: %v, want one empty combination", got)
	}
}

// TestParamSets: the number of parameter sets the lists make, counted
// without making them and saturating at limit+1, is the length of what
// Expand makes when it is within the limit; lists of a list-typed
// parameter (a code matrix) and unknown names do not multiply.
func TestParamSets(t *testing.T) {
	specs := []param.ParamSpec{
		{Name: "C", Type: param.NumberParam}, {Name: "tol", Type: param.NumberParam},
		{Name: "order", Type: param.StringListParam},
	}
	list := func(n int) Param {
		vs := make([]param.Value, n)
		for i := range vs {
			vs[i] = param.Number(float64(i + 1))
		}
		return Param{Value: param.List(vs...)}
	}
	for _, tc := range []struct {
		name   string
		params map[string]Param
		limit  int
		want   int
		lists  string
	}{
		{"none", nil, 10, 1, ""},
		{"scalar", map[string]Param{"C": {Value: param.Number(1)}}, 10, 1, ""},
		{"two lists", map[string]Param{"C": list(3), "tol": list(2)}, 10, 6, "C 3 × tol 2"},
		{"at the limit", map[string]Param{"C": list(5), "tol": list(2)}, 10, 10, "C 5 × tol 2"},
		{"over", map[string]Param{"C": list(6), "tol": list(2)}, 10, 11, "C 6 × tol 2"},
		{"far over", map[string]Param{"C": list(999), "tol": list(999)}, 10, 11, "C 999 × tol 999"},
		{"empty list", map[string]Param{"C": list(0), "tol": list(999)}, 10, 0, "C 0 × tol 999"},
		{"list-typed", map[string]Param{"order": list(4), "C": list(2)}, 10, 2, "C 2"},
		{"unknown", map[string]Param{"x": list(4)}, 10, 1, ""},
	} {
		n, lists := ParamSets(tc.params, specs, tc.limit)
		if n != tc.want || lists != tc.lists {
			t.Errorf("%s: ParamSets = %d, %q; want %d, %q", tc.name, n, lists, tc.want, tc.lists)
		}
		if n > tc.limit {
			continue
		}
		if sets, _ := Expand(tc.params, specs); len(sets) != n {
			t.Errorf("%s: Expand makes %d sets, ParamSets says %d", tc.name, len(sets), n)
		}
	}
}

// TestEncoderBindOptions: an encoder's options are checked against its
// type's specs (one value each: a list for a scalar option is an error
// at the option, in the order of the names; then CheckParams), and come
// back with the specs' defaults.
func TestEncoderBindOptions(t *testing.T) {
	specs := []param.ParamSpec{
		{Name: "buckets", Type: param.IntegerParam, Default: param.Number(1024)},
		{Name: "alternate_sign", Type: param.BoolParam, Default: param.Bool(false)},
	}
	at := func(line int) hcl.Range {
		return hcl.Range{Filename: "exp.hcl", Start: hcl.Pos{Line: line, Column: 13}}
	}
	list := param.List(param.Number(8), param.Number(16))
	for _, tc := range []struct {
		name    string
		options map[string]Param
		want    string
	}{
		{"defaults", nil, "alternate_sign=false buckets=1024"},
		{"set", map[string]Param{"buckets": {Value: param.Number(64), Range: at(5)}}, "alternate_sign=false buckets=64"},
		{"a list", map[string]Param{"buckets": {Value: list, Range: at(5)}, "alternate_sign": {Value: param.List(param.Bool(true)), Range: at(4)}},
			`exp.hcl:4:13: Invalid encoder option: Encoder "hash": alternate_sign takes one value; encoder options do not expand into a grid (declare one encoder per value and a pipeline for each).` + "\n" +
				`exp.hcl:5:13: Invalid encoder option: Encoder "hash": buckets takes one value; encoder options do not expand into a grid (declare one encoder per value and a pipeline for each).`},
		{"unknown", map[string]Param{"bucket": {Value: param.Number(64), Range: at(5), NameRange: at(5)}},
			`exp.hcl:5:13: Unknown parameter: encoder hash has no parameter "bucket" (did you mean "buckets"?); its parameters are: buckets, alternate_sign.`},
		{"a wrong type", map[string]Param{"buckets": {Value: param.String("many"), Range: at(5)}},
			`exp.hcl:5:13: Invalid parameter value: encoder hash: buckets must be a number, not string.`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &Encoder{Name: "hash", Type: "hash", Options: tc.options}
			params, diags := e.BindOptions(specs)
			var got []string
			for _, d := range diags {
				got = append(got, fmt.Sprintf("%s:%d:%d: %s: %s", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column, d.Summary, d.Detail))
			}
			if params != nil {
				for _, n := range []string{"alternate_sign", "buckets"} {
					got = append(got, n+"="+params[n].String())
				}
			}
			sep := "\n"
			if params != nil {
				sep = " "
			}
			if s := strings.Join(got, sep); s != tc.want || (params == nil) != diags.HasErrors() {
				t.Errorf("BindOptions:\n%s\nwant\n%s", s, tc.want)
			}
		})
	}
}
