package sparsemul

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/polyclass/polyclass/framework/sparse"
	"github.com/polyclass/polyclass/plugins/internal/reftest"
	"github.com/polyclass/polyclass/plugins/logreg/logistic/internal/bitstest"
	"github.com/polyclass/polyclass/plugins/logreg/logistic/internal/blockmul"
)

// randomCSR returns a rows×cols CSR matrix whose rows hold 0 to maxNNZ
// entries, about half of them 1 (one-hot like), the others normal, some
// special when special > 0.
func randomCSR(rng *rand.Rand, rows, cols, maxNNZ int, special float64) *sparse.CSR {
	m := &sparse.CSR{Rows: rows, Cols: cols, Indptr: make([]int64, rows+1)}
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.NaN(), 5e-324, -1}
	for i := range rows {
		k := rng.IntN(maxNNZ + 1)
		picked := rng.Perm(cols)[:min(k, cols)]
		// column order
		for a := 1; a < len(picked); a++ {
			for b := a; b > 0 && picked[b] < picked[b-1]; b-- {
				picked[b], picked[b-1] = picked[b-1], picked[b]
			}
		}
		for _, j := range picked {
			v := 1.0
			switch u := rng.Float64(); {
			case u < special:
				v = specials[rng.IntN(len(specials))]
			case u < 0.5:
				v = rng.NormFloat64()
			}
			m.Indices = append(m.Indices, int32(j))
			m.Values = append(m.Values, v)
		}
		m.Indptr[i+1] = int64(len(m.Values))
	}
	if err := m.Validate(); err != nil {
		panic(err)
	}
	return m
}

func fill(rng *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = rng.NormFloat64()
	}
	return s
}

