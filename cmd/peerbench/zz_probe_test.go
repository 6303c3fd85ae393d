package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/polyclass/polyclass/plugins/logreg/logistic"
)

func TestZZCovBatch(t *testing.T) {
	for _, n := range []int{25000, 100000, 400000} {
		f := filepath.Join(os.TempDir(), fmt.Sprintf("zzcov%d.csv", n))
		if _, err := os.Stat(f); err != nil {
			if err := resample("../../testdata/data/covertype_50k.csv.gz", f, n); err != nil {
				t.Fatal(err)
			}
		}
		x, y, err := encodeCovertype(f)
		if err != nil {
			t.Fatal(err)
		}
		k := slices.Max(y) + 1
		labels := ovrLabels(y, k)
		probs := make([]logistic.BatchProblem, k)
		for c := range probs {
			probs[c].Y = labels[c]
		}
		dx := designOf(x)
		best := time.Hour
		var it int
		for range 3 {
			start := time.Now()
			res, err := logistic.FitBatch(context.Background(), dx, probs, logistic.Options{C: 1, Tol: 1e-4, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			best = min(best, time.Since(start))
			it = 0
			for _, r := range res {
				it += r.Iterations
			}
		}
		t.Logf("rows %d csr %v: batch of %d fits %v (%.1f ns/row), newton %.1f/problem", n, x.CSR != nil, k, best, float64(best.Nanoseconds())/float64(n), float64(it)/float64(k))
	}
}
