package logistic

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// TestHessVecFusedIdentical: the one-pass Hessian product of the dense and
// CSR designs gives, bit for bit, tmp, dst and the sum of the two-pass
// version (MulVec, weights, MulVecTrans), on heights that end blocks
// anywhere and with zero weights that the transpose products skip.
func TestHessVecFusedIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, dim := range []struct{ n, d int }{{1, 1}, {5, 3}, {1001, 7}, {2051, 54}, {603, 33}, {4099, 2}} {
		xd := randomDense(rng, dim.n, dim.d)
		v, dd := make([]float64, dim.d), make([]float64, dim.n)
		for j := range v {
			v[j] = rng.NormFloat64()
		}
		for i := range dd {
			if rng.IntN(5) > 0 {
				dd[i] = rng.Float64() / 4
			}
		}
		vb := rng.NormFloat64()
		for name, x := range map[string]interface {
			Design
			hessVecer
		}{"dense": NewDense(xd), "csr": NewCSR(reftest.CSR(xd))} {
			wantDst, wantTmp := make([]float64, dim.d), make([]float64, dim.n)
			wantHb := hessVec(x, wantDst, wantTmp, v, dd, vb)
			dst, tmp := make([]float64, dim.d), make([]float64, dim.n)
			for j := range dst {
				dst[j] = math.NaN() // the product overwrites dst
			}
			hb := x.hessVec(dst, tmp, v, dd, vb)
			if math.Float64bits(hb) != math.Float64bits(wantHb) {
				t.Errorf("%s %d×%d: hb = %v, want %v", name, dim.n, dim.d, hb, wantHb)
			}
			sameBits(t, name+" dst", dst, wantDst)
			sameBits(t, name+" tmp", tmp, wantTmp)
		}
	}
}

func sameBits(t *testing.T, what string, got, want []float64) {
	t.Helper()
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Errorf("%s[%d] = %v, want %v", what, i, got[i], want[i])
			return
		}
	}
}
