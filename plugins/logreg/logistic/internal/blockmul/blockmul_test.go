package blockmul

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/polyclass/polyclass/plugins/logreg/logistic/internal/bitstest"
)

// shapes are the block shapes the tests run: rows around multiples of 4,
// d from 1 up, w from 4 to 28 (whole and half 8-lane chunks) and strides
// wider than d.
var shapes = []struct{ rows, d, w, stride int }{
	{1, 1, 4, 1}, {3, 2, 4, 5}, {4, 1, 4, 1}, {4, 3, 8, 3}, {5, 16, 12, 16},
	{7, 5, 16, 9}, {8, 16, 16, 16}, {13, 17, 20, 17}, {16, 33, 28, 40},
	{64, 16, 16, 16}, {67, 53, 8, 53}, {130, 2, 24, 2}, {255, 7, 4, 11},
	{8, 12, 8, 15},
}

// specials are values that test the arithmetic's edges: signed zeros,
// infinities, NaN, subnormals and the largest finite value.
var specials = []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
	5e-324, -2.2250738585072014e-308, math.MaxFloat64, 1, -1}

// fill returns n values, normal ones with a fraction special (specials
// share > 0) or zero.
func fill(rng *rand.Rand, n int, special float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		switch u := rng.Float64(); {
		case u < special:
			s[i] = specials[rng.IntN(len(specials))]
		case u < special+0.1:
			s[i] = 0
		default:
			s[i] = rng.NormFloat64() * math.Exp2(float64(rng.IntN(20)-10))
		}
	}
	return s
}

