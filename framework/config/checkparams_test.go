package config

import (
	"strconv"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/param"
)

// TestCheckParams checks the parameters of a block against its specs:
// an unknown name at the name (with a suggestion), an empty list and
// each value out of bounds at the value, nothing for values that fit;
// in the order of the names.
func TestCheckParams(t *testing.T) {
	one := 1.0
	specs := []param.ParamSpec{
		{Name: "C", Type: param.NumberParam, Min: &one},
		{Name: "solver", Type: param.StringParam, Allowed: []string{"lbfgs", "newton"}},
	}
	at := func(line int) hcl.Range {
		return hcl.Range{Filename: "exp.hcl", Start: hcl.Pos{Line: line, Column: 3}, End: hcl.Pos{Line: line, Column: 9}}
	}
	for _, tc := range []struct {
		name   string
		params map[string]Param
		want   []string
	}{
		{name: "fits", params: map[string]Param{"C": {Value: param.List(param.Number(1), param.Number(10)), Range: at(2)}, "solver": {Value: param.String("newton"), Range: at(3)}}},
		{name: "unknown name at the name", params: map[string]Param{"Cc": {Value: param.Number(1), Range: at(2), NameRange: at(1)}},
			want: []string{`exp.hcl:1: Unknown parameter: learner lr has no parameter "Cc" (did you mean "C"?); its parameters are: C, solver.`}},
		{name: "empty list and a value out of bounds, by name", params: map[string]Param{"solver": {Value: param.String("sag"), Range: at(3)}, "C": {Value: param.List(), Range: at(2)}},
			want: []string{
				`exp.hcl:2: Invalid parameter value: learner lr: C is an empty list, so it gives no combination.`,
				`exp.hcl:3: Invalid parameter value: learner lr: solver = "sag" is not one of "lbfgs", "newton".`,
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			diags := CheckParams(specs, tc.params, "learner lr")
			if len(diags) != len(tc.want) {
				t.Fatalf("%d diagnostics %v, want %d", len(diags), diags, len(tc.want))
			}
			for i, d := range diags {
				got := d.Subject.Filename + ":" + strconv.Itoa(d.Subject.Start.Line) + ": " + d.Summary + ": " + d.Detail
				if got != tc.want[i] {
					t.Errorf("diagnostic %d: %s\nwant %s", i, got, tc.want[i])
				}
			}
		})
	}
}

// TestCheckParamsFound: checkParams hands on the spec of each parameter
// it found, a wildcard's under the parameter's own name, and none for an
// unknown name; the bindings that follow expand from those specs alone.
func TestCheckParamsFound(t *testing.T) {
	tests := []struct {
		name      string
		specs     []param.ParamSpec
		params    map[string]Param
		want      map[string]param.ParamType
		errs      int
		sets      int
		variedSet string
	}{
		{
			name:   "declared",
			specs:  []param.ParamSpec{{Name: "C", Type: param.NumberParam}, {Name: "order", Type: param.StringListParam}},
			params: map[string]Param{"C": {Value: param.List(param.Number(1), param.Number(2))}, "order": {Value: param.List(param.String("a"), param.String("b"))}},
			want:   map[string]param.ParamType{"C": param.NumberParam, "order": param.StringListParam},
			sets:   2, variedSet: "C",
		},
		{
			name:   "wildcard",
			specs:  []param.ParamSpec{{Name: param.AnyName, Type: param.AnyParam}},
			params: map[string]Param{"k": {Value: param.List(param.Number(1), param.Number(3), param.Number(5))}},
			want:   map[string]param.ParamType{"k": param.AnyParam},
			sets:   3, variedSet: "k",
		},
		{
			name:   "unknown",
			specs:  []param.ParamSpec{{Name: "C", Type: param.NumberParam}},
			params: map[string]Param{"gamma": {Value: param.List(param.Number(1), param.Number(2))}},
			want:   map[string]param.ParamType{},
			errs:   1, sets: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			found, diags := checkParams(tt.specs, tt.params, "learner lr")
			if len(diags) != tt.errs {
				t.Fatalf("%d diagnostics, want %d: %v", len(diags), tt.errs, diags)
			}
			if len(found) != len(tt.want) {
				t.Fatalf("found %v, want the types %v", found, tt.want)
			}
			for n, typ := range tt.want {
				if s, ok := found[n]; !ok || s.Name != n || s.Type != typ {
					t.Errorf("found[%q] = %+v (%v), want name %q type %v", n, s, ok, n, typ)
				}
			}
			sets, varied := expand(tt.params, found)
			if len(sets) != tt.sets || (tt.variedSet != "" && !varied[tt.variedSet]) {
				t.Errorf("expand: %d sets, varied %v; want %d sets, %q varied", len(sets), varied, tt.sets, tt.variedSet)
			}
		})
	}
}
