package engine_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/report"
	logreg "github.com/polyclass/polyclass/plugins/logreg/learner"
	"github.com/polyclass/polyclass/plugins/reducers/reducer"
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
			dir := t.TempDir()
			for name, text := range map[string]string{"d.csv": three, "e.csv": tc.e} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			h := host.New("", nil)
			h.Register("logreg", host.InProcess{Learner: logreg.New()})
			h.Register("reducers", host.InProcess{Reducer: reducer.New()})
			t.Cleanup(h.Close)
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
			file := filepath.Join(dir, "exp.hcl")
			p := config.NewParser(report.FormatNames())
			exp, diags := p.ParseSource([]byte(src), file)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			_, diags = engine.Resolve(context.Background(), exp, h, engine.ResolveOptions{})
			var out bytes.Buffer
			if err := config.WriteDiagnostics(&out, p.Files(), diags); err != nil {
				t.Fatal(err)
			}
			text := strings.ReplaceAll(out.String(), dir+string(filepath.Separator), "")
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
