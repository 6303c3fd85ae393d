package main

import (
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/engine"
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

// TestFoldFits: validate --plan's fits/fold is one number when every
// fold of a cell fits as many models, else the least and the most (a
// halving search's rounds depend on each fold's training rows).
func TestFoldFits(t *testing.T) {
	for _, tc := range []struct {
		name   string
		byFold []int
		want   string
	}{
		{"every fold alike", []int{13, 13}, "39"},
		{"folds of 90 and 89 rows", []int{40, 37, 40}, "111–120"},
		{"no fold", nil, "0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := foldFits(engine.Fits{Binary: 3}, tc.byFold); got != tc.want {
				t.Errorf("foldFits = %q, want %q", got, tc.want)
			}
		})
	}
}
