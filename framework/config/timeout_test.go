package config

import (
	"slices"
	"strings"
	"testing"
)

// TestTimeoutBounds: a cv timeout that a run would turn into no bound at
// all (+Inf overflowing the duration, a positive value under a
// nanosecond rounding to zero: campaign 5 n01) is a located error at
// timeout; 0 (no bound) and ordinary values pass.
func TestTimeoutBounds(t *testing.T) {
	const head = "experiment \"x\" { seed = 3 }\nlearner \"logreg\" {}\ndataset \"wine\" { path = \"wine.csv\" }\n"
	for _, tc := range []struct {
		name, value string
		heads       []string
		message     string
	}{
		{"infinity", "1/0", []string{"exp.hcl:5:13: error: Invalid timeout"},
			"timeout is in seconds and must be a finite number (0 for no bound), not +Inf."},
		{"under a nanosecond", "1e-10", []string{"exp.hcl:5:13: error: Invalid timeout"},
			"timeout = 1e-10 s is under a nanosecond and would round to no bound at all; give at least 1e-9, or 0 for no bound."},
		{"past the longest duration", "1e10", []string{"exp.hcl:5:13: error: Invalid timeout"},
			"timeout = 10000000000 s is over the longest bound a run can hold (9223372036 s, about 292 years); give 0 for no bound."},
		{"negative", "-1", []string{"exp.hcl:5:13: error: Invalid timeout"}, "timeout is in seconds and must not be negative."},
		{"none", "0", nil, ""},
		{"a nanosecond", "1e-9", nil, ""},
		{"an hour", "3600", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parse(t, head+"cv {\n  timeout = "+tc.value+"\n}\n")
			if got := diagHeads(diags); !slices.Equal(got, tc.heads) {
				t.Fatalf("diagnostics %q, want %q; all:\n%s", got, tc.heads, diags)
			}
			if !strings.Contains(diags, tc.message) {
				t.Errorf("diagnostics:\n%s\nwant a message containing %q", diags, tc.message)
			}
		})
	}
}
