package param

import (
	"math"
	"strings"
	"testing"
)

func TestParamSpecCheck(t *testing.T) {
	matrix := ParamSpec{Name: "matrix", Type: NumberMatrixParam}
	tests := []struct {
		spec ParamSpec
		v    Value
		want string
	}{
		{ParamSpec{Name: "n", Type: IntegerParam}, Number(1.5), "whole number"},
		{ParamSpec{Name: "n", Type: IntegerParam, Max: Bound(3)}, Number(4), "must be <= 3"},
		{ParamSpec{Name: "b", Type: BoolParam}, String("yes"), "must be a bool"},
		{ParamSpec{Name: "l", Type: StringListParam}, List(String("a"), Number(1)), "l[1] must be a string"},
		{matrix, List(List(Number(1)), Number(2)), "matrix[1] must be a list"},
		{matrix, List(List(Number(1), String("x"))), "matrix[0][1] must be a number"},
		{matrix, List(List(Number(1), Number(-1))), ""},
		// 1e400 in HCL is +Inf: rejected before a plugin sees it.
		{ParamSpec{Name: "C", Type: NumberParam, Min: Bound(0), MinExclusive: true}, Number(math.Inf(1)), "C = +Inf is not a finite number"},
		{ParamSpec{Name: "x", Type: NumberOrStringParam}, Number(math.Inf(-1)), "x = -Inf is not a finite number"},
		{ParamSpec{Name: "l", Type: NumberListParam}, List(Number(1), Number(math.Inf(1))), "l[1] = +Inf is not a finite number"},
		{matrix, List(List(Number(1)), List(Number(math.NaN()))), "matrix[1][0] = NaN is not a finite number"},
		{ParamSpec{Name: "n", Type: IntegerParam, Max: Bound(4294967295)}, Number(5e9), "n = 5000000000 is out of range: it must be <= 4294967295"},
		{ParamSpec{Name: "a", Type: NumberParam, Min: Bound(0.5)}, Number(0.25), "a = 0.25 is out of range: it must be >= 0.5"},
	}
	for _, tt := range tests {
		err := tt.spec.Check(tt.v)
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s = %v: %v", tt.spec.Name, tt.v, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s = %v: error %v, want %q", tt.spec.Name, tt.v, err, tt.want)
		}
	}
}

func TestParamsString(t *testing.T) {
	p := Params{"solver": String("lbfgs"), "C": Number(0.1), "m": List(Number(1), Number(-1))}
	if got, want := p.String(), "C=0.1,m=[1, -1],solver=lbfgs"; got != want {
		t.Fatalf("Params.String() = %q, want %q", got, want)
	}
}

func TestFormatNumber(t *testing.T) {
	for _, tt := range []struct {
		f    float64
		want string
	}{
		{0, "0"}, {-3, "-3"}, {4294967295, "4294967295"}, {67108864, "67108864"},
		{0.1, "0.1"}, {1e-300, "1e-300"}, {1 << 53, "9.007199254740992e+15"}, {math.Inf(1), "+Inf"},
	} {
		if got := FormatNumber(tt.f); got != tt.want {
			t.Errorf("FormatNumber(%v) = %q, want %q", tt.f, got, tt.want)
		}
	}
}

func TestCheckDefault(t *testing.T) {
	for _, tc := range []struct {
		spec ParamSpec
		want string // "" for no error
	}{
		{ParamSpec{Name: "C", Type: NumberParam}, ""}, // no default
		{ParamSpec{Name: "C", Type: NumberParam, Default: Number(1), Min: Bound(0)}, ""},
		{ParamSpec{Name: "C", Type: NumberParam, Default: Number(0), Min: Bound(0), MinExclusive: true},
			"the default of parameter C fails its own schema: C = 0 is out of range: it must be > 0"},
		{ParamSpec{Name: "loss", Type: StringParam, Default: Number(1)},
			"the default of parameter loss fails its own schema: loss must be a string, not number"},
	} {
		err := tc.spec.CheckDefault()
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.spec, err, tc.want)
		}
	}
}

// TestIntegerRange: an integer parameter's range is part of its type:
// whole numbers within ±2⁵³, whatever Min and Max say. max_iter = 1e20
// (logreg), 1e19 (svm) and epochs = 9.3e18 overflowed int64 when a plugin
// converted them ("negative MaxIter" in every cell); they are now refused
// where the value is checked, as bench validate does.
func TestIntegerRange(t *testing.T) {
	maxIter := ParamSpec{Name: "max_iter", Type: IntegerParam, Min: Bound(1)}
	for _, tc := range []struct {
		spec ParamSpec
		v    float64
		want string
	}{
		{maxIter, 1e20, "max_iter = 1e+20 is out of range: an integer parameter lies within ±9007199254740992"},
		{maxIter, 1e19, "max_iter = 1e+19 is out of range"},
		{ParamSpec{Name: "epochs", Type: IntegerParam, Min: Bound(1)}, 9.3e18, "epochs = 9.3e+18 is out of range"},
		{ParamSpec{Name: "seed", Type: IntegerParam}, -1e17, "seed = -1e+17 is out of range"},
		{maxIter, 1 << 53, ""},
		{ParamSpec{Name: "seed", Type: IntegerParam}, -(1 << 53), ""},
		{maxIter, 1<<53 + 2, "out of range"},
		// A number parameter has no such bound.
		{ParamSpec{Name: "C", Type: NumberParam}, 1e20, ""},
	} {
		err := tc.spec.Check(Number(tc.v))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s = %g: %v", tc.spec.Name, tc.v, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s = %g: error %v, want %q", tc.spec.Name, tc.v, err, tc.want)
		}
		if tc.want == "" && err == nil && tc.spec.Type == IntegerParam {
			if n := (Params{"n": Number(tc.v)}).Int("n"); float64(n) != tc.v {
				t.Errorf("Int(%g) = %d", tc.v, n)
			}
		}
	}
}
