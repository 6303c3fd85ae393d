package engine

import (
	"slices"
	"testing"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/param"
)

// TestUnstartedSets: the parameter sets of a block whose plugin did not
// start, its schema unknown, are those its plugin's scalar parameters
// would make: each list of numbers, strings or booleans is a list of
// choices (crossed, in name order, the last varying fastest), a list of
// lists (a code matrix) one value, a single value one value.
func TestUnstartedSets(t *testing.T) {
	n, s := param.Number, param.String
	code := param.List(param.List(n(1), n(-1)), param.List(n(-1), n(1)))
	tests := []struct {
		name   string
		params map[string]param.Value
		want   []string // the sets, as Params.String
		varied []string
	}{
		{"none", nil, []string{""}, nil},
		{"single", map[string]param.Value{"C": n(1)}, []string{"C=1"}, nil},
		{"choices", map[string]param.Value{"C": param.List(n(0.1), n(1)), "solver": param.List(s("a"), s("b")), "tol": n(1e-4)},
			[]string{"C=0.1,solver=a,tol=0.0001", "C=0.1,solver=b,tol=0.0001", "C=1,solver=a,tol=0.0001", "C=1,solver=b,tol=0.0001"}, []string{"C", "solver"}},
		{"code matrix", map[string]param.Value{"code": code, "decode": param.List(s("hamming"), s("loss"))},
			[]string{"code=[[1, -1], [-1, 1]],decode=hamming", "code=[[1, -1], [-1, 1]],decode=loss"}, []string{"decode"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			params := map[string]config.Param{}
			for k, v := range tc.params {
				params[k] = config.Param{Value: v}
			}
			sets, varied := unstartedSets(params)
			var got []string
			for _, p := range sets {
				got = append(got, p.String())
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("sets %q, want %q", got, tc.want)
			}
			var names []string
			for k, v := range varied {
				if v {
					names = append(names, k)
				}
			}
			slices.Sort(names)
			if !slices.Equal(names, tc.varied) {
				t.Errorf("varied %q, want %q", names, tc.varied)
			}
		})
	}
}
