//go:build unix

package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/polyclass/polyclass/framework/cellspec"
	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/results"
	"github.com/polyclass/polyclass/plugins/reducers/reducer"
	svm "github.com/polyclass/polyclass/plugins/svm/learner"
)

// irisGridCells is the experiment of BenchmarkIrisGridCell: a 5 × 3 corner
// of experiments/hsu_lin.hcl's (C, γ) grid on iris, scaled to [−1, 1],
// under one-vs-one, DAG and one-vs-all (45 cells), 10 folds.
const irisGridCells = `
experiment "iris_grid" { seed = 1 }
dataset "iris" { path = "%s" }
encoder "scale" {
  type  = "minmax"
  lower = -1
  upper = 1
}
learner "svm" {
  params = {
    kernel     = "rbf"
    C          = [4096, 64, 1, 0.0625, 0.25]
    gamma      = [16, 0.5, 0.0009765625]
    cache_size = 2048
  }
}
reduction "ovo" {
  scheme = "ovo"
  ties   = "libsvm"
}
reduction "dag" {
  scheme = "ovo"
  decode = "dag"
}
reduction "ova" { scheme = "ova" }
metrics = ["accuracy"]
cv { folds = 10 }
`

// cellWriter is the Sink of BenchmarkIrisGridCell: each finished cell's
// file, as bench run writes it.
type cellWriter struct {
	dir     string
	specs   []*cellspec.Spec
	digests []string
}

func (w *cellWriter) CellFinished(r *outcome.CellResult) error {
	_, err := results.WriteCell(w.dir, r, w.digests[r.Index], w.specs[r.Index])
	return err
}

// BenchmarkIrisGridCell measures the per-cell path of a grid of small
// cells (fits of well under a millisecond): iris under 45 (C, γ,
// reduction) cells of 10 folds, the svm and reducers plugins linked in
// (served over gRPC in this process, so the process's CPU time is bench's
// and the plugins'), one worker, each cell's file written. Besides ns/op
// (the whole grid) it reports per cell the wall time, the CPU time (user +
// system) and the allocations.
func BenchmarkIrisGridCell(b *testing.B) {
	iris, err := filepath.Abs("../../experiments/data/iris.csv")
	if err != nil {
		b.Fatal(err)
	}
	file := filepath.Join(b.TempDir(), "iris_grid.hcl")
	if err := os.WriteFile(file, fmt.Appendf(nil, irisGridCells, iris), 0o644); err != nil {
		b.Fatal(err)
	}
	exp, diags := config.NewParser(config.DefaultFormats()).ParseFile(file)
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	h := host.New("", nil)
	h.Register("svm", host.InProcess{Learner: svm.New()})
	h.Register("reducers", host.InProcess{Reducer: reducer.New()})
	b.Cleanup(h.Close)
	g, diags := engine.Resolve(context.Background(), exp, h, engine.ResolveOptions{DefaultReducer: "reducers"})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	specs := engine.Specs(g, cellspec.Build{Version: "bench"})
	sink := &cellWriter{dir: b.TempDir(), specs: specs, digests: engine.Digests(specs)}
	cells := len(g.Cells)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu0 := cpuTime(b)
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		res, _, err := engine.Run(context.Background(), g, engine.Options{Workers: 1, Sink: sink})
		if err != nil {
			b.Fatal(err)
		}
		if len(res) != cells || res[0].Failed() {
			b.Fatalf("%d results of %d cells", len(res), cells)
		}
	}
	wall := time.Since(start)
	b.StopTimer()
	cpu := cpuTime(b) - cpu0
	runtime.ReadMemStats(&after)
	per := float64(b.N * cells)
	b.ReportMetric(float64(wall.Nanoseconds())/per, "ns/cell")
	b.ReportMetric(float64(cpu.Nanoseconds())/per, "cpu-ns/cell")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/per, "allocs/cell")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/per, "B/cell")
}

// cpuTime is this process's CPU time, user + system.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
