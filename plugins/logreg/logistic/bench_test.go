package logistic

import (
	"testing"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// letterDesign returns letter.csv standardised over the whole file (mean,
// population std) with class indices.
func letterDesign(b *testing.B) (*DenseDesign, []int, int) {
	b.Helper()
	ds := reftest.Load(b, "letter")
	return NewDense(ds.Standardized()), ds.Y, len(ds.Classes)
}

// benchLetterOvR fits the one-vs-rest problems of letter one after the
// other with opts.
func benchLetterOvR(b *testing.B, opts Options) {
	x, y, k := letterDesign(b)
	labels := reftest.OneVsRest(y, k)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for c := 0; c < k; c++ {
			if _, err := Fit(x, labels[c], nil, opts); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkLetterOvRNewton fits the 26 one-vs-rest problems of letter
// (20000×16, C = 1, default Tol = LIBLINEAR's eps 0.01 rule) one after the
// other with the trust-region Newton solver, like `liblinear-train -s 0
// -c 1`.
func BenchmarkLetterOvRNewton(b *testing.B) { benchLetterOvR(b, Options{C: 1}) }

// BenchmarkLetterOvRLBFGS is BenchmarkLetterOvRNewton with L-BFGS.
func BenchmarkLetterOvRLBFGS(b *testing.B) {
	benchLetterOvR(b, Options{C: 1, Solver: SolverLBFGS})
}

// BenchmarkLetterSoftmax fits the 26-class softmax model on letter (C = 1,
// default Tol).
func BenchmarkLetterSoftmax(b *testing.B) {
	x, y, k := letterDesign(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := FitSoftmax(x, y, k, nil, SoftmaxOptions{C: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
