//go:build linux

package host

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/polyclass/polyclass/framework/sdk"
)

// BenchmarkDecodeOneVsOne decodes the scores of one letter fold under
// one-vs-one (2000 test rows × 325 problems, 5.2 MB; 26 classes, vote)
// through the reducers plugin as a process and linked in (served on an
// in-memory connection), the calls and marshalling being the same. Besides
// the time, it reports the CPU time of this process and of the plugin's
// per call (cpu-ns/op), and their minor page faults per call:
// the cost of moving a fold's scores between processes.
func BenchmarkDecodeOneVsOne(b *testing.B) {
	const K, nTrain, nTest = 26, 18000, 2000
	for _, mode := range []string{"process", "linked"} {
		b.Run(mode, func(b *testing.B) {
			ctx := context.Background()
			_, p, params, plan := ovoReducer(b, mode, K, nTrain)
			rng := rand.New(rand.NewPCG(1, 2))
			req := sdk.DecodeRequest{Scheme: "ovo", Params: params, State: plan.State, Scores: randomDense(rng, nTest, len(plan.Problems))}
			cpu0, faults0 := treeUsage(b, p)
			for b.Loop() {
				if _, err := p.Reducer.Decode(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
			cpu1, faults1 := treeUsage(b, p)
			b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(faults1-faults0)/float64(b.N), "faults/op")
		})
	}
}

// treeUsage returns the CPU time of this process and of p's process (when
// it runs as one), and their minor page faults.
func treeUsage(b *testing.B, p *Plugin) (time.Duration, int64) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	faults := ru.Minflt
	if p.cmd != nil {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(p.cmd.Process.Pid) + "/stat")
		if err != nil {
			b.Fatal(err)
		}
		c, err := statCPU(stat)
		if err != nil {
			b.Fatal(err)
		}
		cpu += c
		f, err := statFields(stat)
		if err != nil || len(f) < 8 {
			b.Fatalf("/proc stat %q: %v", stat, err)
		}
		n, err := strconv.ParseInt(f[10-3], 10, 64) // field 10, minflt
		if err != nil {
			b.Fatal(err)
		}
		faults += n
	}
	return cpu, faults
}
