package blockmul

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/polyclass/polyclass/plugins/logreg/logistic/internal/bitstest"
)

// TestGramAsmMatchesGo: the assembly kernels give the bits of gramGo on
// every shape (and one lane), with and without special values, added to a
// panel that is not zero.
func TestGramAsmMatchesGo(t *testing.T) {
	if !useAsm {
		t.Skip("no assembly kernels in this build (the noasm tag, or a processor without AVX2 and FMA): nothing to compare")
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for _, sh := range shapes {
		for _, w := range []int{1, sh.w} {
			for _, special := range []float64{0, 0.05} {
				name := fmt.Sprintf("rows %d d %d w %d stride %d special %v", sh.rows, sh.d, w, sh.stride, special)
				x := fill(rng, (sh.rows-1)*sh.stride+sh.d, special)
				tp := fill(rng, sh.rows*w, special)
				h0 := fill(rng, (sh.d+1)*(sh.d+2)/2*w, 0)
				got, want := append([]float64(nil), h0...), append([]float64(nil), h0...)
				gramGo(want, x, sh.stride, sh.rows, sh.d, tp, w)
				Gram(got, x, sh.stride, sh.rows, sh.d, tp, w)
				bitstest.Equal(t, name, got, want)
			}
		}
	}
}

// TestGramValues: Gram gives Σᵣ t[r]·x̃ᵣx̃ᵣᵀ (x̃ᵣ = (xᵣ, 1)), packed row
// after row, computed here entry by entry to a relative 1e-13, for every
// lane, and rows taken in blocks of any height give the bits of one call.
func TestGramValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	const rows, d, stride, w = 203, 9, 11, 12
	x := fill(rng, rows*stride, 0)
	tp := fill(rng, rows*w, 0)
	h := make([]float64, (d+1)*(d+2)/2*w)
	Gram(h, x, stride, rows, d, tp, w)
	at := func(r, j int) float64 {
		if j == d {
			return 1
		}
		return x[r*stride+j]
	}
	p := 0
	for a := 0; a <= d; a++ {
		for b := a; b <= d; b++ {
			for c := range w {
				var want, scale float64
				for r := range rows {
					want += tp[r*w+c] * at(r, a) * at(r, b)
					scale += math.Abs(tp[r*w+c] * at(r, a) * at(r, b))
				}
				if got := h[p*w+c]; math.Abs(got-want) > 1e-13*scale {
					t.Errorf("lane %d entry (%d,%d) = %v, want %v", c, a, b, got, want)
				}
			}
			p++
		}
	}
	for _, bs := range []int{1, 3, 4, 5, 64} {
		hb := make([]float64, len(h))
		for i0 := 0; i0 < rows; i0 += bs {
			i1 := min(i0+bs, rows)
			Gram(hb, x[i0*stride:], stride, i1-i0, d, tp[i0*w:], w)
		}
		bitstest.Equal(t, fmt.Sprintf("blocks of %d", bs), hb, h)
	}
}

// TestGramLanesIndependent: a lane's sums are those of the lane alone in a
// panel of one.
func TestGramLanesIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	const rows, d, w = 130, 16, 28
	x := fill(rng, rows*d, 0.01)
	tp := fill(rng, rows*w, 0.01)
	all := make([]float64, (d+1)*(d+2)/2*w)
	Gram(all, x, d, rows, d, tp, w)
	for c := range w {
		t1 := make([]float64, rows)
		for r := range t1 {
			t1[r] = tp[r*w+c]
		}
		one := make([]float64, (d+1)*(d+2)/2)
		Gram(one, x, d, rows, d, t1, 1)
		for j, v := range one {
			if !bitstest.Same(v, all[j*w+c]) {
				t.Fatalf("lane %d entry %d: %v alone, %v in a panel of %d", c, j, v, all[j*w+c], w)
			}
		}
	}
}

// BenchmarkGram forms the explicit Hessians of letter-like rows (16
// columns, 153 entries with the intercept) over 4096 rows, for one
// problem and a panel of 28 lanes (26 problems), in assembly and in Go;
// ns/row is the time per row.
func BenchmarkGram(b *testing.B) {
	rng := rand.New(rand.NewPCG(19, 20))
	const rows, d = 4096, 16
	x := fill(rng, rows*d, 0)
	for _, w := range []int{1, 28} {
		tp := fill(rng, rows*w, 0)
		h := make([]float64, (d+1)*(d+2)/2*w)
		for _, k := range []struct {
			name string
			f    func()
		}{
			{"asm", func() { Gram(h, x, d, rows, d, tp, w) }},
			{"go", func() { gramGo(h, x, d, rows, d, tp, w) }},
		} {
			b.Run(fmt.Sprintf("lanes=%d/%s", w, k.name), func(b *testing.B) {
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
}
