package kernelsvm

import (
	"context"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// TestSparseIsDense: a CSR design gives the models and decision values of
// its dense copy bit for bit, whether it is densified (most entries
// stored) or read through its sparse rows (few stored): a zero adds an
// exact zero to every sum.
func TestSparseIsDense(t *testing.T) {
	xtr, ytr, xte, _ := scaledSplit(t, "vehicle")
	rng := rand.New(rand.NewPCG(5, 6))
	for _, keep := range []float64{1, 0.2} {
		tr, te := mat.DenseCopyOf(xtr), mat.DenseCopyOf(xte)
		for _, m := range []*mat.Dense{tr, te} {
			raw := m.RawMatrix().Data
			for i := range raw {
				if rng.Float64() >= keep {
					raw[i] = 0
				}
			}
		}
		opt := Options{Kernel: Kernel{Type: RBF, Gamma: 0.5}, C: 4}
		p := Problem{Rows: reftest.Seq(len(ytr)), Classes: ytr, NumClasses: 4}
		var out [2]*mat.Dense
		for k, data := range [2][2]*Data{{NewDense(tr), NewDense(te)}, {NewSparse(reftest.CSR(tr)), NewSparse(reftest.CSR(te))}} {
			ms, err := Train(context.Background(), data[0], []Problem{p}, opt, 2)
			if err != nil {
				t.Fatal(err)
			}
			n, _ := te.Dims()
			out[k] = mat.NewDense(n, 4, nil)
			if err := Predict(context.Background(), ms, data[1], out[k], nil); err != nil {
				t.Fatal(err)
			}
			if k == 1 && keep == 1 && data[0].forKernels().Sparse() {
				t.Error("a full CSR design was not densified")
			}
			if k == 1 && keep < 0.3 && !data[0].forKernels().Sparse() {
				t.Error("a sparse CSR design was densified")
			}
		}
		if !mat.Equal(out[0], out[1]) {
			t.Errorf("keep %v: sparse and dense designs give different outputs", keep)
		}
	}
}
