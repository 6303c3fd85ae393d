package sparsemul

import (
	"fmt"
	"math"

	"github.com/polyclass/polyclass/framework/sparse"
	"github.com/polyclass/polyclass/plugins/logreg/logistic/internal/blockmul"
)

// Matrix is a sparse matrix whose rows keep their entries equal to 1 apart
// (see the package documentation). The zero value is an empty matrix.
type Matrix struct {
	// Rows and Cols are the dimensions.
	Rows, Cols int
	// Row i's valued entries are VIdx[VPtr[i]:VPtr[i+1]] with values
	// VVal[VPtr[i]:VPtr[i+1]], its unit entries UIdx[UPtr[i]:UPtr[i+1]].
	VPtr, UPtr []int64
	VIdx, UIdx []int32
	VVal       []float64
}

// FromCSR returns m with each row's entries equal to 1 moved to its unit
// run, every run in column order. m must be valid (sparse.CSR.Validate).
func FromCSR(m *sparse.CSR) *Matrix {
	units := 0
	for _, v := range m.Values {
		if isUnit(v) {
			units++
		}
	}
	nv := len(m.Values) - units
	s := &Matrix{
		Rows: m.Rows, Cols: m.Cols,
		VPtr: make([]int64, m.Rows+1), UPtr: make([]int64, m.Rows+1),
		VIdx: make([]int32, 0, nv), VVal: make([]float64, 0, nv),
		UIdx: make([]int32, 0, units),
	}
	for i := range m.Rows {
		idx, val := m.Row(i)
		for k, j := range idx {
			if isUnit(val[k]) {
				s.UIdx = append(s.UIdx, j)
			} else {
				s.VIdx = append(s.VIdx, j)
				s.VVal = append(s.VVal, val[k])
			}
		}
		s.VPtr[i+1], s.UPtr[i+1] = int64(len(s.VIdx)), int64(len(s.UIdx))
	}
	return s
}

// isUnit reports whether v is exactly 1.
func isUnit(v float64) bool { return math.Float64bits(v) == math.Float64bits(1) }

// check panics unless rows r0 ≤ r < r1 exist and w is 1 or a multiple of 4.
func (m *Matrix) check(name string, r0, r1, w int) {
	if r0 < 0 || r1 < r0 || r1 > m.Rows || w < 1 || w != 1 && w%4 != 0 {
		panic(fmt.Sprintf("sparsemul.%s: rows %d..%d of %d, width %d", name, r0, r1, m.Rows, w))
	}
}

// need panics when a slice is shorter than n.
func need(name, arg string, s []float64, n int) {
	if len(s) < n {
		panic(fmt.Sprintf("sparsemul.%s: %s has %d entries, want %d", name, arg, len(s), n))
	}
}

// Mul sets t[(r−r0)·w+c] = Σⱼ m[r,j]·v[j·w+c] for r0 ≤ r < r1 and c < w,
// in the order the package documentation gives.
func (m *Matrix) Mul(t []float64, r0, r1 int, v []float64, w int) {
	m.check("Mul", r0, r1, w)
	need("Mul", "t", t, (r1-r0)*w)
	need("Mul", "v", v, m.Cols*w)
	if r1 == r0 {
		return
	}
	switch {
	case !useAsm:
		m.mulGo(t, r0, r1, v, w)
	case w == 1:
		mul1Asm(&t[0], &v[0], r1-r0, &m.VPtr[r0], idx0(m.VIdx), val0(m.VVal), &m.UPtr[r0], idx0(m.UIdx))
	default:
		for c := 0; c < w; c += lanes(c, w) {
			if lanes(c, w) == 8 {
				mul8Asm(&t[c], w, &v[c], w, r1-r0, &m.VPtr[r0], idx0(m.VIdx), val0(m.VVal), &m.UPtr[r0], idx0(m.UIdx))
			} else {
				mul4Asm(&t[c], w, &v[c], w, r1-r0, &m.VPtr[r0], idx0(m.VIdx), val0(m.VVal), &m.UPtr[r0], idx0(m.UIdx))
			}
		}
	}
}

// MulScale is Mul followed by the weighting of Hess: with t the product,
// it sets t[(r−r0)·w+c] = (t + vb[c])·dd[(r−r0)·w+c], the sum and the
// product each rounded, and adds it to hb[c], row after row.
func (m *Matrix) MulScale(t []float64, r0, r1 int, v []float64, w int, dd, vb, hb []float64) {
	m.check("MulScale", r0, r1, w)
	need("MulScale", "t", t, (r1-r0)*w)
	need("MulScale", "dd", dd, (r1-r0)*w)
	need("MulScale", "v", v, m.Cols*w)
	need("MulScale", "vb", vb, w)
	need("MulScale", "hb", hb, w)
	if r1 == r0 {
		return
	}
	switch {
	case !useAsm:
		m.mulGo(t, r0, r1, v, w)
		blockmul.Scale(t, r1-r0, w, dd, vb, hb)
	case w == 1:
		mulScale1Asm(&t[0], &v[0], r1-r0, &m.VPtr[r0], idx0(m.VIdx), val0(m.VVal), &m.UPtr[r0], idx0(m.UIdx), &dd[0], vb[0], &hb[0])
	default:
		for c := 0; c < w; c += lanes(c, w) {
			if lanes(c, w) == 8 {
				mulScale8Asm(&t[c], w, &v[c], w, r1-r0, &m.VPtr[r0], idx0(m.VIdx), val0(m.VVal), &m.UPtr[r0], idx0(m.UIdx), &dd[c], &vb[c], &hb[c])
			} else {
				mulScale4Asm(&t[c], w, &v[c], w, r1-r0, &m.VPtr[r0], idx0(m.VIdx), val0(m.VVal), &m.UPtr[r0], idx0(m.UIdx), &dd[c], &vb[c], &hb[c])
			}
		}
	}
}

