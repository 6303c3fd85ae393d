package linsvm

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// letter returns letter.csv standardised over the whole file (mean,
// population std) with class indices.
func letter(b *testing.B) (Dense, []int, int) {
	b.Helper()
	x, y, k := wholeFile(b, "letter")
	return NewDense(x), y, k
}

// BenchmarkLetterOvRHinge fits the 26 one-vs-rest hinge problems of letter
// (20000×16, C = 1, Bias = 1, default Tol = LIBLINEAR's eps 0.1) one after
// the other, like `liblinear-train -s 3 -c 1 -B 1`.
func BenchmarkLetterOvRHinge(b *testing.B) {
	x, y, k := letter(b)
	benchOvR(b, x, y, k, LossHinge)
}

// BenchmarkLetterOvRHingeCSR is BenchmarkLetterOvRHinge on CSR input.
func BenchmarkLetterOvRHingeCSR(b *testing.B) {
	x, y, k := wholeFile(b, "letter")
	benchOvR(b, reftest.CSR(x), y, k, LossHinge)
}

// BenchmarkLetterOvRSquaredHinge is BenchmarkLetterOvRHinge with the
// squared hinge loss, like `liblinear-train -s 1 -c 1 -B 1`.
func BenchmarkLetterOvRSquaredHinge(b *testing.B) {
	x, y, k := letter(b)
	benchOvR(b, x, y, k, LossSquaredHinge)
}

// BenchmarkLetterOvRHingeParallel fits the 26 problems of
// BenchmarkLetterOvRHinge on two goroutines; compare its cpu-ns/op with the
// sequential benchmark's for the work lost to contention.
func BenchmarkLetterOvRHingeParallel(b *testing.B) {
	x, y, k := letter(b)
	labels := reftest.OneVsRest(y, k)
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		next := make(chan int)
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() {
				for c := range next {
					if _, err := Fit(x, labels[c], nil, DefaultOptions()); err != nil {
						b.Error(err)
					}
				}
			})
		}
		for c := range k {
			next <- c
		}
		close(next)
		wg.Wait()
	}
	reportCPU(b, cpu)
}

// reportCPU reports the process CPU time per operation since start, a
// measure less sensitive than wall time to the other load on a shared
// machine.
func reportCPU(b *testing.B, start time.Duration) {
	if cpu := processCPU(); cpu > 0 {
		b.ReportMetric(float64(cpu-start)/float64(b.N), "cpu-ns/op")
	}
}

func benchOvR(b *testing.B, x Rows, y []int, k int, loss string) {
	labels := reftest.OneVsRest(y, k)
	opt := DefaultOptions()
	opt.Loss = loss
	b.ReportAllocs()
	var ws Workspace // one per goroutine, as the svm learner keeps them
	cpu := processCPU()
	for b.Loop() {
		for c := range k {
			if _, err := ws.Fit(x, labels[c], nil, opt); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportCPU(b, cpu)
}

// BenchmarkLetterCrammerSinger fits Crammer–Singer on letter (C = 1,
// Bias = 1, default Tol), like `liblinear-train -s 4 -c 1 -B 1`.
func BenchmarkLetterCrammerSinger(b *testing.B) {
	x, y, k := letter(b)
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		if _, err := FitCrammerSinger(x, y, k, nil, DefaultOptions()); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
}

// BenchmarkLetterPocket runs 10 pocket epochs for class A vs rest.
func BenchmarkLetterPocket(b *testing.B) {
	x, y, _ := letter(b)
	yb := reftest.BinaryLabels(y, 0)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Pocket(x, yb, PerceptronOptions{Epochs: 10, Bias: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// benchLIBLINEAR times `liblinear-train -s solver -c 1 -B 1` on letter
// (standardised the same way, LIBSVM format in a temporary directory), when
// /usr/bin/liblinear-train exists. The time includes process start-up and
// parsing the 20000-row text file.
func benchLIBLINEAR(b *testing.B, solver string) {
	const bin = "/usr/bin/liblinear-train"
	if _, err := os.Stat(bin); err != nil {
		b.Skipf("%s not installed: %v", bin, err)
	}
	xd, y, _ := wholeFile(b, "letter")
	dir := b.TempDir()
	data := filepath.Join(dir, "letter.svm")
	f, err := os.Create(data)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	n, d := xd.Dims()
	for i := range n {
		fmt.Fprintf(w, "%d", y[i])
		for j := range d {
			if v := xd.At(i, j); v != 0 {
				fmt.Fprintf(w, " %d:%.17g", j+1, v)
			}
		}
		fmt.Fprintln(w)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	model := filepath.Join(dir, "model")
	var cpu time.Duration
	for b.Loop() {
		cmd := exec.Command(bin, "-q", "-s", solver, "-c", "1", "-B", "1", data, model)
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("liblinear-train: %v\n%s", err, out)
		}
		cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
}

// BenchmarkLIBLINEARLetterOvRHinge times `liblinear-train -s 3 -c 1 -B 1`
// on letter for comparison with BenchmarkLetterOvRHinge.
func BenchmarkLIBLINEARLetterOvRHinge(b *testing.B) { benchLIBLINEAR(b, "3") }

// BenchmarkLIBLINEARLetterOvRSquaredHinge times `liblinear-train -s 1 -c 1
// -B 1` on letter for comparison with BenchmarkLetterOvRSquaredHinge.
func BenchmarkLIBLINEARLetterOvRSquaredHinge(b *testing.B) { benchLIBLINEAR(b, "1") }

// BenchmarkLIBLINEARLetterCrammerSinger times `liblinear-train -s 4 -c 1
// -B 1` on letter for comparison with BenchmarkLetterCrammerSinger.
func BenchmarkLIBLINEARLetterCrammerSinger(b *testing.B) { benchLIBLINEAR(b, "4") }
