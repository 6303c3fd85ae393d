package reducer

import (
	"context"
	"fmt"
	"testing"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/sdk"
)

// TestCheckSchemeWithoutData checks a scheme's parameters over gRPC with
// no classes at all (CheckScheme): a code matrix's own faults, each at
// its parameter, all at once; nothing that needs the classes (a 2-row
// matrix is no fault before the data says how many classes there are).
func TestCheckSchemeWithoutData(t *testing.T) {
	c := connect(t)
	ctx := context.Background()
	m := matrixValue
	tests := []struct {
		name   string
		scheme string
		params sdk.Params
		want   []host.ParamProblem
	}{
		{"right matrix", "ecoc", sdk.Params{"matrix": m([]float64{1, -1}, []float64{-1, 1})}, nil},
		{"generated code", "ecoc", sdk.Params{"code": sdk.String("exhaustive")}, nil},
		{"ova", "ova", nil, nil},
		{"multi-label scheme", "br", nil, nil},
		{"every fault of the matrix", "ecoc", sdk.Params{"matrix": m([]float64{1, -1, 2}, []float64{1, -1, 2}, []float64{0, 1})}, []host.ParamProblem{{
			Param: "matrix", Message: "code matrix entry [0][2] = 2: entries must be -1, 0 or +1; code matrix entry [1][2] = 2: entries must be -1, 0 or +1; code matrix rows 0 and 1 are identical: the two classes cannot be told apart; code matrix: row 2 has 2 entries, row 0 has 3"}}},
		{"matrix and code", "ecoc", sdk.Params{"matrix": m([]float64{1, -1}, []float64{-1, 1}), "code": sdk.String("exhaustive")},
			[]host.ParamProblem{{Param: "matrix", Message: "give either matrix or code, not both"}}},
		{"no code", "ecoc", nil, []host.ParamProblem{{Message: `scheme ecoc needs matrix = [[...], ...] or code = "random_dense" | "random_sparse" | "exhaustive"`}}},
		{"an unknown decoder first", "ecoc", sdk.Params{"decode": sdk.String("argmax"), "matrix": m([]float64{1, 3}, []float64{-1, 1})},
			[]host.ParamProblem{{Param: "decode", Message: `decode = "argmax" is not one of "hamming", "vote", "loss:exp", "loss:hinge", "loss:logistic", "loss:squared", "loss:zero_one", "loss:linear", "coverage"`}}},
		{"libsvm ties without vote", "ovo", sdk.Params{"decode": sdk.String("hamming"), "ties": sdk.String("libsvm")},
			[]host.ParamProblem{{Param: "ties", Message: `ties = "libsvm" applies to decode = vote, not hamming`}}},
		{"spec check first", "ecoc", sdk.Params{"cod": sdk.String("exhaustive")}, []host.ParamProblem{{Param: "cod", Message: `unknown parameter "cod"; valid parameters: decode, matrix, classes, code, length, factor`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check, err := c.CheckScheme(ctx, tt.scheme, tt.params)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := fmt.Sprint(check.Problems), fmt.Sprint(tt.want); got != want {
				t.Errorf("problems\n%s\nwant\n%s", got, want)
			}
		})
	}
	if _, err := c.CheckScheme(ctx, "bogus", nil); err == nil {
		t.Error("an unknown scheme: no error")
	}
}

// matrixValue is a matrix parameter's value with the given rows.
func matrixValue(rows ...[]float64) sdk.Value {
	var out []sdk.Value
	for _, r := range rows {
		var vs []sdk.Value
		for _, v := range r {
			vs = append(vs, sdk.Number(v))
		}
		out = append(out, sdk.List(vs...))
	}
	return sdk.List(out...)
}
