package main

import (
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/sdk"
)

// TestWriteParamsBudget: bench plugins marks the parameters a plugin
// declares budgets (ParamSpec.Budget), which tune's resource may name.
func TestWriteParamsBudget(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec plugin.ParamSpec
		want string
	}{
		{"budget", plugin.ParamSpec{Name: "max_iter", Type: sdk.IntegerParam, Default: sdk.Number(1000), Min: sdk.Bound(1), Budget: true, Description: "iteration limit"},
			"  param max_iter (integer, budget) default 1000 >= 1: iteration limit\n"},
		{"not a budget", plugin.ParamSpec{Name: "C", Type: sdk.NumberParam, Default: sdk.Number(1), Min: sdk.Bound(0), MinExclusive: true},
			"  param C (number) default 1 > 0\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			writeParams(&b, "  ", []plugin.ParamSpec{tc.spec})
			if b.String() != tc.want {
				t.Errorf("got %q, want %q", b.String(), tc.want)
			}
		})
	}
}
