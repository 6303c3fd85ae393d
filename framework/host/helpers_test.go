//go:build linux

package host

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
)

// randomDense and sameDecoding are the client package's test helpers
// (framework/internal/client's decode_test.go), which the host's tests of
// decoding through its processes share and cannot import.

// randomDense is an r × c matrix of standard normal values.
func randomDense(rng *rand.Rand, r, c int) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for i := range r {
		for j := range c {
			m.Set(i, j, rng.NormFloat64())
		}
	}
	return m
}

// sameDecoding fails unless a and b are identical bit for bit.
func sameDecoding(t *testing.T, a, b sdk.Decoding) {
	t.Helper()
	if !slices.Equal(a.Predicted, b.Predicted) || a.Ties != b.Ties {
		t.Fatalf("predictions or ties (%d, %d) differ", a.Ties, b.Ties)
	}
	if a.ClassScoresAreProbabilities != b.ClassScoresAreProbabilities {
		t.Fatalf("class scores are probabilities: %v vs %v", a.ClassScoresAreProbabilities, b.ClassScoresAreProbabilities)
	}
	for _, m := range [][2]*mat.Dense{{a.ClassScores, b.ClassScores}, {a.LabelMatrix, b.LabelMatrix}} {
		if (m[0] == nil) != (m[1] == nil) {
			t.Fatal("a matrix is missing on one side")
		}
		if m[0] == nil {
			continue
		}
		x, y := m[0].RawMatrix(), m[1].RawMatrix()
		if x.Rows != y.Rows || x.Cols != y.Cols {
			t.Fatalf("%d×%d vs %d×%d", x.Rows, x.Cols, y.Rows, y.Cols)
		}
		for i := range x.Rows {
			for j := range x.Cols {
				if math.Float64bits(m[0].At(i, j)) != math.Float64bits(m[1].At(i, j)) {
					t.Fatalf("entry (%d,%d): %v vs %v", i, j, m[0].At(i, j), m[1].At(i, j))
				}
			}
		}
	}
}
