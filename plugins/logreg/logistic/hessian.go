package logistic

// hessVecer is implemented by the designs that compute the data part of a
// Hessian-vector product in one pass over their rows (see hessVec).
type hessVecer interface {
	// hessVec does what the function hessVec does, with the same
	// arithmetic in the same order.
	hessVec(dst, tmp, v, dd []float64, vb float64) (hb float64)
}

// hessVec sets tmp = dd∘(X·v + vb) and dst = Xᵀ·tmp and returns Σ tmp
// added up in row order: the data part of the Hessian-vector product of
// the binary logistic loss (dd holds the Hessian weights of the rows, vb
// the intercept's component of the direction). It uses the design's
// MulVec and MulVecTrans, two passes over the rows.
func hessVec(x Design, dst, tmp, v, dd []float64, vb float64) (hb float64) {
	x.MulVec(tmp, v)
	hb = hessWeights(tmp, dd, vb, 0)
	x.MulVecTrans(dst, tmp)
	return hb
}

// hessWeights sets t[i] = dd[i]·(t[i] + vb) and returns hb + Σ t[i], added
// in index order.
func hessWeights(t, dd []float64, vb, hb float64) float64 {
	dd = dd[:len(t)]
	for i := range t {
		t[i] = dd[i] * (t[i] + vb)
		hb += t[i]
	}
	return hb
}

// hessVec hands the fused product to the batch driver.
func (d *deferredDesign) hessVec(dst, tmp, v, dd []float64, vb float64) float64 {
	d.req = product{op: opHessVec, dst: dst, src: v, tmp: tmp, dd: dd, vb: vb}
	if !d.yield(&d.req) {
		panic(errStopped)
	}
	return d.req.hb
}
