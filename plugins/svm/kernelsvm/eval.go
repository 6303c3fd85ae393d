package kernelsvm

// evaluator computes training kernel values between rows of one Data as
// LIBSVM's Kernel class does: through the rows' dot product and, for the
// rbf kernel, their squared norms computed once.
type evaluator struct {
	kern Kernel
	x    *Data
	sq   []float64 // ‖x_i‖², rbf only
}

func newEvaluator(k Kernel, x *Data) *evaluator {
	e := &evaluator{kern: k, x: x}
	if k.Type == RBF {
		e.sq = make([]float64, x.n)
		for i := range e.sq {
			ia, va := x.row(i)
			e.sq[i] = dotRows(ia, va, ia, va)
		}
	}
	return e
}

// at returns K(x_i, x_j).
func (e *evaluator) at(i, j int) float64 {
	ia, va := e.x.row(i)
	ib, vb := e.x.row(j)
	d := dotRows(ia, va, ib, vb)
	if e.sq != nil {
		return e.kern.fromDot(d, e.sq[i], e.sq[j])
	}
	return e.kern.fromDot(d, 0, 0)
}

// column sets dst[k] = K(x_i, x_js[k]).
func (e *evaluator) column(dst []float64, i int, js []int) {
	ia, va := e.x.row(i)
	if ia == nil {
		e.denseColumn(dst, va, i, js)
		return
	}
	for k, j := range js {
		ib, vb := e.x.row(j)
		d := dotRows(ia, va, ib, vb)
		if e.sq != nil {
			dst[k] = e.kern.fromDot(d, e.sq[i], e.sq[j])
		} else {
			dst[k] = e.kern.fromDot(d, 0, 0)
		}
	}
}

// column32 sets dst[k] = float32(K(x_i, x_js[k])), with buf as scratch
// of len(js).
func (e *evaluator) column32(dst []float32, buf []float64, i int, js []int) {
	e.column(buf, i, js)
	for k, v := range buf {
		dst[k] = float32(v)
	}
}

// denseColumn is column for dense rows. Each dot product is summed in
// column order, as dotRows; four rows go at once, so that their sums,
// each a chain of dependent additions, overlap.
func (e *evaluator) denseColumn(dst, xi []float64, i int, js []int) {
	d, stride, data := e.x.d, e.x.stride, e.x.dense
	k := 0
	for ; k+4 <= len(js); k += 4 {
		y0 := data[js[k]*stride:][:d]
		y1 := data[js[k+1]*stride:][:d]
		y2 := data[js[k+2]*stride:][:d]
		y3 := data[js[k+3]*stride:][:d]
		var s0, s1, s2, s3 float64
		for c, v := range xi {
			s0 += v * y0[c]
			s1 += v * y1[c]
			s2 += v * y2[c]
			s3 += v * y3[c]
		}
		dst[k], dst[k+1], dst[k+2], dst[k+3] = s0, s1, s2, s3
	}
	for ; k < len(js); k++ {
		y := data[js[k]*stride:][:d]
		var s float64
		for c, v := range xi {
			s += v * y[c]
		}
		dst[k] = s
	}
	switch e.kern.Type {
	case RBF:
		sqi, sq := e.sq[i], e.sq
		g := -e.kern.Gamma
		for k, j := range js {
			dst[k] = expNeg(g, sqi+sq[j]-2*dst[k])
		}
	case Poly, Sigmoid:
		for k := range js {
			dst[k] = e.kern.fromDot(dst[k], 0, 0)
		}
	}
}
