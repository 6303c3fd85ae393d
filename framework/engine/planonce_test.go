package engine_test

import (
	"strings"
	"testing"

	logreg "github.com/polyclass/polyclass/plugins/logreg/learner"
)

// TestPlanFailureOnce: a code matrix the reducer refuses for the same
// reason on several datasets is one error naming them, not one per
// dataset (a new user's 4-class code on vehicle and car printed its
// three problems twice, at the same file:line:col); a refusal that
// differs by dataset (the row count against the classes) stays one
// error per dataset.
func TestPlanFailureOnce(t *testing.T) {
	three := fuzzData["d.csv"]
	four := three + "6.0,2.2,z\n6.1,2.3,z\n6.2,2.4,z\n"
	for _, tc := range []struct {
		name, e, matrix string
		want            []string
	}{
		{"same reason", three, `[[1, -1, 1], [1, 1, 2], [1, -1, 1]]`, []string{
			`Reduction code on datasets "d" (3 classes: a, b, c) and "e" (3 classes: a, b, c): plan ecoc: code matrix entry [1][2] = 2: entries must be -1, 0 or +1; code matrix rows 0 and 2 are identical: the two classes cannot be told apart`,
		}},
		{"another class count", four, `[[1, -1, 1], [1, 1, -1], [-1, 1, 1]]`, []string{
			`Reduction code on dataset "e" (4 classes: a, b, c, z): plan ecoc: code matrix: 3 rows but the task has 4 classes`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `experiment "x" { seed = 1 }
dataset "d" { path = "d.csv" }
dataset "e" { path = "e.csv" }
learner "logreg" {}
reduction "code" {
  scheme = "ecoc"
  matrix = ` + tc.matrix + `
}
cv { folds = 3 }
`
			text, _ := resolveSource(t, map[string]string{"d.csv": three, "e.csv": tc.e}, "logreg", logreg.New(), src)
			if n := strings.Count(text, "error: Invalid reduction"); n != len(tc.want) {
				t.Errorf("%d Invalid reduction errors, want %d:\n%s", n, len(tc.want), text)
			}
			for _, want := range tc.want {
				if !strings.Contains(text, "exp.hcl:7:12: error: Invalid reduction") || !strings.Contains(text, want) {
					t.Errorf("diagnostics:\n%s\nwant at exp.hcl:7:12 %q", text, want)
				}
			}
		})
	}
}
