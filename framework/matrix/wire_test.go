package matrix

import (
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sparse"
)

// TestDigestsAreStable: the digests of a small dense and a small CSR matrix
// are those of the wire form (layout byte, rows, cols, nnz as little-endian
// uint64, then the data), computed independently with Python's hashlib, so
// that a plugin in any language can address a dataset.
func TestDigestsAreStable(t *testing.T) {
	for _, c := range []struct {
		m    Matrix
		want string
	}{
		{Matrix{Dense: mat.NewDense(2, 2, []float64{1, 2, 3, 4})}, "07bc8f7241d29f0c269051e8284abfdb0d2b690c951ac0f6cb82cea6a47a15a6"},
		{Matrix{CSR: &sparse.CSR{Rows: 3, Cols: 5, Indptr: []int64{0, 1, 1, 3}, Indices: []int32{0, 0, 4}, Values: []float64{7, 9, 1}}},
			"8972a428edd8ef5fab77a8980fb2058df17a93099451cca6d1f548382d913a7a"},
	} {
		if got := EncodeMatrix(c.m).Digest; got != c.want {
			t.Errorf("EncodeMatrix digest %s, want %s", got, c.want)
		}
		if got := StreamMatrix(c.m).Digest; got != c.want {
			t.Errorf("StreamMatrix digest %s, want %s", got, c.want)
		}
	}
}
