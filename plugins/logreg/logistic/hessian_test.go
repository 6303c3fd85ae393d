package logistic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sparse"
	"github.com/polyclass/polyclass/plugins/internal/reftest"
	"github.com/polyclass/polyclass/plugins/logreg/logistic/internal/sparsemul"
)

// roundOf returns a round of products of every kind on an n×d design, in
// mixed order, with fresh outputs filled with NaN (every product
// overwrites its output).
func roundOf(rng *rand.Rand, n, d int) []*product {
	vec := func(m int, zeros bool) []float64 {
		s := make([]float64, m)
		for i := range s {
			if !zeros || rng.IntN(5) > 0 {
				s[i] = rng.NormFloat64()
			}
		}
		return s
	}
	nan := func(m int) []float64 {
		s := make([]float64, m)
		for i := range s {
			s[i] = math.NaN()
		}
		return s
	}
	var reqs []*product
	for k := range 13 {
		switch op := productOp(1 + k%numOps); op {
		case opMulVec:
			reqs = append(reqs, &product{op: op, src: vec(d, false), dst: nan(n)})
		case opMulVecTrans, opMulVecTransSq:
			reqs = append(reqs, &product{op: op, src: vec(n, true), dst: nan(d)})
		case opHessVec:
			dd := vec(n, true)
			for i := range dd {
				dd[i] = math.Abs(dd[i]) / 4
			}
			reqs = append(reqs, &product{op: op, src: vec(d, false), dst: nan(d), tmp: make([]float64, n), dd: dd, vb: rng.NormFloat64()})
		case opGram:
			dd := vec(n, true)
			for i := range dd {
				dd[i] = math.Abs(dd[i]) / 4
			}
			reqs = append(reqs, &product{op: op, dst: nan(sparsemul.GramSize(d + 1)), dd: dd})
		}
	}
	return reqs
}

// copyRound returns reqs with outputs of their own.
func copyRound(reqs []*product) []*product {
	out := make([]*product, len(reqs))
	for i, r := range reqs {
		c := *r
		c.dst = append([]float64(nil), r.dst...)
		c.tmp = append([]float64(nil), r.tmp...)
		out[i] = &c
	}
	return out
}

// byChunks computes a transpose or Hessian product of an n-row design
// chunk by chunk (chunkRows with blocks of b rows): part adds the sums of
// rows r0 ≤ i < r1 to h and hb, which start at zero; the chunks' sums are
// added chunk after chunk into r.dst and r.hb.
func byChunks(r *product, n, b int, part func(h []float64, hb *float64, r0, r1 int)) {
	size := chunkRows(n, b)
	clear(r.dst)
	r.hb = 0
	for c := 0; c*size < n; c++ {
		h, hb := make([]float64, len(r.dst)), 0.0
		part(h, &hb, c*size, min(n, (c+1)*size))
		if c == 0 {
			copy(r.dst, h)
			r.hb = hb
			continue
		}
		for j := range h {
			r.dst[j] += h[j]
		}
		r.hb += hb
	}
}

// denseReference computes a product with the arithmetic the blockmul
// documentation gives, one fma at a time, chunk by chunk.
func denseReference(x *mat.Dense, r *product) {
	n, d := x.Dims()
	// dot: four fma chains over the columns of the whole 4-column
	// chunks by column mod 4, combined as (s₀ + s₂) + (s₁ + s₃), then one
	// fma per remaining column.
	dot := func(i int, v []float64) float64 {
		var s [4]float64
		d4 := d / 4 * 4
		for j := range d4 {
			s[j%4] = math.FMA(x.At(i, j), v[j], s[j%4])
		}
		acc := (s[0] + s[2]) + (s[1] + s[3])
		for j := d4; j < d; j++ {
			acc = math.FMA(x.At(i, j), v[j], acc)
		}
		return acc
	}
	const b = 64
	switch r.op {
	case opMulVec:
		for i := range n {
			r.dst[i] = dot(i, r.src)
		}
	case opMulVecTrans, opMulVecTransSq:
		byChunks(r, n, b, func(h []float64, _ *float64, r0, r1 int) {
			for i := r0; i < r1; i++ {
				for j := range d {
					xv := x.At(i, j)
					if r.op == opMulVecTransSq {
						xv *= xv
					}
					h[j] = math.FMA(xv, r.src[i], h[j])
				}
			}
		})
	case opHessVec:
		byChunks(r, n, b, func(h []float64, hb *float64, r0, r1 int) {
			for i := r0; i < r1; i++ {
				u := float64((dot(i, r.src) + r.vb) * r.dd[i])
				*hb += u
				for j := range d {
					h[j] = math.FMA(x.At(i, j), u, h[j])
				}
			}
		})
	case opGram:
		// One fma per pair a ≤ b of the row with its column of ones,
		// fma(x̃ᵦ, x̃ₐ·dd, h), in row order.
		byChunks(r, n, b, func(h []float64, _ *float64, r0, r1 int) {
			for i := r0; i < r1; i++ {
				xt := append(mat.Row(nil, i, x), 1)
				p := 0
				for a := range xt {
					s := float64(xt[a] * r.dd[i])
					for _, xb := range xt[a:] {
						h[p] = math.FMA(xb, s, h[p])
						p++
					}
				}
			}
		})
	}
}

