package logistic

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// letterProblems returns the 26 one-vs-rest problems of letter as a batch.
func letterProblems(y []int, k int) []BatchProblem {
	labels := reftest.OneVsRest(y, k)
	probs := make([]BatchProblem, k)
	for c := range probs {
		probs[c].Y = labels[c]
	}
	return probs
}

// benchLetterBatch fits the one-vs-rest problems of letter on x as one
// batch; BenchmarkLetterOvRNewton and BenchmarkLetterOvRNewtonCSR fit them
// one after the other.
func benchLetterBatch(b *testing.B, x Design, y []int, k int) {
	probs := letterProblems(y, k)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := FitBatch(context.Background(), x, probs, Options{C: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLetterOvRBatch is BenchmarkLetterOvRNewton with the 26 problems
// advancing together (FitBatch): same iterates, products in one pass.
func BenchmarkLetterOvRBatch(b *testing.B) {
	x, y, k := letterDesign(b)
	benchLetterBatch(b, x, y, k)
}

// BenchmarkLetterOvRNewtonCSR is BenchmarkLetterOvRNewton on letter in CSR
// form.
func BenchmarkLetterOvRNewtonCSR(b *testing.B) {
	x, y, k := letterDesign(b)
	xs := NewCSR(reftest.CSR(denseOf(x)))
	labels := reftest.OneVsRest(y, k)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for c := range k {
			if _, err := Fit(xs, labels[c], nil, Options{C: 1}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkLetterOvRBatchCSR is BenchmarkLetterOvRBatch on letter in CSR
// form.
func BenchmarkLetterOvRBatchCSR(b *testing.B) {
	x, y, k := letterDesign(b)
	benchLetterBatch(b, NewCSR(reftest.CSR(denseOf(x))), y, k)
}

// denseOf returns the matrix behind a dense design.
func denseOf(x *DenseDesign) *mat.Dense {
	var m mat.Dense
	m.SetRawMatrix(x.raw)
	return &m
}

// BenchmarkLetterOvRBatchTight is BenchmarkLetterOvRBatch at the learner's
// default tolerance (tol 1e-4, the e2e comparison's), the products on one
// goroutine: one fold's fit, about, of `bench run` on letter.
func BenchmarkLetterOvRBatchTight(b *testing.B) {
	x, y, k := letterDesign(b)
	probs := letterProblems(y, k)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FitBatch(context.Background(), x, probs, Options{C: 1, Tol: 1e-4}); err != nil {
			b.Fatal(err)
		}
	}
}
