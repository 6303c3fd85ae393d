package engine_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/report"
	lda "github.com/polyclass/polyclass/plugins/lda/learner"
	"github.com/polyclass/polyclass/plugins/reducers/reducer"
)

// TestResolveStopsWhenInterrupted: with its context done, Resolve loads
// no further dataset (here none: the two files are not there, and neither
// is reported), so that an interrupted validate of a file with much data
// stops at once.
func TestResolveStopsWhenInterrupted(t *testing.T) {
	dir := t.TempDir()
	src := `experiment "t" { seed = 1 }
dataset "a" { path = "` + filepath.Join(dir, "a.csv") + `" }
dataset "b" { path = "` + filepath.Join(dir, "b.csv") + `" }
learner "lda" {}
`
	h := host.New("", nil)
	h.Register("lda", host.InProcess{Learner: lda.New()})
	h.Register("reducers", host.InProcess{Reducer: reducer.New()})
	t.Cleanup(h.Close)
	for _, interrupted := range []bool{false, true} {
		exp, diags := config.NewParser(report.FormatNames()).ParseSource([]byte(src), filepath.Join(dir, "exp.hcl"))
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		ctx, cancel := context.WithCancel(t.Context())
		if interrupted {
			cancel()
		}
		g, rd := engine.Resolve(ctx, exp, h, engine.ResolveOptions{DefaultReducer: "reducers"})
		cancel()
		loads := 0
		for _, d := range rd {
			if d.Summary == "Cannot load dataset" {
				loads++
			}
		}
		if want := map[bool]int{false: 2, true: 0}[interrupted]; loads != want || len(g.Datasets) != 0 {
			t.Errorf("interrupted %v: %d datasets failed to load, want %d; %d loaded", interrupted, loads, want, len(g.Datasets))
		}
	}
}
