package logistic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
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
	for k := range 11 {
		switch op := productOp(1 + k%4); op {
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

// denseReference computes a product with the arithmetic the blockmul
// documentation gives, one fma at a time.
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
	switch r.op {
	case opMulVec:
		for i := range n {
			r.dst[i] = dot(i, r.src)
		}
	case opMulVecTrans, opMulVecTransSq:
		clear(r.dst)
		for i := range n {
			for j := range d {
				xv := x.At(i, j)
				if r.op == opMulVecTransSq {
					xv *= xv
				}
				r.dst[j] = math.FMA(xv, r.src[i], r.dst[j])
			}
		}
	case opHessVec:
		clear(r.dst)
		r.hb = 0
		for i := range n {
			u := float64((dot(i, r.src) + r.vb) * r.dd[i])
			r.hb += u
			for j := range d {
				r.dst[j] = math.FMA(x.At(i, j), u, r.dst[j])
			}
		}
	}
}

// TestProductRunners: a round of products of every kind, on heights that
// end blocks anywhere and strided views, gives through the dense runner
// the bits of the documented fma arithmetic, and through the CSR runner
// the bits of the design's own methods (the Hessian product as MulVec,
// weights, MulVecTrans).
func TestProductRunners(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, dim := range []struct{ n, d int }{{1, 1}, {5, 3}, {67, 16}, {1001, 7}, {2051, 54}, {603, 33}, {4099, 2}} {
		xd := randomDense(rng, dim.n, dim.d)
		reqs := roundOf(rng, dim.n, dim.d)
		name := fmt.Sprintf("%d×%d", dim.n, dim.d)

		got, want := copyRound(reqs), copyRound(reqs)
		productRunner(NewDense(xd))(got)
		for _, r := range want {
			denseReference(xd, r)
		}
		sameRound(t, "dense "+name, got, want)

		xs := NewCSR(reftest.CSR(xd))
		got, want = copyRound(reqs), copyRound(reqs)
		productRunner(xs)(got)
		for _, r := range want {
			runProduct(xs, r)
		}
		sameRound(t, "csr "+name, got, want)
	}
}

// TestDenseRunnerLanes: a problem's products do not depend on the other
// problems of the round, in number or values.
func TestDenseRunnerLanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	xd := randomDense(rng, 301, 9)
	reqs := roundOf(rng, 301, 9)
	all := copyRound(reqs)
	productRunner(NewDense(xd))(all)
	for i := range reqs {
		alone := copyRound(reqs[i : i+1])
		productRunner(NewDense(xd))(alone)
		sameRound(t, fmt.Sprintf("request %d alone", i), alone, all[i:i+1])
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