// TestAsmMatchesGo: the assembly kernels (Mul, MulScale, AddTrans,
// AddTransSq) give the bits of the Go versions, for one lane and panels of
// 4 to 12 lanes, whole matrices and row ranges, with and without special
// values.
func TestAsmMatchesGo(t *testing.T) {
	if !useAsm {
		t.Skip("no assembly kernels in this build (the noasm tag, or a processor without AVX2 and FMA): nothing to compare")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	shapes := []asmShape{{1, 1, 1}, {7, 5, 5}, {40, 30, 13}, {300, 200, 40}, {50, 9, 9}}
	forAsmCases(rng, shapes, func(name string, x *sparse.CSR, w, r0, r1 int) {
		m := FromCSR(x)
		v := fill(rng, x.Cols*w)
		tp := fill(rng, (r1-r0)*w)
		got, want := make([]float64, (r1-r0)*w), make([]float64, (r1-r0)*w)
		m.mulGo(want, r0, r1, v, w)
		m.Mul(got, r0, r1, v, w)
		bitstest.Equal(t, name+": Mul", got, want)
		dd, vb, hb0 := fill(rng, (r1-r0)*w), fill(rng, w), fill(rng, w)
		ghb, whb := append([]float64(nil), hb0...), append([]float64(nil), hb0...)
		blockmul.Scale(want, r1-r0, w, dd, vb, whb)
		m.MulScale(got, r0, r1, v, w, dd, vb, ghb)
		bitstest.Equal(t, name+": MulScale t", got, want)
		bitstest.Equal(t, name+": MulScale hb", ghb, whb)
		for _, sq := range []bool{false, true} {
			h0 := fill(rng, x.Cols*w)
			gh, wh := append([]float64(nil), h0...), append([]float64(nil), h0...)
			m.addTransGo(wh, r0, r1, tp, w, sq)
			m.addTrans("test", gh, r0, r1, tp, w, sq)
			bitstest.Equal(t, fmt.Sprintf("%s: AddTrans (square %v)", name, sq), gh, wh)
		}
	})
}

// asmShape is a random CSR matrix's shape in the assembly tests: rows,
// columns, and at most nnz non-zeros a row.
type asmShape struct{ rows, cols, nnz int }

// forAsmCases calls f on random CSR matrices of each shape, without and
// with special values (0.05 of the entries), for one lane and panels of 4
// to 12 lanes, and for all rows, the last two thirds and the first half:
// the cases where the assembly kernels must give the bits of Go.
func forAsmCases(rng *rand.Rand, shapes []asmShape, f func(name string, x *sparse.CSR, w, r0, r1 int)) {
	for _, sh := range shapes {
		for _, special := range []float64{0, 0.05} {
			x := randomCSR(rng, sh.rows, sh.cols, sh.nnz, special)
			for _, w := range []int{1, 4, 8, 12} {
				for _, rr := range [][2]int{{0, sh.rows}, {sh.rows / 3, sh.rows}, {0, (sh.rows + 1) / 2}} {
					r0, r1 := rr[0], rr[1]
					if r1 == r0 {
						continue
					}
					f(fmt.Sprintf("%d×%d nnz≤%d special %v w %d rows %d..%d", sh.rows, sh.cols, sh.nnz, special, w, r0, r1), x, w, r0, r1)
				}
			}
		}
	}
}

// TestLanesIndependent: a lane's results do not depend on the panel's
// width or the other lanes.
func TestLanesIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	m := FromCSR(randomCSR(rng, 120, 60, 25, 0))
	const w = 8
	v, tp := fill(rng, 60*w), fill(rng, 120*w)
	all, h := make([]float64, 120*w), make([]float64, 60*w)
	m.Mul(all, 0, 120, v, w)
	m.AddTrans(h, 0, 120, tp, w)
	for c := range w {
		v1, t1 := make([]float64, 60), make([]float64, 120)
		for j := range 60 {
			v1[j] = v[j*w+c]
		}
		for r := range 120 {
			t1[r] = tp[r*w+c]
		}
		one, h1 := make([]float64, 120), make([]float64, 60)
		m.Mul(one, 0, 120, v1, 1)
		m.AddTrans(h1, 0, 120, t1, 1)
		for r := range 120 {
			if !bitstest.Same(one[r], all[r*w+c]) {
				t.Fatalf("lane %d row %d: alone %v, in a panel of %d %v", c, r, one[r], w, all[r*w+c])
			}
		}
		for j := range 60 {
			if !bitstest.Same(h1[j], h[j*w+c]) {
				t.Fatalf("lane %d column %d: alone %v, in a panel of %d %v", c, j, h1[j], w, h[j*w+c])
			}
		}
	}
}

// TestProducts checks the products against plain sums over the CSR
// matrix, within 1e-14 of the sum of absolute terms.
func TestProducts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	csr := randomCSR(rng, 90, 40, 30, 0)
	m := FromCSR(csr)
	if m.Rows != 90 || m.Cols != 40 || len(m.VVal)+len(m.UIdx) != csr.NNZ() {
		t.Fatalf("FromCSR: %d×%d with %d+%d entries, want 90×40 with %d", m.Rows, m.Cols, len(m.VVal), len(m.UIdx), csr.NNZ())
	}
	const w = 4
	v, tp := fill(rng, 40*w), fill(rng, 90*w)
	got, h, hs := make([]float64, 90*w), make([]float64, 40*w), make([]float64, 40*w)
	m.Mul(got, 0, 90, v, w)
	m.AddTrans(h, 0, 90, tp, w)
	m.AddTransSq(hs, 0, 90, tp, w)
	wantH, wantHs, absH, absHs := make([]float64, 40*w), make([]float64, 40*w), make([]float64, 40*w), make([]float64, 40*w)
	for r := range 90 {
		idx, val := csr.Row(r)
		for c := range w {
			var want, abs float64
			for k, j := range idx {
				want += val[k] * v[int(j)*w+c]
				abs += math.Abs(val[k] * v[int(j)*w+c])
				wantH[int(j)*w+c] += val[k] * tp[r*w+c]
				absH[int(j)*w+c] += math.Abs(val[k] * tp[r*w+c])
				wantHs[int(j)*w+c] += val[k] * val[k] * tp[r*w+c]
				absHs[int(j)*w+c] += math.Abs(val[k] * val[k] * tp[r*w+c])
			}
			if math.Abs(got[r*w+c]-want) > 1e-14*abs {
				t.Fatalf("Mul[%d,%d] = %v, want %v", r, c, got[r*w+c], want)
			}
		}
	}
	for i := range wantH {
		if math.Abs(h[i]-wantH[i]) > 1e-14*absH[i] || math.Abs(hs[i]-wantHs[i]) > 1e-14*absHs[i] {
			t.Fatalf("AddTrans[%d] = %v, %v (square), want %v, %v", i, h[i], hs[i], wantH[i], wantHs[i])
		}
	}
}