// sparseReference computes a product one request at a time with
// sparsemul's products in a panel of one lane, chunk by chunk, on m and
// for an explicit Hessian on its CSR form c.
func sparseReference(m *sparsemul.Matrix, c *sparse.CSR, r *product) {
	const b = 256
	switch r.op {
	case opMulVec:
		m.Mul(r.dst, 0, m.Rows, r.src, 1)
	case opMulVecTrans:
		byChunks(r, m.Rows, b, func(h []float64, _ *float64, r0, r1 int) { m.AddTrans(h, r0, r1, r.src[r0:], 1) })
	case opMulVecTransSq:
		byChunks(r, m.Rows, b, func(h []float64, _ *float64, r0, r1 int) { m.AddTransSq(h, r0, r1, r.src[r0:], 1) })
	case opHessVec:
		byChunks(r, m.Rows, b, func(h []float64, hb *float64, r0, r1 int) {
			u := make([]float64, r1-r0)
			m.Mul(u, r0, r1, r.src, 1)
			for i := range u {
				u[i] = float64((u[i] + r.vb) * r.dd[r0+i])
				*hb += u[i]
			}
			m.AddTrans(h, r0, r1, u, 1)
		})
	case opGram:
		byChunks(r, m.Rows, b, func(h []float64, _ *float64, r0, r1 int) { sparsemul.Gram(h, c, r0, r1, r.dd[r0:], 1) })
	}
}

// TestProductRunners: a round of products of every kind, on heights that
// end blocks and chunks anywhere and strided views, gives through the
// dense runner the bits of the documented fma arithmetic, and through the
// CSR runner (lanes side by side, block by block) the bits of sparsemul's
// products one request at a time, chunk by chunk, on 1, 2 and 3
// goroutines.
func TestProductRunners(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, dim := range []struct{ n, d int }{{1, 1}, {5, 3}, {67, 16}, {1001, 7}, {2051, 54}, {603, 33}, {4099, 2}, {20011, 5}} {
		xd := randomDense(rng, dim.n, dim.d)
		reqs := roundOf(rng, dim.n, dim.d)
		name := fmt.Sprintf("%d×%d", dim.n, dim.d)

		xs := reftest.CSR(xd)
		wantDense, wantCSR := copyRound(reqs), copyRound(reqs)
		for i := range reqs {
			denseReference(xd, wantDense[i])
			sparseReference(sparsemul.FromCSR(xs), xs, wantCSR[i])
		}
		for _, workers := range []int{1, 2, 3} {
			got := copyRound(reqs)
			productRunner(NewDense(xd), workers)(got)
			sameRound(t, fmt.Sprintf("dense %s, %d goroutines", name, workers), got, wantDense)
			got = copyRound(reqs)
			productRunner(NewCSR(xs), workers)(got)
			sameRound(t, fmt.Sprintf("csr %s, %d goroutines", name, workers), got, wantCSR)
		}
	}
}

// TestRunnerLanes: a problem's products do not depend on the other
// problems of the round, in number or values, on dense and CSR designs.
func TestRunnerLanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	xd := randomDense(rng, 301, 9)
	reqs := roundOf(rng, 301, 9)
	for name, x := range map[string]Design{"dense": NewDense(xd), "csr": NewCSR(reftest.CSR(xd))} {
		all := copyRound(reqs)
		productRunner(x, 1)(all)
		for i := range reqs {
			alone := copyRound(reqs[i : i+1])
			productRunner(x, 1)(alone)
			sameRound(t, fmt.Sprintf("%s: request %d alone", name, i), alone, all[i:i+1])
		}
	}
}

func sameRound(t *testing.T, name string, got, want []*product) {
	t.Helper()
	for i := range want {
		if math.Float64bits(got[i].hb) != math.Float64bits(want[i].hb) {
			t.Errorf("%s: request %d (op %d): hb = %v, want %v", name, i, want[i].op, got[i].hb, want[i].hb)
		}
		sameBits(t, fmt.Sprintf("%s: request %d (op %d) dst", name, i, want[i].op), got[i].dst, want[i].dst)
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

// TestSparseDenseDesign: a dense design with at most maxDensity of its
// entries non-zero runs its products in sparse form, the bits of its CSR
// form's; a denser one does not.
func TestSparseDenseDesign(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, keep := range []float64{0.1, 0.5} {
		xd := randomDense(rng, 2100, 40)
		for i := range 2100 {
			for j := range 40 {
				if rng.Float64() > keep {
					xd.Set(i, j, 0)
				} else if j%2 == 0 {
					xd.Set(i, j, 1) // one-hot like
				}
			}
		}
		x := NewDense(xd)
		if sparse := x.sparseForm() != nil; sparse != (keep < maxDensity) {
			t.Fatalf("density about %v: sparse form %v", keep*0.8, sparse)
		}
		if keep > maxDensity {
			continue
		}
		reqs := roundOf(rng, 2100, 40)
		got, want := copyRound(reqs), copyRound(reqs)
		productRunner(x, 2)(got)
		productRunner(NewCSR(reftest.CSR(xd)), 1)(want)
		sameRound(t, "sparse dense design", got, want)
	}
}
