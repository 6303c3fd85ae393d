package stats

import (
	"math/rand/v2"
	"testing"
)

func BenchmarkNemenyiCD(b *testing.B) {
	for b.Loop() {
		if _, err := NemenyiCD(10, 30, 0.05); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFriedman(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	scores := make([][]float64, 50)
	for i := range scores {
		scores[i] = make([]float64, 10)
		for j := range scores[i] {
			scores[i][j] = rng.Float64()
		}
	}
	for b.Loop() {
		if _, err := Friedman(scores, true); err != nil {
			b.Fatal(err)
		}
	}
}
