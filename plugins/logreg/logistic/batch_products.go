package logistic

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// blockBytes is the size of the block of dense rows one pass of
// runProducts keeps in cache (the L1 data cache of current x86 cores).
const blockBytes = 32 << 10

// csrBlockRows is the number of CSR rows per block of runProducts.
const csrBlockRows = 256

// productRunner returns the function that computes a round of products of
// a batch with x: in one blocked pass for the dense and CSR designs of this
// package, one product after the other for any other design.
func productRunner(x Design) func([]*product) {
	switch x := x.(type) {
	case *DenseDesign:
		return x.runProducts
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

// denseBlockRows is the number of rows of a block of a d-column dense
// design: blockBytes of data, a multiple of 4 rows (at least 4) so that
// GemvN, which works through the rows in groups of 4, 2 and 1, treats
// every row of a block exactly as in a product with the whole matrix.
func denseBlockRows(d int) int {
	return max(4, blockBytes/(8*max(d, 1))/4*4)
}

// runProducts computes every product of reqs with m, block of rows by
// block of rows; each result equals, bit for bit, that of the method
// (MulVec, MulVecTrans, MulVecTransSq) the request stands for.
//
// X·v on a block is the block's rows of X·v (GemvN works row by row).
// A Hessian product (opHessVec) does X·v, the weights and Xᵀ·tmp on each
// block in turn, its sum hb carried from block to block in row order.
// Xᵀ·v and (X∘X)ᵀ·v add up the rows in order, in GemvT as in the loop of
// MulVecTransSq, so adding block after block (Gemv's beta = 1) repeats the
// additions of one product with the whole matrix.
func (m *DenseDesign) runProducts(reqs []*product) {
	n, d := m.Dims()
	clearTransposed(reqs)
	bs := denseBlockRows(d)
	for i0 := 0; i0 < n; i0 += bs {
		i1 := min(i0+bs, n)
		blk := blas64.General{Rows: i1 - i0, Cols: d, Stride: m.raw.Stride, Data: m.raw.Data[i0*m.raw.Stride:]}
		for _, r := range reqs {
			switch r.op {
			case opMulVec:
				blas64.Gemv(blas.NoTrans, 1, blk, vec(r.src), 0, vec(r.dst[i0:i1]))
			case opMulVecTrans:
				blas64.Gemv(blas.Trans, 1, blk, vec(r.src[i0:i1]), 1, vec(r.dst))
			case opMulVecTransSq:
				addTransSq(r.dst, blk, r.src[i0:i1])
			case opHessVec:
				t := r.tmp[i0:i1]
				blas64.Gemv(blas.NoTrans, 1, blk, vec(r.src), 0, vec(t))
				r.hb = hessWeights(t, r.dd[i0:i1], r.vb, r.hb)
				blas64.Gemv(blas.Trans, 1, blk, vec(t), 1, vec(r.dst))
			}
		}
	}
}

// addTransSq adds (B∘B)ᵀ·v to dst for a block B, with the arithmetic of
// DenseDesign.MulVecTransSq.
func addTransSq(dst []float64, b blas64.General, v []float64) {
	for i, vi := range v {
		if vi == 0 {
			continue
		}
		off := i * b.Stride
		for j, x := range b.Data[off : off+b.Cols] {
			dst[j] += vi * x * x
		}
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
