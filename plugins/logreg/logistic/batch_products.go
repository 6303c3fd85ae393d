package logistic

import (
	"github.com/polyclass/polyclass/plugins/logreg/logistic/internal/blockmul"
)

// denseBlockRows is the number of rows a dense pass hands the kernels at
// a time: the rows×w panel of a block (targets, weights or results) stays
// in the L1 data cache.
const denseBlockRows = 64

// csrBlockRows is the number of CSR rows per block of runProducts.
const csrBlockRows = 256

// productRunner returns the function that computes a round of products of
// a batch with x: with the blockmul kernels for the dense designs of this
// package, in one blocked pass for its CSR designs, one product after the
// other with the design's own methods for any other design.
func productRunner(x Design) func([]*product) {
	switch x := x.(type) {
	case *DenseDesign:
		return (&denseRunner{m: x}).run
	case *CSRDesign:
		return x.runProducts
	}
	return func(reqs []*product) {
		for _, r := range reqs {
			runProduct(x, r)
		}
	}
}

// runProduct computes one product with the design's own method.
func runProduct(x Design, r *product) {
	switch r.op {
	case opMulVec:
		x.MulVec(r.dst, r.src)
	case opMulVecTrans:
		x.MulVecTrans(r.dst, r.src)
	case opMulVecTransSq:
		x.MulVecTransSq(r.dst, r.src)
	case opHessVec:
		r.hb = hessVec(x, r.dst, r.tmp, r.src, r.dd, r.vb)
	}
}

// clearTransposed zeroes the outputs of the transpose products, which the
// blocks of a pass add to, and the sums of the Hessian products.
func clearTransposed(reqs []*product) {
	for _, r := range reqs {
		if r.op != opMulVec {
			clear(r.dst)
		}
		r.hb = 0
	}
}

// denseRunner computes the rounds of products of a batch on a dense
// design with the blockmul kernels: the products of a kind go side by side
// in the lanes of one panel (a product alone goes in a panel of its own,
// without copies), in one pass over the rows. A problem's products have
// the arithmetic the blockmul documentation gives, in whichever lane it
// sits, so a problem has the same iterates alone and in any batch.
type denseRunner struct {
	m *DenseDesign
	// byOp holds the requests of a round by kind (index op−1).
	byOp [4][]*product
	// v and h are d×w panels, blk and t denseBlockRows×w ones; hb and vb
	// hold w lanes.
	v, h, blk, t, hb, vb []float64
	// cols holds the w columns Pack and Unpack move; zeros (read) and
	// sink (written) stand for the lanes beyond the requests.
	cols        [][]float64
	zeros, sink []float64
}

// run computes every product of reqs.
func (k *denseRunner) run(reqs []*product) {
	for i := range k.byOp {
		k.byOp[i] = k.byOp[i][:0]
	}
	for _, r := range reqs {
		k.byOp[r.op-1] = append(k.byOp[r.op-1], r)
	}
	if g := k.byOp[opMulVec-1]; len(g) > 0 {
		k.mulVec(g)
	}
	if g := k.byOp[opMulVecTrans-1]; len(g) > 0 {
		k.mulVecTrans(g, false)
	}
	if g := k.byOp[opMulVecTransSq-1]; len(g) > 0 {
		k.mulVecTrans(g, true)
	}
	if g := k.byOp[opHessVec-1]; len(g) > 0 {
		k.hessVec(g)
	}
}

// panels sizes the panels for the requests of g and returns their width.
func (k *denseRunner) panels(g []*product) int {
	_, d := k.m.Dims()
	w := blockmul.Width(len(g))
	k.v = grow(k.v, d*w)
	k.h = grow(k.h, d*w)
	k.blk = grow(k.blk, denseBlockRows*w)
	k.t = grow(k.t, denseBlockRows*w)
	k.hb = grow(k.hb, w)
	k.vb = grow(k.vb, w)
	if cap(k.cols) < w {
		k.cols = make([][]float64, w)
	}
	k.cols = k.cols[:w]
	if n := max(d, denseBlockRows); len(k.zeros) < n {
		k.zeros, k.sink = make([]float64, n), make([]float64, n)
	}
	return w
}

