package config

import (
	"strings"
	"testing"
)

// TestFunctionsRefuseWhatTheyCannotMake: pow and log whose result is not
// a number, and a setproduct too large, are located errors saying so
// (campaign 5: n02/n11 printed a 50-line Go stack, "panic in function
// implementation: Float.SetFloat64(NaN)"; h02 died out of memory).
func TestFunctionsRefuseWhatTheyCannotMake(t *testing.T) {
	for _, tc := range []struct {
		name, expr, want string
	}{
		{"pow of a negative base", "pow(-8, 1/3)", `exp.hcl:1:33: error: Invalid function argument`},
		{"pow's message", "pow(-8, 1/3)", `Invalid value for "power" parameter: pow(-8, 0.3333333333333333) is not a number: a negative base needs a whole exponent.`},
		{"log of a negative number", "log(-1, 10)", `Invalid value for "num" parameter: log(-1, 10) is not a number: log needs a number >= 0 and a base > 0 other than 1.`},
		{"log in base 1", "log(1, 1)", `log(1, 1) is not a number`},
		{"setproduct of 1e9", "length(setproduct(range(1000), range(1000), range(1000)))", `setproduct would make 1000000000 combinations, more than the 100000 an experiment file may make`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parse(t, strings.Replace(base, "seed = 3", "seed = "+tc.expr, 1))
			if !strings.Contains(diags, tc.want) || strings.Contains(diags, "goroutine") {
				t.Errorf("diagnostics:\n%s\nwant one holding %q and no Go stack", diags, tc.want)
			}
		})
	}
	for _, ok := range []string{"pow(2, 10)", "log(1024, 2)", "length(setproduct(range(100), range(1000)))"} {
		if _, diags := parse(t, strings.Replace(base, "seed = 3", "seed = "+ok, 1)); diags != "" {
			t.Errorf("%s: %s", ok, diags)
		}
	}
}
