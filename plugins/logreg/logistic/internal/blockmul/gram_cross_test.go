package blockmul_test

import (
	"math/rand/v2"
	"testing"

	"github.com/polyclass/polyclass/framework/sparse"
	"github.com/polyclass/polyclass/plugins/logreg/logistic/internal/bitstest"
	"github.com/polyclass/polyclass/plugins/logreg/logistic/internal/blockmul"
	"github.com/polyclass/polyclass/plugins/logreg/logistic/internal/sparsemul"
)

// TestGramDenseEqualsSparse: on rows without zeros, blockmul's Gram and
// sparsemul's (on the rows in CSR form) give the same bits, in panels of
// one, four and twelve lanes: the two designs share one arithmetic.
func TestGramDenseEqualsSparse(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	const rows, d = 77, 13
	x := make([]float64, rows*d)
	c := &sparse.CSR{Rows: rows, Cols: d, Indptr: make([]int64, rows+1)}
	for i := range rows {
		for j := range d {
			v := rng.NormFloat64()
			if j%3 == 0 {
				v = 1 // one-hot like
			}
			x[i*d+j] = v
			c.Indices, c.Values = append(c.Indices, int32(j)), append(c.Values, v)
		}
		c.Indptr[i+1] = int64(len(c.Values))
	}
	for _, w := range []int{1, 4, 12} {
		tp := make([]float64, rows*w)
		for i := range tp {
			tp[i] = rng.Float64()
		}
		dense, sp := make([]float64, sparsemul.GramSize(d+1)*w), make([]float64, sparsemul.GramSize(d+1)*w)
		blockmul.Gram(dense, x, d, rows, d, tp, w)
		sparsemul.Gram(sp, c, 0, rows, tp, w)
		bitstest.Equal(t, "dense vs sparse", dense, sp)
	}
}
