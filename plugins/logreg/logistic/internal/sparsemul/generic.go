package sparsemul

import "math"

// dot returns row r of m times lane c of the panel v of width w, in the
// order of Mul.
func (m *Matrix) dot(r int, v []float64, c, w int) float64 {
	vi, vv := m.VIdx[m.VPtr[r]:m.VPtr[r+1]], m.VVal[m.VPtr[r]:m.VPtr[r+1]]
	ui := m.UIdx[m.UPtr[r]:m.UPtr[r+1]]
	nv4, nu4 := len(vi)&^3, len(ui)&^3
	var s [4]float64
	for k := 0; k < nv4; k += 4 {
		s[0] = math.FMA(vv[k], v[int(vi[k])*w+c], s[0])
		s[1] = math.FMA(vv[k+1], v[int(vi[k+1])*w+c], s[1])
		s[2] = math.FMA(vv[k+2], v[int(vi[k+2])*w+c], s[2])
		s[3] = math.FMA(vv[k+3], v[int(vi[k+3])*w+c], s[3])
	}
	for j := 0; j < nu4; j += 4 {
		s[0] += v[int(ui[j])*w+c]
		s[1] += v[int(ui[j+1])*w+c]
		s[2] += v[int(ui[j+2])*w+c]
		s[3] += v[int(ui[j+3])*w+c]
	}
	t := (s[0] + s[2]) + (s[1] + s[3])
	for k := nv4; k < len(vi); k++ {
		t = math.FMA(vv[k], v[int(vi[k])*w+c], t)
	}
	for j := nu4; j < len(ui); j++ {
		t += v[int(ui[j])*w+c]
	}
	return t
}

// mulGo is Mul in Go.
func (m *Matrix) mulGo(t []float64, r0, r1 int, v []float64, w int) {
	for r := r0; r < r1; r++ {
		tr := t[(r-r0)*w : (r-r0)*w+w]
		for c := range tr {
			tr[c] = m.dot(r, v, c, w)
		}
	}
}

// addTransGo is AddTrans (AddTransSq when sq) in Go.
func (m *Matrix) addTransGo(h []float64, r0, r1 int, t []float64, w int, sq bool) {
	for r := r0; r < r1; r++ {
		tr := t[(r-r0)*w : (r-r0)*w+w]
		vi, vv := m.VIdx[m.VPtr[r]:m.VPtr[r+1]], m.VVal[m.VPtr[r]:m.VPtr[r+1]]
		for k, j := range vi {
			x := vv[k]
			if sq {
				x = float64(x * x)
			}
			hj := h[int(j)*w : int(j)*w+w]
			for c, tv := range tr {
				hj[c] = math.FMA(x, tv, hj[c])
			}
		}
		for _, j := range m.UIdx[m.UPtr[r]:m.UPtr[r+1]] {
			hj := h[int(j)*w : int(j)*w+w]
			for c, tv := range tr {
				hj[c] += tv
			}
		}
	}
}