// TestAsmMatchesGo: every assembly kernel gives the bits of its Go
// version, on every shape, with and without special values.
func TestAsmMatchesGo(t *testing.T) {
	if !useAsm {
		t.Skip("no assembly kernels in this build (the noasm tag, or a processor without AVX2 and FMA): nothing to compare")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sh := range shapes {
		for _, w := range []int{sh.w, 1} {
			for _, special := range []float64{0, 0.05} {
				name := fmt.Sprintf("rows %d d %d w %d stride %d special %v", sh.rows, sh.d, w, sh.stride, special)
				t.Run(name, func(t *testing.T) {
					checkAsm(t, rng, sh.rows, sh.d, w, sh.stride, special)
				})
			}
		}
	}
}

func checkAsm(t *testing.T, rng *rand.Rand, rows, d, w, stride int, special float64) {
	x := fill(rng, rows*stride, special)
	v := fill(rng, d*w, special)
	tp := fill(rng, rows*w, special)
	dd := fill(rng, rows*w, special)
	vb := fill(rng, w, special)
	h0 := fill(rng, d*w, special)
	hb0 := fill(rng, w, special)

	got, want := make([]float64, rows*w), make([]float64, rows*w)
	if w == 1 {
		mul1Asm(&got[0], &x[0], stride, rows, d, &v[0])
	} else {
		mulAsm(&got[0], &x[0], stride, rows, d, &v[0], w)
	}
	mulGo(want, x, stride, rows, d, v, w)
	bitstest.Equal(t, "Mul", got, want)

	ghb, whb := append([]float64(nil), hb0...), append([]float64(nil), hb0...)
	if w == 1 {
		mulScale1Asm(&got[0], &x[0], stride, rows, d, &v[0], &dd[0], vb[0], &ghb[0])
	} else {
		mulScaleAsm(&got[0], &x[0], stride, rows, d, &v[0], w, &dd[0], &vb[0], &ghb[0])
	}
	scaleGo(want, rows, w, dd, vb, whb)
	bitstest.Equal(t, "mulScale t", got, want)
	bitstest.Equal(t, "mulScale hb", ghb, whb)

	r4 := rows &^ 3
	if r4 == 0 {
		return
	}
	for _, sq := range []bool{false, true} {
		got, want := append([]float64(nil), h0...), append([]float64(nil), h0...)
		switch {
		case w == 1 && sq:
			addTransSq1Asm(&got[0], &x[0], stride, r4, d, &tp[0])
		case w == 1:
			addTrans1Asm(&got[0], &x[0], stride, r4, d, &tp[0])
		case sq:
			addTransSqAsm(&got[0], &x[0], stride, r4, d, &tp[0], w)
		default:
			addTransAsm(&got[0], &x[0], stride, r4, d, &tp[0], w)
		}
		addTransGo(want, x, stride, r4, d, tp, w, sq)
		bitstest.Equal(t, fmt.Sprintf("AddTrans (square %v)", sq), got, want)
	}
}

// TestBlocksContinue: a matrix taken in blocks of any height gives the
// bits of one call, and each lane's results do not depend on the width of
// the panel it sits in or on the other lanes.
func TestBlocksContinue(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const rows, d, stride = 203, 13, 15
	x := fill(rng, rows*stride, 0.01)
	for _, w := range []int{1, 4, 8, 12, 20} {
		v := fill(rng, d*w, 0.01)
		dd := fill(rng, rows*w, 0.01)
		vb := fill(rng, w, 0.01)
		wantH, wantHb := make([]float64, d*w), make([]float64, w)
		scratch := make([]float64, rows*w)
		Hess(wantH, wantHb, scratch, x, stride, rows, d, v, w, dd, vb)
		for _, bs := range []int{1, 3, 4, 5, 64, 202} {
			h, hb := make([]float64, d*w), make([]float64, w)
			for i0 := 0; i0 < rows; i0 += bs {
				i1 := min(i0+bs, rows)
				Hess(h, hb, scratch, x[i0*stride:], stride, i1-i0, d, v, w, dd[i0*w:], vb)
			}
			bitstest.Equal(t, fmt.Sprintf("w %d blocks of %d: h", w, bs), h, wantH)
			bitstest.Equal(t, fmt.Sprintf("w %d blocks of %d: hb", w, bs), hb, wantHb)
		}
		// Lane c alone, in the first lane of a 4-wide panel whose other
		// lanes hold other values, and in a panel of its own (w = 1).
		for c := range w {
			v1, dd1, vb1 := make([]float64, d*4), make([]float64, rows*4), make([]float64, 4)
			for j := range d {
				v1[j*4] = v[j*w+c]
				v1[j*4+1] = float64(j)
			}
			for r := range rows {
				dd1[r*4] = dd[r*w+c]
				dd1[r*4+2] = math.NaN()
			}
			vb1[0], vb1[3] = vb[c], math.Inf(1)
			h1, hb1 := make([]float64, d*4), make([]float64, 4)
			Hess(h1, hb1, make([]float64, rows*4), x, stride, rows, d, v1, 4, dd1, vb1)
			v0, dd0 := make([]float64, d), make([]float64, rows)
			for j := range d {
				v0[j] = v1[j*4]
			}
			for r := range rows {
				dd0[r] = dd1[r*4]
			}
			h0, hb0 := make([]float64, d), make([]float64, 1)
			Hess(h0, hb0, make([]float64, rows), x, stride, rows, d, v0, 1, dd0, vb1[:1])
			for j := range d {
				if !bitstest.Same(h1[j*4], wantH[j*w+c]) || !bitstest.Same(h0[j], wantH[j*w+c]) {
					t.Fatalf("w %d lane %d alone: h[%d] = %v (4 lanes), %v (1 lane), want %v", w, c, j, h1[j*4], h0[j], wantH[j*w+c])
				}
			}
			if !bitstest.Same(hb1[0], wantHb[c]) || !bitstest.Same(hb0[0], wantHb[c]) {
				t.Fatalf("w %d lane %d alone: hb = %v (4 lanes), %v (1 lane), want %v", w, c, hb1[0], hb0[0], wantHb[c])
			}
		}
	}
}

// TestProducts checks the products against sums in higher precision (the
// fma chains are accurate to a few units in the last place for these
// well-conditioned inputs).
func TestProducts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const rows, d, w, stride = 37, 11, 12, 11
	x := fill(rng, rows*stride, 0)
	v := fill(rng, d*w, 0)
	tp := fill(rng, rows*w, 0)
	got := make([]float64, rows*w)
	Mul(got, x, stride, rows, d, v, w)
	for r := range rows {
		for c := range w {
			var want, abs float64
			for j := range d {
				want += x[r*stride+j] * v[j*w+c]
				abs += math.Abs(x[r*stride+j] * v[j*w+c])
			}
			if math.Abs(got[r*w+c]-want) > 1e-14*abs {
				t.Fatalf("Mul[%d,%d] = %v, want %v", r, c, got[r*w+c], want)
			}
		}
	}
	for _, sq := range []bool{false, true} {
		h := make([]float64, d*w)
		if sq {
			AddTransSq(h, x, stride, rows, d, tp, w)
		} else {
			AddTrans(h, x, stride, rows, d, tp, w)
		}
		for j := range d {
			for c := range w {
				var want, abs float64
				for r := range rows {
					xv := x[r*stride+j]
					if sq {
						xv *= xv
					}
					want += xv * tp[r*w+c]
					abs += math.Abs(xv * tp[r*w+c])
				}
				if math.Abs(h[j*w+c]-want) > 1e-14*abs {
					t.Fatalf("AddTrans (square %v)[%d,%d] = %v, want %v", sq, j, c, h[j*w+c], want)
				}
			}
		}
	}
}

