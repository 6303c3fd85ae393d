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
	"github.com/polyclass/polyclass/framework/sdk"
	logreg "github.com/polyclass/polyclass/plugins/logreg/learner"
	"github.com/polyclass/polyclass/plugins/reducers/reducer"
)

// stuckPlanner is the shipped reducer whose Plan never answers until its
// context ends.
type stuckPlanner struct{ sdk.Reducer }

func (stuckPlanner) Plan(ctx context.Context, _ sdk.PlanRequest) (sdk.Plan, error) {
	<-ctx.Done()
	return sdk.Plan{}, ctx.Err()
}

// TestResolvePlanDeadline: a reducer stuck in the dry runs' Plan held
// Resolve (bench validate, bench run) forever. The call now ends at
// cv.timeout (here 0.5 s) with an error at the reduction naming the
// plugin, the call and the bound; the plugin is not asked again for the
// second dataset, so the error comes once.
func TestResolvePlanDeadline(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"d.csv", "e.csv"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(fuzzData["d.csv"]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := host.New("", nil)
	h.Register("logreg", host.InProcess{Learner: logreg.New()})
	h.Register("stuck", host.InProcess{Reducer: stuckPlanner{reducer.New()}})
	t.Cleanup(h.Close)
	src := `experiment "x" { seed = 1 }
dataset "d" { path = "d.csv" }
dataset "e" { path = "e.csv" }
learner "logreg" {}
reduction "ova" { plugin = "stuck" }
cv {
  folds   = 3
  timeout = 0.5
}
`
	file := filepath.Join(dir, "exp.hcl")
	p := config.NewParser(report.FormatNames())
	exp, _ := p.ParseSource([]byte(src), file)
	// Before, Resolve never returned here (the test binary's -timeout
	// ended it).
	_, diags := engine.Resolve(context.Background(), exp, h, engine.ResolveOptions{})
	var out bytes.Buffer
	if err := config.WriteDiagnostics(&out, p.Files(), diags); err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(out.String(), dir+string(filepath.Separator), "")
	const want = `Reduction ova on dataset "d" (3 classes: a, b, c): plugin stuck ((in-process)) did not answer Plan within 500ms (cv.timeout, at most 2m0s, bounds the plugin calls made before any cell runs); it was stopped`
	if !strings.Contains(text, "exp.hcl:5:") || !strings.Contains(text, want) || strings.Count(text, "did not answer") != 1 {
		t.Errorf("diagnostics:\n%s\nwant one at exp.hcl:5 with %q", text, want)
	}
}
