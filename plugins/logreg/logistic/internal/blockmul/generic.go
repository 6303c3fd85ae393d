package blockmul

import "math"

// dot returns Σⱼ x[j]·v[j·w] in the order of Mul: four fma chains over the
// columns j ≡ 0, 1, 2, 3 (mod 4) of the whole 4-column chunks, combined as
// (s₀ + s₂) + (s₁ + s₃), then one fma per remaining column.
func dot(x, v []float64, w int) float64 {
	d4 := len(x) &^ 3
	var s0, s1, s2, s3 float64
	for j := 0; j < d4; j += 4 {
		s0 = math.FMA(x[j], v[j*w], s0)
		s1 = math.FMA(x[j+1], v[(j+1)*w], s1)
		s2 = math.FMA(x[j+2], v[(j+2)*w], s2)
		s3 = math.FMA(x[j+3], v[(j+3)*w], s3)
	}
	t := (s0 + s2) + (s1 + s3)
	for j := d4; j < len(x); j++ {
		t = math.FMA(x[j], v[j*w], t)
	}
	return t
}

// mulGo is Mul in Go.
func mulGo(t, x []float64, stride, rows, d int, v []float64, w int) {
	for r := range rows {
		xr := x[r*stride : r*stride+d]
		tr := t[r*w : r*w+w]
		for c := range tr {
			tr[c] = dot(xr, v[c:], w)
		}
	}
}

// scaleGo sets t[r·w+c] = (t[r·w+c] + vb[c])·dd[r·w+c] and adds it to
// hb[c], row after row. The conversion keeps the compiler from fusing the
// product into the sum.
func scaleGo(t []float64, rows, w int, dd, vb, hb []float64) {
	for r := range rows {
		tr, dr := t[r*w:r*w+w], dd[r*w:r*w+w]
		for c := range tr {
			u := float64((tr[c] + vb[c]) * dr[c])
			tr[c] = u
			hb[c] += u
		}
	}
}

// addTransGo is AddTrans (AddTransSq when sq) in Go.
func addTransGo(h, x []float64, stride, rows, d int, t []float64, w int, sq bool) {
	for r := range rows {
		xr := x[r*stride : r*stride+d]
		tr := t[r*w : r*w+w]
		for j, xv := range xr {
			if sq {
				xv = float64(xv * xv)
			}
			hj := h[j*w : j*w+w]
			for c, tv := range tr {
				hj[c] = math.FMA(xv, tv, hj[c])
			}
		}
	}
}