func TestShapePanics(t *testing.T) {
	m := FromCSR(&sparse.CSR{Rows: 2, Cols: 2, Indptr: []int64{0, 1, 2}, Indices: []int32{0, 1}, Values: []float64{1, 2}})
	for name, f := range map[string]func(){
		"width 2":     func() { m.Mul(make([]float64, 4), 0, 2, make([]float64, 4), 2) },
		"rows beyond": func() { m.Mul(make([]float64, 4), 0, 3, make([]float64, 2), 1) },
		"short h":     func() { m.AddTrans(make([]float64, 1), 0, 2, make([]float64, 2), 1) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// BenchmarkHessParts runs X·v and Xᵀ·t, the two passes of a Hessian
// product, on an 80 000-row diabetes-like matrix in blocks of 256 rows,
// for one problem and a panel of 4.
func BenchmarkHessParts(b *testing.B) {
	const n, block = 80000, 256
	m := FromCSR(reftest.DiabetesLike(n))
	for _, w := range []int{1, 4, 8} {
		b.Run(fmt.Sprintf("lanes=%d", w), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			v, h, tp := fill(rng, m.Cols*w), make([]float64, m.Cols*w), make([]float64, block*w)
			for b.Loop() {
				for r0 := 0; r0 < n; r0 += block {
					r1 := min(r0+block, n)
					m.Mul(tp, r0, r1, v, w)
					m.AddTrans(h, r0, r1, tp, w)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/row")
		})
	}
}

// TestFromDense: a dense matrix (a strided view with zeros, ones and other
// values) gives the matrix FromCSR gives for its non-zero entries, and nil
// when it has more non-zeros than the limit.
func TestFromDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	csr := randomCSR(rng, 31, 11, 8, 0)
	const stride = 13
	data := make([]float64, 30*stride+11)
	for i := range data {
		data[i] = 5 // outside the view
	}
	for i := range 31 {
		clear(data[i*stride : i*stride+11])
		idx, val := csr.Row(i)
		for k, j := range idx {
			data[i*stride+int(j)] = val[k]
		}
	}
	want := FromCSR(csr)
	nnz := int(want.VPtr[31] + want.UPtr[31])
	if m := FromDense(data, 31, 11, stride, nnz-1); m != nil {
		t.Fatalf("%d non-zeros with a limit of %d: got a matrix, want nil", nnz, nnz-1)
	}
	got := FromDense(data, 31, 11, stride, nnz)
	if got == nil {
		t.Fatalf("%d non-zeros with a limit of %d: got nil", nnz, nnz)
	}
	if got.Rows != want.Rows || got.Cols != want.Cols || !slices.Equal(got.UPtr, want.UPtr) || !slices.Equal(got.UIdx, want.UIdx) {
		t.Fatalf("unit runs differ: %v %v, want %v %v", got.UPtr, got.UIdx, want.UPtr, want.UIdx)
	}
	if !slices.Equal(got.VPtr, want.VPtr) || !slices.Equal(got.VIdx, want.VIdx) || !slices.Equal(got.VVal, want.VVal) {
		t.Fatalf("valued runs differ")
	}
}