// columns sets k.cols to rows i0 ≤ i < i0+rows of col(r) for the requests
// r of g, then to pad[:rows] for the lanes beyond them, and returns it.
func (k *denseRunner) columns(g []*product, col func(*product) []float64, i0, rows int, pad []float64) [][]float64 {
	for c := range k.cols {
		if c < len(g) {
			k.cols[c] = col(g[c])[i0 : i0+rows]
		} else {
			k.cols[c] = pad[:rows]
		}
	}
	return k.cols
}

// grow returns s with length n, reallocated when too short.
func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// srcPanel returns the d×w panel of the src vectors of g (length d each):
// the vector itself for one request, else k.v with vector c in lane c and
// the lanes beyond the requests zero.
func (k *denseRunner) srcPanel(g []*product, w int) []float64 {
	if w == 1 {
		return g[0].src
	}
	_, d := k.m.Dims()
	blockmul.Pack(k.v, w, k.columns(g, srcOf, 0, d, k.zeros), d)
	return k.v
}

// rowPanel returns the rows×w panel of rows i0 ≤ i < i0+rows of col(r)
// for the requests r of g: the vector's rows themselves for one request,
// else k.blk with request c in lane c and the lanes beyond the requests
// zero.
func (k *denseRunner) rowPanel(g []*product, col func(*product) []float64, i0, rows, w int) []float64 {
	if w == 1 {
		return col(g[0])[i0 : i0+rows]
	}
	blockmul.Pack(k.blk, w, k.columns(g, col, i0, rows, k.zeros), rows)
	return k.blk
}

// srcOf, dstOf and ddOf select an operand of a product.
func srcOf(r *product) []float64 { return r.src }
func dstOf(r *product) []float64 { return r.dst }
func ddOf(r *product) []float64  { return r.dd }

// hPanel returns the zeroed d×w panel the transpose products of g add to:
// the dst of a single request, else k.h.
func (k *denseRunner) hPanel(g []*product, w int) []float64 {
	h := k.h
	if w == 1 {
		h = g[0].dst
	}
	clear(h)
	return h
}

// unpackH copies lane c of the d×w panel k.h into the dst of request c
// (nothing to do for a single request, whose dst is the panel).
func (k *denseRunner) unpackH(g []*product, w int) {
	if w == 1 {
		return
	}
	for c, r := range g {
		for j := range r.dst {
			r.dst[j] = k.h[j*w+c]
		}
	}
}

// block returns the rows of x from i0 (at most denseBlockRows) and their
// number.
func (k *denseRunner) block(i0 int) ([]float64, int) {
	n, _ := k.m.Dims()
	return k.m.raw.Data[i0*k.m.raw.Stride:], min(denseBlockRows, n-i0)
}

// mulVec computes dst = X·src for every request of g.
func (k *denseRunner) mulVec(g []*product) {
	n, d := k.m.Dims()
	w := k.panels(g)
	v := k.srcPanel(g, w)
	if w == 1 {
		blockmul.Mul(g[0].dst, k.m.raw.Data, k.m.raw.Stride, n, d, v, 1)
		return
	}
	for i0 := 0; i0 < n; i0 += denseBlockRows {
		x, rows := k.block(i0)
		blockmul.Mul(k.t, x, k.m.raw.Stride, rows, d, v, w)
		blockmul.Unpack(k.columns(g, dstOf, i0, rows, k.sink), k.t, w, rows)
	}
}

// mulVecTrans computes dst = Xᵀ·src ((X∘X)ᵀ·src when sq) for every request
// of g.
func (k *denseRunner) mulVecTrans(g []*product, sq bool) {
	n, d := k.m.Dims()
	w := k.panels(g)
	h := k.hPanel(g, w)
	for i0 := 0; i0 < n; i0 += denseBlockRows {
		x, rows := k.block(i0)
		t := k.rowPanel(g, srcOf, i0, rows, w)
		if sq {
			blockmul.AddTransSq(h, x, k.m.raw.Stride, rows, d, t, w)
		} else {
			blockmul.AddTrans(h, x, k.m.raw.Stride, rows, d, t, w)
		}
	}
	k.unpackH(g, w)
}

