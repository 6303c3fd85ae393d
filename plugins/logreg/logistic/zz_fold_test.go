package logistic

import (
	"context"
	"testing"
)

func BenchmarkZZLetterFold(b *testing.B) {
	x, y, k := letterDesign(b)
	n, _ := x.Dims()
	_ = n
	probs := letterProblems(y, k)
	for b.Loop() {
		if _, err := FitBatch(context.Background(), x, probs, Options{C: 1, Tol: 1e-4, Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
