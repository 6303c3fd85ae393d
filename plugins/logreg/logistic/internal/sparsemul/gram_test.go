package sparsemul

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/polyclass/polyclass/framework/sparse"
	"github.com/polyclass/polyclass/plugins/logreg/logistic/internal/bitstest"
)

// TestGramPositions: the packed upper triangle of a 4×4 matrix, row after
// row: (0,0) (0,1) (0,2) (0,3) (1,1) (1,2) (1,3) (2,2) (2,3) (3,3).
func TestGramPositions(t *testing.T) {
	if got := GramSize(4); got != 10 {
		t.Fatalf("GramSize(4) = %d, want 10", got)
	}
	p := 0
	for a := range 4 {
		for b := a; b < 4; b++ {
			if got := GramRowStart(4, a) + b; got != p {
				t.Errorf("entry (%d,%d) at %d, want %d", a, b, got, p)
			}
			p++
		}
	}
}

// TestGramValues: Gram gives Σᵣ t[r]·x̃ᵣx̃ᵣᵀ (x̃ᵣ = (xᵣ, 1)), computed here
// entry by entry from the dense rows, to a relative 1e-13, for every lane.
func TestGramValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	x := randomCSR(rng, 200, 9, 6, 0)
	const w = 4
	m := x.Cols + 1
	tp := fill(rng, x.Rows*w)
	h := make([]float64, GramSize(m)*w)
	Gram(h, x, 0, x.Rows, tp, w)
	for c := range w {
		for a := range m {
			for b := a; b < m; b++ {
				var want, scale float64
				for r := range x.Rows {
					xa, xb := 1.0, 1.0
					if a < x.Cols {
						xa = x.At(r, a)
					}
					if b < x.Cols {
						xb = x.At(r, b)
					}
					want += tp[r*w+c] * xa * xb
					scale += math.Abs(tp[r*w+c] * xa * xb)
				}
				got := h[(GramRowStart(m, a)+b)*w+c]
				if math.Abs(got-want) > 1e-13*scale {
					t.Errorf("lane %d entry (%d,%d) = %v, want %v", c, a, b, got, want)
				}
			}
		}
	}
}

// TestGramAsmMatchesGo: the assembly kernels give the bits of gramGo, for
// one lane and panels of 4 to 12 lanes, whole matrices and row ranges,
// with and without special values, added to a panel that is not zero.
func TestGramAsmMatchesGo(t *testing.T) {
	if !useAsm {
		t.Skip("no assembly kernels in this build (the noasm tag, or a processor without AVX2 and FMA): nothing to compare")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	shapes := []asmShape{{1, 1, 1}, {7, 5, 5}, {40, 30, 13}, {300, 63, 20}, {50, 9, 9}}
	forAsmCases(rng, shapes, func(name string, x *sparse.CSR, w, r0, r1 int) {
		m := x.Cols + 1
		tp := fill(rng, (r1-r0)*w)
		h0 := fill(rng, GramSize(m)*w)
		got, want := append([]float64(nil), h0...), append([]float64(nil), h0...)
		gramGo(want, x, r0, r1, tp, w)
		Gram(got, x, r0, r1, tp, w)
		bitstest.Equal(t, name+": Gram", got, want)
	})
}

// TestGramLanesIndependent: a lane's sums do not depend on the panel's
// width or the other lanes, and rows given in two calls give the bits of
// one call.
func TestGramLanesIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	x := randomCSR(rng, 150, 20, 8, 0)
	m := x.Cols + 1
	const w = 8
	tp := fill(rng, x.Rows*w)
	all := make([]float64, GramSize(m)*w)
	Gram(all, x, 0, 70, tp, w)
	Gram(all, x, 70, x.Rows, tp[70*w:], w)
	for c := range w {
		t1 := make([]float64, x.Rows)
		for r := range t1 {
			t1[r] = tp[r*w+c]
		}
		one := make([]float64, GramSize(m))
		Gram(one, x, 0, x.Rows, t1, 1)
		for j, v := range one {
			if !bitstest.Same(v, all[j*w+c]) {
				t.Fatalf("lane %d entry %d: %v alone, %v in a panel of %d", c, j, v, all[j*w+c], w)
			}
		}
	}
}

// BenchmarkGram forms the explicit Hessians of 7 problems (a panel of 8
// lanes) over 4096 covertype-like rows (10 valued and 2 unit entries in 54
// columns, the intercept: 91 pairs a row), in assembly and in Go; ns/row
// is the time per row.
func BenchmarkGram(b *testing.B) {
	rng := rand.New(rand.NewPCG(11, 12))
	const rows, w = 4096, 8
	x := &sparse.CSR{Rows: rows, Cols: 54, Indptr: make([]int64, rows+1)}
	for i := range rows {
		for j := range 10 {
			x.Indices, x.Values = append(x.Indices, int32(j)), append(x.Values, rng.NormFloat64())
		}
		x.Indices = append(x.Indices, int32(10+rng.IntN(4)), int32(14+rng.IntN(40)))
		x.Values = append(x.Values, 1, 1)
		x.Indptr[i+1] = int64(len(x.Values))
	}
	tp := fill(rng, rows*w)
	h := make([]float64, GramSize(55)*w)
	for _, k := range []struct {
		name string
		f    func()
	}{
		{"asm", func() { Gram(h, x, 0, rows, tp, w) }},
		{"go", func() { gramGo(h, x, 0, rows, tp, w) }},
	} {
		b.Run(k.name, func(b *testing.B) {
			if k.name == "asm" && !useAsm {
				b.Skip("no AVX2 and FMA")
			}
			for b.Loop() {
				k.f()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/rows, "ns/row")
		})
	}
}
