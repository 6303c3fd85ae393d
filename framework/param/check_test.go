package param

import (
	"math"
	"testing"
)

// TestParamSpecCheckEachType pins the whole message of every check of every
// parameter type (and nil where the value passes), so that the table of
// per-type checkers says exactly what the one switch said.
func TestParamSpecCheckEachType(t *testing.T) {
	kinds := []string{"a", "b"}
	tests := []struct {
		name string
		spec ParamSpec
		v    Value
		want string
	}{
		{"number kind", ParamSpec{Name: "C", Type: NumberParam}, String("x"), "C must be a number, not string"},
		{"number NaN", ParamSpec{Name: "C", Type: NumberParam}, Number(math.NaN()), "C must not be NaN"},
		{"number min exclusive", ParamSpec{Name: "C", Type: NumberParam, Min: Bound(0), MinExclusive: true}, Number(0), "C = 0 is out of range: it must be > 0"},
		{"number in range", ParamSpec{Name: "C", Type: NumberParam, Min: Bound(0), Max: Bound(1)}, Number(1), ""},
		{"integer null", ParamSpec{Name: "n", Type: IntegerParam}, Value{}, "n must be a number, not null"},
		{"integer beyond 2^53", ParamSpec{Name: "n", Type: IntegerParam}, Number(1e20), "n = 1e+20 is out of range: an integer parameter lies within ±9007199254740992 (2⁵³, the whole numbers a float64 holds exactly)"},
		{"string kind", ParamSpec{Name: "k", Type: StringParam}, Bool(true), "k must be a string, not bool"},
		{"string not allowed", ParamSpec{Name: "k", Type: StringParam, Allowed: kinds}, String("c"), `k = "c" is not one of "a", "b"`},
		{"string allowed", ParamSpec{Name: "k", Type: StringParam, Allowed: kinds}, String("b"), ""},
		{"string free", ParamSpec{Name: "k", Type: StringParam}, String("anything"), ""},
		{"bool", ParamSpec{Name: "b", Type: BoolParam}, Bool(false), ""},
		{"list kind", ParamSpec{Name: "l", Type: NumberListParam}, Number(1), "l must be a list, not number"},
		{"list element", ParamSpec{Name: "l", Type: NumberListParam}, List(Number(1), String("x")), "l[1] must be a number, not string"},
		{"string list", ParamSpec{Name: "l", Type: StringListParam}, List(String("x")), ""},
		{"matrix kind", ParamSpec{Name: "m", Type: NumberMatrixParam}, String("x"), "m must be a list of lists of numbers, not string"},
		{"number or string: list", ParamSpec{Name: "folds", Type: NumberOrStringParam}, List(), "folds must be a number or a string, not list"},
		{"number or string: below min", ParamSpec{Name: "folds", Type: NumberOrStringParam, Min: Bound(2)}, Number(1), "folds = 1 is out of range: it must be >= 2"},
		{"number or string: string", ParamSpec{Name: "folds", Type: NumberOrStringParam, Allowed: []string{"loo"}}, String("lo"), `folds = "lo" is not one of "loo"`},
		{"number or string: allowed", ParamSpec{Name: "folds", Type: NumberOrStringParam, Allowed: []string{"loo"}}, String("loo"), ""},
		{"any null", ParamSpec{Name: "x", Type: AnyParam}, Value{}, "x has no value"},
		{"any list", ParamSpec{Name: "x", Type: AnyParam}, List(Number(1)), ""},
		{"unknown type", ParamSpec{Name: "x", Type: ParamType(99)}, Number(1), "x has an unknown parameter type"},
		{"zero type", ParamSpec{Name: "x"}, Number(1), "x has an unknown parameter type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.spec.Check(tt.v)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("Check(%v) = %q, want %q", tt.v, got, tt.want)
			}
		})
	}
}
