package linsvm

import (
	"errors"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// toySet draws n points uniformly in [−1,1]² labelled by the line
// x₀ + 2x₁ > 0.3, dropping points within margin of it; flip > 0 flips that
// fraction of labels (making the set non-separable).
func toySet(n int, margin, flip float64, seed uint64) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := mat.NewDense(n, 2, nil)
	y := make([]float64, n)
	for i := 0; i < n; {
		a, b := 2*rng.Float64()-1, 2*rng.Float64()-1
		s := a + 2*b - 0.3
		if s > -margin && s < margin {
			continue
		}
		x.Set(i, 0, a)
		x.Set(i, 1, b)
		y[i] = 1
		if s < 0 {
			y[i] = -1
		}
		if rng.Float64() < flip {
			y[i] = -y[i]
		}
		i++
	}
	return x, y
}

// trainErrors counts rows with yᵢ(w·xᵢ + b) ≤ 0, computed independently of
// the package.
func trainErrors(x *mat.Dense, y, w []float64, b float64) int {
	n, _ := x.Dims()
	var e int
	for i := range n {
		if y[i]*(mat.Dot(x.RowView(i), mat.NewVecDense(len(w), w))+b) <= 0 {
			e++
		}
	}
	return e
}

// TestPerceptronSeparable checks that PLA separates a linearly separable
// set (with an intercept, which the set needs), on dense and CSR input,
// and that the reported error count is right.
func TestPerceptronSeparable(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		x, y := toySet(200, 0.05, 0, seed)
		for kind, rows := range map[string]Rows{"dense": NewDense(x), "csr": reftest.CSR(x)} {
			r, err := Perceptron(rows, y, PerceptronOptions{Epochs: 1000, Bias: 1, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			if !r.Converged || r.Errors != 0 {
				t.Errorf("seed %d %s: converged %v with %d errors after %d epochs", seed, kind, r.Converged, r.Errors, r.Epochs)
			}
			if e := trainErrors(x, y, r.W, r.B); e != 0 {
				t.Errorf("seed %d %s: returned weights misclassify %d rows", seed, kind, e)
			}
		}
	}
}

// TestPocketNonSeparable checks on noisy (non-separable) sets that the
// pocket weights have no more training errors than the final PLA weights of
// the same run (same seed and epochs give the same trajectory), that the
// PLA does not converge, and that Errors is the true error count.
func TestPocketNonSeparable(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3, 4} {
		x, y := toySet(300, 0, 0.1, seed)
		opt := PerceptronOptions{Epochs: 20, Bias: 1, Seed: seed}
		pla, err := Perceptron(NewDense(x), y, opt)
		if err != nil {
			t.Fatal(err)
		}
		pocket, err := Pocket(NewDense(x), y, opt)
		if err != nil {
			t.Fatal(err)
		}
		if pla.Converged || pla.Updates != pocket.Updates {
			t.Errorf("seed %d: PLA converged %v, updates %d vs pocket %d", seed, pla.Converged, pla.Updates, pocket.Updates)
		}
		ePLA, ePocket := trainErrors(x, y, pla.W, pla.B), trainErrors(x, y, pocket.W, pocket.B)
		if ePLA != pla.Errors || ePocket != pocket.Errors {
			t.Errorf("seed %d: reported errors %d/%d, actual %d/%d", seed, pla.Errors, pocket.Errors, ePLA, ePocket)
		}
		if ePocket > ePLA {
			t.Errorf("seed %d: pocket has %d errors, final PLA weights %d", seed, ePocket, ePLA)
		}
		t.Logf("seed %d: PLA %d errors, pocket %d", seed, ePLA, ePocket)
		// 10% label noise: the true line errs on about 30 rows, a constant
		// guess on about 150; 20 pocket epochs land in between (45–58).
		if ePocket > 90 {
			t.Errorf("seed %d: pocket weights err on %d of 300 rows", seed, ePocket)
		}
	}
}

// TestPerceptronInputErrors checks argument validation.
func TestPerceptronInputErrors(t *testing.T) {
	x := NewDense(mat.NewDense(2, 1, []float64{1, -1}))
	for _, tc := range []struct {
		name string
		y    []float64
		opt  PerceptronOptions
	}{
		{"label", []float64{1, 2}, PerceptronOptions{}},
		{"length", []float64{1}, PerceptronOptions{}},
		{"epochs", []float64{1, -1}, PerceptronOptions{Epochs: -1}},
	} {
		if _, err := Pocket(x, tc.y, tc.opt); !errors.Is(err, ErrInput) {
			t.Errorf("%s: error %v, want ErrInput", tc.name, err)
		}
	}
}
