package linsvm

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sparse"
	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// wrapped hides the concrete type of a Rows, so that the solvers take
// their generic (interface) path.
type wrapped struct{ Rows }

// sparsified returns x with about a third of its entries set to zero, as
// CSR, so that the sparse path sees rows of varying length.
func sparsified(x *mat.Dense, seed uint64) *sparse.CSR {
	rng := rand.New(rand.NewPCG(seed, 1))
	z := mat.DenseCopyOf(x)
	n, d := z.Dims()
	for i := range n {
		for j := range d {
			if rng.IntN(3) == 0 {
				z.Set(i, j, 0)
			}
		}
	}
	return reftest.CSR(z)
}

// rowWeights returns weights in [0, 2) with some zeros.
func rowWeights(n int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 2))
	s := make([]float64, n)
	for i := range s {
		if rng.IntN(7) != 0 {
			s[i] = 2 * rng.Float64()
		}
	}
	return s
}

// identicalInputs returns the designs the identity tests run on: each data
// set as a Dense view, as CSR, hidden behind an interface, and sparsified.
func identicalInputs(t *testing.T, names ...string) map[string]struct {
	x Rows
	y []int
	k int
} {
	t.Helper()
	in := map[string]struct {
		x Rows
		y []int
		k int
	}{}
	for _, name := range names {
		x, y, k := wholeFile(t, name)
		for kind, rows := range map[string]Rows{
			"dense": NewDense(x), "csr": reftest.CSR(x),
			"wrapped": wrapped{NewDense(x)}, "sparse": sparsified(x, 7),
		} {
			in[name+"/"+kind] = struct {
				x Rows
				y []int
				k int
			}{rows, y, k}
		}
	}
	return in
}

func sameFloats(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(u, v float64) bool { return math.Float64bits(u) == math.Float64bits(v) })
}

func sameFloat(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// sameResult reports whether two binary fits agree bit for bit: weights,
// intercept, duals, objectives, iterations and convergence.
func sameResult(a, b *Result) bool {
	return sameFloats(a.W, b.W) && sameFloat(a.B, b.B) && sameFloats(a.Alpha, b.Alpha) &&
		sameFloat(a.Objective, b.Objective) && sameFloat(a.DualObjective, b.DualObjective) &&
		a.Iterations == b.Iterations && a.Converged == b.Converged
}

// TestPermIntN checks that permIntN draws what rand.Rand.IntN draws from
// the same PCG state, for small, power-of-two and large bounds.
func TestPermIntN(t *testing.T) {
	a := rand.NewPCG(1, permSeq)
	b := rand.NewPCG(1, permSeq)
	r := rand.New(b)
	for _, n := range []int{1, 2, 3, 7, 8, 1000, 1 << 20, 20000, 1<<62 + 12345, math.MaxInt} {
		for range 2000 {
			if got, want := permIntN(a, n), r.IntN(n); got != want {
				t.Fatalf("n = %d: permIntN %d, IntN %d", n, got, want)
			}
		}
	}
}

// TestWorkspaceFitIdentical checks that fits on one reused Workspace equal
// fresh fits bit for bit, in an order that leaves stale memory behind for
// each next fit: a larger problem before a smaller one, squared hinge
// (which sets the diagonal shift) before hinge (which needs it 0), row
// weights with zeros (rows left out) before and after none.
func TestWorkspaceFitIdentical(t *testing.T) {
	in := identicalInputs(t, "segment", "iris", "vehicle")
	var ws Workspace
	for step, tc := range []struct {
		data, loss string
		weights    bool
	}{
		{"segment/dense", LossSquaredHinge, true},
		{"iris/dense", LossHinge, false},
		{"vehicle/csr", LossSquaredHinge, false},
		{"vehicle/sparse", LossHinge, true},
		{"segment/dense", LossHinge, false},
		{"iris/wrapped", LossSquaredHinge, true},
	} {
		d := in[tc.data]
		n, _ := d.x.Dims()
		var s []float64
		if tc.weights {
			s = rowWeights(n, uint64(step))
		}
		opt := Options{C: 1, Loss: tc.loss, Bias: 1, Tol: 1e-2, MaxIter: 300, Seed: uint64(step)}
		y := reftest.BinaryLabels(d.y, step%d.k)
		got, err := ws.Fit(d.x, y, s, opt)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Fit(d.x, y, s, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !sameResult(got, want) {
			t.Errorf("step %d (%+v): the reused workspace's fit differs: iter %d obj %v, fresh iter %d obj %v",
				step, tc, got.Iterations, got.Objective, want.Iterations, want.Objective)
		}
	}
}
