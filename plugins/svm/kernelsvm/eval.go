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

// denseColumn is column for dense rows: each dot product summed in column
// order, as dotRows.
func (e *evaluator) denseColumn(dst, xi []float64, i int, js []int) {
	d, stride, data := e.x.d, e.x.stride, e.x.dense
	for k, j := range js {
		xj := data[j*stride : j*stride+d]
		var s float64
		for c, v := range xi {
			s += v * xj[c]
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
