package blockmul

import "math"

// Gram adds to the h panel, of (d+1)(d+2)/2 rows and w lanes, the weighted
// outer products of the rows of x with a last column of ones,
// x̃ᵣ = (x[r,0], …, x[r,d−1], 1): lane c gets Σᵣ t[r·w+c]·x̃ᵣx̃ᵣᵀ, the upper
// triangle packed row after row ((0,0), (0,1), …, (0,d), (1,1), …, (d,d)).
// Row after row, for every entry (a, b), a ≤ b,
//
//	h[(a,b)·w+c] = fma(x̃[r,b], x̃[r,a]·t[r·w+c], h[(a,b)·w+c])
//
// the inner product rounded (fma(1, u, v) is u + v): the arithmetic of
// package sparsemul's Gram on the row's non-zero entries. On amd64 with
// AVX2 and FMA the rows run four at a time in assembly, the rest in Go.
func Gram(h, x []float64, stride, rows, d int, t []float64, w int) {
	check("Gram", x, stride, rows, d, w)
	need("Gram", "t", t, rows*w)
	need("Gram", "h", h, (d+1)*(d+2)/2*w)
	if rows == 0 || w == 0 {
		return
	}
	r4 := 0
	if useAsm && d > 0 {
		r4 = rows &^ 3
	}
	if r4 > 0 {
		if w == 1 {
			gram1Asm(&h[0], &x[0], stride, r4, d, &t[0])
		} else {
			gramAsm(&h[0], &x[0], stride, r4, d, &t[0], w)
		}
	}
	if rows > r4 {
		gramGo(h, x[r4*stride:], stride, rows-r4, d, t[r4*w:], w)
	}
}

// gramGo is Gram in Go.
func gramGo(h, x []float64, stride, rows, d int, t []float64, w int) {
	var buf [64]float64
	s := buf[:0]
	if w > len(buf) {
		s = make([]float64, 0, w)
	}
	s = s[:w]
	for r := range rows {
		xr := x[r*stride : r*stride+d]
		tr := t[r*w : r*w+w]
		p := 0 // the entry in hand, (a, b)
		for a, xa := range xr {
			for c, tv := range tr {
				s[c] = xa * tv
			}
			for _, xb := range xr[a:] {
				hp := h[p*w : p*w+w]
				for c, sv := range s {
					hp[c] = math.FMA(xb, sv, hp[c])
				}
				p++
			}
			hp := h[p*w : p*w+w] // (a, d), the column of ones
			for c, sv := range s {
				hp[c] += sv
			}
			p++
		}
		hp := h[p*w : p*w+w] // (d, d)
		for c, tv := range tr {
			hp[c] += tv
		}
	}
}
