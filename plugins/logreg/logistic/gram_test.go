package logistic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sparse"
	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// oneHotLike returns an n×(numeric+levels) design: numeric standard normal
// columns, then one one-hot group of levels columns.
func oneHotLike(rng *rand.Rand, n, numeric, levels int) *mat.Dense {
	x := mat.NewDense(n, numeric+levels, nil)
	for i := range n {
		for j := range numeric {
			x.Set(i, j, rng.NormFloat64())
		}
		x.Set(i, numeric+rng.IntN(levels), 1)
	}
	return x
}

// TestGramFits: the designs whose problems form the explicit Hessian, by
// their columns and non-zeros a row (maxGramCols, maxGramRowCols).
func TestGramFits(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, tc := range []struct {
		name string
		x    Design
		want bool
	}{
		{"dense, 16 columns (letter)", NewDense(randomDense(rng, 300, 16)), true},
		{"dense, 23 columns", NewDense(randomDense(rng, 300, 23)), true},
		{"dense, 24 columns", NewDense(randomDense(rng, 300, 24)), false},
		{"dense in sparse form, 60 columns, 3 non-zeros a row", NewDense(oneHotLike(rng, 300, 2, 58)), true},
		{"csr, 54 columns, 11 non-zeros a row (covertype)", NewCSR(reftest.CSR(oneHotLike(rng, 300, 10, 44))), true},
		{"csr, 54 columns, 24 non-zeros a row", NewCSR(reftest.CSR(oneHotLike(rng, 300, 23, 31))), false},
		{"csr, 64 columns, 2 non-zeros a row", NewCSR(reftest.CSR(oneHotLike(rng, 300, 1, 63))), false},
		{"csr, 63 columns, 2 non-zeros a row", NewCSR(reftest.CSR(oneHotLike(rng, 300, 1, 62))), true},
		{"no rows", NewCSR(&sparse.CSR{Cols: 3, Indptr: []int64{0}}), false},
		{"a design of another type", plainDesign{NewDense(randomDense(rng, 300, 4))}, false},
	} {
		if got := ExplicitHessian(tc.x); got != tc.want {
			t.Errorf("%s: ExplicitHessian = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// gramDesign gives a design's problems the explicit Hessian outside a
// batch: its products are the design's own, its Hessians the batch
// runner's.
type gramDesign struct {
	Design
	run func([]*product)
}

func (gramDesign) explicitHessian() bool { return true }

func (g gramDesign) gram(h, dd []float64) { g.run([]*product{{op: opGram, dst: h, dd: dd}}) }

// TestExplicitHessianProducts: a problem's Hessian-vector products and
// preconditioner from the explicit Hessian equal those from products with
// X (hessVec, MulVecTransSq) to rounding, with row weights, at an
// arbitrary point, on dense and CSR designs and a dense one in sparse form.
func TestExplicitHessianProducts(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	onehot := oneHotLike(rng, 2100, 10, 44)
	for name, x := range map[string]Design{
		"dense":              NewDense(randomDense(rng, 1500, 16)),
		"dense, sparse form": NewDense(onehot),
		"csr":                NewCSR(reftest.CSR(onehot)),
	} {
		n, d := x.Dims()
		y := make([]float64, n)
		s := make([]float64, n)
		for i := range y {
			y[i] = float64(2*rng.IntN(2) - 1)
			s[i] = rng.Float64() * 2
		}
		theta, v := make([]float64, d+1), make([]float64, d+1)
		for j := range theta {
			theta[j] = 0.3 * rng.NormFloat64()
			v[j] = rng.NormFloat64()
		}
		byX := newBinProblem(x, y, s, 1.3)
		byH := newBinProblem(gramDesign{x, productRunner(x, 2)}, y, s, 1.3)
		if byX.gx != nil || byH.gx == nil {
			t.Fatalf("%s: explicit Hessian %v and %v, want false and true", name, byX.gx != nil, byH.gx != nil)
		}
		g := make([]float64, d+1)
		for _, p := range []*binProblem{byX, byH} {
			p.fun(theta)
			p.grad(theta, g)
		}
		check := func(what string, got, want []float64) {
			t.Helper()
			if dist := floats.Distance(got, want, math.Inf(1)); dist > 1e-12*floats.Norm(want, math.Inf(1)) {
				t.Errorf("%s: %s differ by %g (‖·‖∞ %g)", name, what, dist, floats.Norm(want, math.Inf(1)))
			}
		}
		hx, hh := make([]float64, d+1), make([]float64, d+1)
		byX.precond(hx)
		byH.precond(hh)
		check("Hessian diagonals", hh, hx)
		byX.hv(v, hx)
		byH.hv(v, hh)
		check("Hessian-vector products", hh, hx)
	}
}

// TestExplicitHessianSolutions: the trust-region Newton solver reaches the
// same solutions with the explicit Hessian (Fit, a batch) as with
// Hessian-vector products (the design's own methods): the 26 one-vs-rest
// problems of letter (dense, m = 17) and problems on a one-hot design in
// CSR form and in dense form, at tol 10⁻⁴, the plugin's default: as many
// steps, objectives within 10⁻¹² and weights within 10⁻⁸ (relative), and
// converged.
func TestExplicitHessianSolutions(t *testing.T) {
	ds := reftest.Load(t, "letter")
	rng := rand.New(rand.NewPCG(25, 26))
	onehot := oneHotLike(rng, 3000, 10, 44)
	var ys [][]float64
	for _, p := range randomProblems(rng, 3000, 4, false) {
		ys = append(ys, p.Y)
	}
	for _, tc := range []struct {
		name string
		x    Design
		ys   [][]float64
	}{
		{"letter", NewDense(ds.Standardized()), reftest.OneVsRest(ds.Y, len(ds.Classes))},
		{"one-hot csr", NewCSR(reftest.CSR(onehot)), ys},
		{"one-hot dense, sparse form", NewDense(onehot), ys},
	} {
		if !ExplicitHessian(tc.x) {
			t.Fatalf("%s: ExplicitHessian false", tc.name)
		}
		for c, y := range tc.ys {
			name := fmt.Sprintf("%s, problem %d", tc.name, c)
			opt := Options{C: 1, Tol: 1e-4}
			got, err := Fit(tc.x, y, nil, opt)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want, err := fit(tc.x, y, nil, opt)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !got.Converged || got.Iterations != want.Iterations {
				t.Errorf("%s: converged %v after %d steps, want %d", name, got.Converged, got.Iterations, want.Iterations)
			}
			if rel := math.Abs(got.Objective-want.Objective) / want.Objective; rel > 1e-12 {
				t.Errorf("%s: objective %.15g, want %.15g (relative %g)", name, got.Objective, want.Objective, rel)
			}
			w := append(append([]float64(nil), want.W...), want.B)
			g := append(append([]float64(nil), got.W...), got.B)
			if dist := floats.Distance(g, w, math.Inf(1)); dist > 1e-8*floats.Norm(w, math.Inf(1)) {
				t.Errorf("%s: weights differ by %g", name, dist)
			}
		}
	}
}

// TestSymPackedMul: H·v from the packed upper triangle, on a 3×3 example
// worked by hand: H = [[2 1 0] [1 3 4] [0 4 5]], v = (1, −1, 2).
func TestSymPackedMul(t *testing.T) {
	h := []float64{2, 1, 0, 3, 4, 5}
	dst := []float64{9, 9, 9}
	symPackedMul(dst, h, []float64{1, -1, 2})
	if want := []float64{1, 6, 6}; !floats.Equal(dst, want) {
		t.Errorf("H·v = %v, want %v", dst, want)
	}
}
