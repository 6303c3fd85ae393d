package sparsemul

import (
	"fmt"
	"math"

	"github.com/polyclass/polyclass/framework/sparse"
)

// GramSize returns the entries of the packed upper triangle of an m×m
// matrix: m(m+1)/2.
func GramSize(m int) int { return m * (m + 1) / 2 }

// GramRowStart returns the position of entry (a, 0) of the packed upper
// triangle of an m×m matrix, were it there: entry (a, b), a ≤ b < m, is at
// GramRowStart(m, a) + b.
func GramRowStart(m, a int) int { return a*(2*m-a+1)/2 - a }

// Gram adds to the packed panel h, of GramSize(m) rows and w lanes
// (m = x.Cols+1), the weighted outer products of the rows r0 ≤ r < r1 of
// x with a last column of ones x̃ᵣ = (xᵣ, 1): lane c gets
// Σᵣ t[(r−r0)·w+c]·x̃ᵣx̃ᵣᵀ, the upper triangle packed row after row. Row
// after row, for its entries a ≤ b in column order (the column of ones
// last),
//
//	h[(GramRowStart(m, a)+b)·w+c] = fma(x̃[r,b], x̃[r,a]·t[(r−r0)·w+c], h[…])
//
// the inner product rounded; fma(1, u, v) is u + v. w is 1 or a multiple
// of 4, as for the other products.
func Gram(h []float64, x *sparse.CSR, r0, r1 int, t []float64, w int) {
	m := x.Cols + 1
	if r0 < 0 || r1 < r0 || r1 > x.Rows || w < 1 || w != 1 && w%4 != 0 {
		panic(fmt.Sprintf("sparsemul.Gram: rows %d..%d of %d, width %d", r0, r1, x.Rows, w))
	}
	need("Gram", "t", t, (r1-r0)*w)
	need("Gram", "h", h, GramSize(m)*w)
	if r1 == r0 {
		return
	}
	if !useAsm {
		gramGo(h, x, r0, r1, t, w)
		return
	}
	// rs holds the byte offset of each row of the triangle in a panel of
	// w lanes, were its entry 0 there.
	var buf [65]int64
	rs := buf[:0]
	for a := range m {
		rs = append(rs, int64(GramRowStart(m, a)*w*8))
	}
	last := int64((m - 1) * w * 8)
	bias := rs[m-1] + last
	ptr := &x.Indptr[r0]
	switch {
	case w == 1:
		gram1Asm(&h[0], 1, &t[0], 1, r1-r0, ptr, idx0(x.Indices), val0(x.Values), &rs[0], last, bias)
	default:
		for c := 0; c < w; c += lanes(c, w) {
			if lanes(c, w) == 8 {
				gram8Asm(&h[c], w, &t[c], w, r1-r0, ptr, idx0(x.Indices), val0(x.Values), &rs[0], last, bias)
			} else {
				gram4Asm(&h[c], w, &t[c], w, r1-r0, ptr, idx0(x.Indices), val0(x.Values), &rs[0], last, bias)
			}
		}
	}
}

// gramGo is Gram in Go.
func gramGo(h []float64, x *sparse.CSR, r0, r1 int, t []float64, w int) {
	m := x.Cols + 1
	s := make([]float64, w)
	bias := GramRowStart(m, m-1) + m - 1
	for r := r0; r < r1; r++ {
		idx, val := x.Row(r)
		tr := t[(r-r0)*w : (r-r0)*w+w]
		for a, ca := range idx {
			xa := val[a]
			for c, tv := range tr {
				s[c] = xa * tv
			}
			row := h[GramRowStart(m, int(ca))*w:]
			for k, cb := range idx[a:] {
				xb := val[a+k]
				hb := row[int(cb)*w : int(cb)*w+w]
				for c, sv := range s {
					hb[c] = math.FMA(xb, sv, hb[c])
				}
			}
			hb := row[(m-1)*w : m*w]
			for c, sv := range s {
				hb[c] += sv
			}
		}
		hb := h[bias*w : bias*w+w]
		for c, tv := range tr {
			hb[c] += tv
		}
	}
}