// hessVec computes the data part of the Hessian-vector product of every
// request of g: dst = Xᵀ·(dd∘(X·src + vb)) and hb, the sum of
// dd∘(X·src + vb) in row order.
func (k *denseRunner) hessVec(g []*product) {
	n, d := k.m.Dims()
	w := k.panels(g)
	v := k.srcPanel(g, w)
	h := k.hPanel(g, w)
	clear(k.hb)
	clear(k.vb)
	for c, r := range g {
		k.vb[c] = r.vb
	}
	for i0 := 0; i0 < n; i0 += denseBlockRows {
		x, rows := k.block(i0)
		blockmul.Hess(h, k.hb, k.t, x, k.m.raw.Stride, rows, d, v, w, k.rowPanel(g, ddOf, i0, rows, w), k.vb)
	}
	k.unpackH(g, w)
	for c, r := range g {
		r.hb = k.hb[c]
	}
}

// runProducts computes every product of reqs with c, block of rows by
// block of rows (each row's indices and values read once for all
// problems); each result equals, bit for bit, that of the method the
// request stands for: a row's dot product in index order, the transpose
// products adding up the rows in order.
func (c *CSRDesign) runProducts(reqs []*product) {
	clearTransposed(reqs)
	for i0 := 0; i0 < c.m.Rows; i0 += csrBlockRows {
		i1 := min(i0+csrBlockRows, c.m.Rows)
		for _, r := range reqs {
			switch r.op {
			case opMulVec:
				c.mulVecRows(r.dst, r.src, i0, i1)
			case opMulVecTrans:
				c.addTransRows(r.dst, r.src, i0, i1, false)
			case opMulVecTransSq:
				c.addTransRows(r.dst, r.src, i0, i1, true)
			case opHessVec:
				c.mulVecRows(r.tmp, r.src, i0, i1)
				r.hb = hessWeights(r.tmp[i0:i1], r.dd[i0:i1], r.vb, r.hb)
				c.addTransRows(r.dst, r.tmp, i0, i1, false)
			}
		}
	}
}

// mulVecRows sets dst[i] = x_i·w for the rows i0 ≤ i < i1, as
// sparse.CSR.MulVec does: each row's products added in index order. It
// works on two rows at a time, whose sums are independent chains of
// additions the processor overlaps; each chain is that of the row alone.
func (c *CSRDesign) mulVecRows(dst, w []float64, i0, i1 int) {
	i := i0
	for ; i+1 < i1; i += 2 {
		ia, va := c.m.Row(i)
		ib, vb := c.m.Row(i + 1)
		n := min(len(ia), len(ib))
		va, vb = va[:len(ia)], vb[:len(ib)]
		var sa, sb float64
		for k := range n {
			sa += va[k] * w[ia[k]]
			sb += vb[k] * w[ib[k]]
		}
		for k := n; k < len(ia); k++ {
			sa += va[k] * w[ia[k]]
		}
		for k := n; k < len(ib); k++ {
			sb += vb[k] * w[ib[k]]
		}
		dst[i], dst[i+1] = sa, sb
	}
	if i < i1 {
		idx, val := c.m.Row(i)
		var s float64
		for k, j := range idx {
			s += val[k] * w[j]
		}
		dst[i] = s
	}
}

// addTransRows adds vᵢ·x_i (square: vᵢ·x_i∘x_i) to dst for the rows
// i0 ≤ i < i1, as MulVecTrans (MulVecTransSq) does.
func (c *CSRDesign) addTransRows(dst, v []float64, i0, i1 int, square bool) {
	for i := i0; i < i1; i++ {
		vi := v[i]
		if vi == 0 {
			continue
		}
		idx, val := c.m.Row(i)
		if square {
			for k, j := range idx {
				dst[j] += vi * val[k] * val[k]
			}
			continue
		}
		for k, j := range idx {
			dst[j] += vi * val[k]
		}
	}
}
