package param

import (
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
