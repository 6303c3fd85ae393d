package config

import (
	"strings"
	"testing"
)

// TestBlockLabelsAreIdentifiers: every block label names files in the
// results directory, so it is an identifier; a bad one is an error at the
// label's location.
func TestBlockLabelsAreIdentifiers(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"ok", `experiment "a-b.c_1" { seed = 1 }
dataset "iris.v2" { path = "iris.csv" }
learner "logreg" {}
`, ""},
		{"experiment escapes", `experiment "../../../../x" { seed = 1 }
dataset "iris" { path = "iris.csv" }
learner "logreg" {}
`, `exp.hcl:1:12: error: Invalid experiment name; "../../../../x" starts with a dot`},
		{"slash", `experiment "a/b" { seed = 1 }
dataset "iris" { path = "iris.csv" }
learner "logreg" {}
`, `exp.hcl:1:12: error: Invalid experiment name; "a/b" holds '/'`},
		{"hidden", `experiment "x" { seed = 1 }
dataset ".iris" { path = "iris.csv" }
learner "logreg" {}
`, `exp.hcl:2:9: error: Invalid dataset name; ".iris" starts with a dot`},
		{"space", `experiment "x" { seed = 1 }
dataset "iris" { path = "iris.csv" }
learner "log reg" {}
`, `exp.hcl:3:9: error: Invalid learner name; "log reg" holds ' '`},
		{"empty", `experiment "x" { seed = 1 }
dataset "iris" { path = "iris.csv" }
learner "logreg" {}
reduction "" {}
`, `exp.hcl:4:11: error: Invalid reduction name; "" is empty`},
		{"backslash", `experiment "x" { seed = 1 }
dataset "iris" { path = "iris.csv" }
learner "logreg" {}
encoder "a\\b" { type = "onehot" }
`, `exp.hcl:4:9: error: Invalid encoder name; "a\\b" holds '\\'`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parse(t, tc.src)
			if tc.want == "" {
				if strings.Contains(diags, "Invalid") {
					t.Fatalf("diagnostics:\n%s", diags)
				}
				return
			}
			// "LOCATION: error: SUMMARY; DETAIL" (the detail follows the
			// source snippet).
			for _, part := range strings.Split(tc.want, "; ") {
				if !strings.Contains(diags, part) {
					t.Errorf("want %q in:\n%s", part, diags)
				}
			}
		})
	}
}
