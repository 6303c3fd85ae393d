package logistic

import (
	"testing"
)

// letterDesign returns letter.csv standardised over the whole file (mean,
// population std) with class indices.
func letterDesign(b *testing.B) (*DenseDesign, []int, int) {
	b.Helper()
	ds := loadDataset(b, "letter")
	n, _ := ds.x.Dims()
	return NewDense(standardize(ds.x, seq(n), seq(n))), ds.y, len(ds.classes)
}

// BenchmarkLetterOvRNewton fits the 26 one-vs-rest problems of letter
// (20000×16, C = 1, default Tol = LIBLINEAR's eps 0.01 rule) one after the
// other with the trust-region Newton solver, like `liblinear-train -s 0
// -c 1`.
func BenchmarkLetterOvRNewton(b *testing.B) {
	x, y, k := letterDesign(b)
	labels := make([][]float64, k)
	for c := range labels {
		labels[c] = binaryLabels(y, c)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for c := 0; c < k; c++ {
			if _, err := Fit(x, labels[c], nil, Options{C: 1}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkLetterOvRLBFGS is BenchmarkLetterOvRNewton with L-BFGS.
func BenchmarkLetterOvRLBFGS(b *testing.B) {
	x, y, k := letterDesign(b)
	labels := make([][]float64, k)
	for c := range labels {
		labels[c] = binaryLabels(y, c)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for c := 0; c < k; c++ {
			if _, err := Fit(x, labels[c], nil, Options{C: 1, Solver: SolverLBFGS}); err != nil {
				b.Fatal(err)
			}
		}
	}
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