// TestShapePanics: inconsistent shapes panic with the function's name.
func TestShapePanics(t *testing.T) {
	for name, f := range map[string]func(){
		"w not a multiple of 4": func() { Mul(make([]float64, 6), make([]float64, 4), 2, 2, 2, make([]float64, 6), 3) },
		"x too short":           func() { AddTrans(make([]float64, 8), make([]float64, 3), 2, 2, 2, make([]float64, 8), 4) },
		"dd too short": func() {
			Hess(make([]float64, 8), make([]float64, 4), make([]float64, 8), make([]float64, 4), 2, 2, 2, make([]float64, 8), 4, make([]float64, 7), make([]float64, 4))
		},
		"w of 2":         func() { AddTrans(make([]float64, 4), make([]float64, 4), 2, 2, 2, make([]float64, 4), 2) },
		"stride below d": func() { Mul(make([]float64, 8), make([]float64, 8), 1, 2, 2, make([]float64, 8), 4) },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

func TestWidth(t *testing.T) {
	for k, want := range map[int]int{0: 0, 1: 1, 2: 4, 4: 4, 5: 8, 13: 16, 26: 28} {
		if got := Width(k); got != want {
			t.Errorf("Width(%d) = %d, want %d", k, got, want)
		}
	}
}

// benchRows, benchD and benchW are a letter fold: 18000 rows of 16
// features, 13 problems (one goroutine's half of the 26 one-vs-rest
// problems) in 16 lanes, in blocks of benchBlock rows.
const benchRows, benchD, benchW, benchBlock = 18000, 16, 16, 64

// benchHess runs Hess over the letter-shaped block in panels of w lanes.
func benchHess(b *testing.B, w int, hess func(h, hb, t, x []float64, stride, rows, d int, v []float64, w int, dd, vb []float64)) {
	rng := rand.New(rand.NewPCG(7, 8))
	x := fill(rng, benchRows*benchD, 0)
	v, dd, vb := fill(rng, benchD*w, 0), fill(rng, benchRows*w, 0), fill(rng, w, 0)
	h, hb, t := make([]float64, benchD*w), make([]float64, w), make([]float64, benchBlock*w)
	b.SetBytes(benchRows * benchD * 8)
	for b.Loop() {
		for i0 := 0; i0 < benchRows; i0 += benchBlock {
			i1 := min(i0+benchBlock, benchRows)
			hess(h, hb, t, x[i0*benchD:], benchD, i1-i0, benchD, v, w, dd[i0*w:], vb)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchRows, "ns/row")
}

// hessGo is Hess with the Go kernels (the machines without AVX2 and FMA).
func hessGo(h, hb, t, x []float64, stride, rows, d int, v []float64, w int, dd, vb []float64) {
	mulGo(t, x, stride, rows, d, v, w)
	scaleGo(t, rows, w, dd, vb, hb)
	addTransGo(h, x, stride, rows, d, t, w, false)
}

func BenchmarkHess(b *testing.B) {
	for _, w := range []int{1, 4, benchW} {
		b.Run(fmt.Sprintf("lanes=%d", w), func(b *testing.B) { benchHess(b, w, Hess) })
	}
}

func BenchmarkHessGo(b *testing.B) { benchHess(b, benchW, hessGo) }

func BenchmarkMul(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	x := fill(rng, benchRows*benchD, 0)
	v, tp := fill(rng, benchD*benchW, 0), make([]float64, benchRows*benchW)
	b.SetBytes(benchRows * benchD * 8)
	for b.Loop() {
		Mul(tp, x, benchD, benchRows, benchD, v, benchW)
	}
}

func BenchmarkAddTrans(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	x := fill(rng, benchRows*benchD, 0)
	tp, h := fill(rng, benchRows*benchW, 0), make([]float64, benchD*benchW)
	b.SetBytes(benchRows * benchD * 8)
	for b.Loop() {
		AddTrans(h, x, benchD, benchRows, benchD, tp, benchW)
	}
}

// TestExactView: a block given exactly (the last row ends the slice, rows
// a multiple of 4, stride wider than d) is read within its bounds.
func TestExactView(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const rows, d, stride = 8, 12, 15
	x := fill(rng, (rows-1)*stride+d, 0)
	for _, w := range []int{1, 4} {
		tp, h := fill(rng, rows*w, 0), make([]float64, d*w)
		AddTrans(h, x, stride, rows, d, tp, w)
		AddTransSq(h, x, stride, rows, d, tp, w)
		Hess(h, make([]float64, w), make([]float64, rows*w), x, stride, rows, d, fill(rng, d*w, 0), w, fill(rng, rows*w, 0), fill(rng, w, 0))
		Mul(tp, x, stride, rows, d, fill(rng, d*w, 0), w)
	}
}