// AddTrans adds Σᵣ m[r,j]·t[(r−r0)·w+c] over r0 ≤ r < r1 to h[j·w+c], row
// after row.
func (m *Matrix) AddTrans(h []float64, r0, r1 int, t []float64, w int) {
	m.addTrans("AddTrans", h, r0, r1, t, w, false)
}

// AddTransSq adds Σᵣ m[r,j]²·t[(r−r0)·w+c] over r0 ≤ r < r1 to h[j·w+c],
// row after row, each square rounded first.
func (m *Matrix) AddTransSq(h []float64, r0, r1 int, t []float64, w int) {
	m.addTrans("AddTransSq", h, r0, r1, t, w, true)
}

func (m *Matrix) addTrans(name string, h []float64, r0, r1 int, t []float64, w int, sq bool) {
	m.check(name, r0, r1, w)
	need(name, "t", t, (r1-r0)*w)
	need(name, "h", h, m.Cols*w)
	if r1 == r0 {
		return
	}
	s := 0
	if sq {
		s = 1
	}
	switch {
	case !useAsm:
		m.addTransGo(h, r0, r1, t, w, sq)
	case w == 1:
		addTrans1Asm(&h[0], &t[0], r1-r0, &m.VPtr[r0], idx0(m.VIdx), val0(m.VVal), &m.UPtr[r0], idx0(m.UIdx), s)
	default:
		for c := 0; c < w; c += lanes(c, w) {
			if lanes(c, w) == 8 {
				addTrans8Asm(&h[c], w, &t[c], w, r1-r0, &m.VPtr[r0], idx0(m.VIdx), val0(m.VVal), &m.UPtr[r0], idx0(m.UIdx), s)
			} else {
				addTrans4Asm(&h[c], w, &t[c], w, r1-r0, &m.VPtr[r0], idx0(m.VIdx), val0(m.VVal), &m.UPtr[r0], idx0(m.UIdx), s)
			}
		}
	}
}

// lanes returns the lanes the kernels take at lane c of a panel of width w
// (a multiple of 4): eight while eight are left, else four.
func lanes(c, w int) int {
	if w-c >= 8 {
		return 8
	}
	return 4
}

// idx0 and val0 return the address of a run's first element, or of a
// placeholder when the run is empty (the kernels never read it then).
func idx0(s []int32) *int32 {
	if len(s) == 0 {
		return new(int32)
	}
	return &s[0]
}

func val0(s []float64) *float64 {
	if len(s) == 0 {
		return new(float64)
	}
	return &s[0]
}

// FromDense returns the rows×cols matrix whose row i is
// data[i·stride : i·stride+cols], its zeros left out and its entries
// equal to 1 in the unit runs, every run in column order; or nil when the
// matrix has more than maxNonzeros non-zero entries (its count stops
// there), so that a caller deciding on the density pays one pass for a
// dense matrix.
func FromDense(data []float64, rows, cols, stride, maxNonzeros int) *Matrix {
	if rows < 0 || cols < 0 || stride < cols || rows > 0 && len(data) < (rows-1)*stride+cols {
		panic(fmt.Sprintf("sparsemul.FromDense: %d entries for %d×%d with stride %d", len(data), rows, cols, stride))
	}
	var nz, nu int // non-zeros, of which units
	for i := range rows {
		for _, v := range data[i*stride : i*stride+cols] {
			if v != 0 {
				nz++
				if isUnit(v) {
					nu++
				}
			}
		}
		if nz > maxNonzeros {
			return nil
		}
	}
	nv := nz - nu
	s := &Matrix{
		Rows: rows, Cols: cols,
		VPtr: make([]int64, rows+1), UPtr: make([]int64, rows+1),
		VIdx: make([]int32, 0, nv), VVal: make([]float64, 0, nv),
		UIdx: make([]int32, 0, nu),
	}
	for i := range rows {
		for j, v := range data[i*stride : i*stride+cols] {
			switch {
			case isUnit(v):
				s.UIdx = append(s.UIdx, int32(j))
			case v != 0:
				s.VIdx = append(s.VIdx, int32(j))
				s.VVal = append(s.VVal, v)
			}
		}
		s.VPtr[i+1], s.UPtr[i+1] = int64(len(s.VIdx)), int64(len(s.UIdx))
	}
	return s
}
