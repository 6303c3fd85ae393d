package logistic

import "math"

// The explicit Hessian.
//
// With the intercept as a last column of ones, x̃ᵢ = (xᵢ, 1), the data part
// of the binary problem's Hessian is the (d+1)×(d+1) matrix
//
//	H = Σᵢ ddᵢ·x̃ᵢx̃ᵢᵀ,  ddᵢ = C·sᵢ·σᵢ(1−σᵢ),
//
// and ∇²f = H + diag(1, …, 1, 0). The trust-region Newton solver needs
// ∇²f·v for each of its conjugate-gradient steps, and its diagonal for the
// preconditioner. Computing each product from X costs two passes over the
// rows (2m multiply-adds a row, m the row's non-zeros plus the
// intercept); forming H once per accepted step costs one pass of
// m(m+1)/2, after which every product and the diagonal come from H at
// (d+1)² operations, whatever n. When rows have few non-zeros the one
// pass is cheaper than the products of a Newton step (6.7 on letter at
// tol 10⁻⁴, 12 to 18 on one-hot covertype), and the solver forms H
// instead (see ExplicitHessian), as scikit-learn's newton-cholesky solver
// does for n ≫ d. The iterates are those of the products up to rounding:
// the same trust region and the same CG steps on the same matrix.
//
// H is kept as its packed upper triangle, row after row: entry (a, b),
// a ≤ b < m = d+1, at sparsemul.GramRowStart(m, a)+b. A pass (blockmul.Gram on dense
// rows, sparsemul.Gram on sparse ones, the same arithmetic) adds, row
// after row and for every lane (problem) of the batch, one fma per pair
// a ≤ b of the row's entries, h[a,b] = fma(x̃ᵦ, x̃ₐ·dd, h[a,b]), the inner
// product rounded; the order, and so the bits, depend neither on the lane
// nor on the batch.

// Bounds of the designs that get an explicit Hessian.
const (
	// maxGramCols bounds d+1: H has at most 64·65/2 = 2080 entries (16 kB
	// a problem, and as much per lane and chunk of rows while it is
	// summed).
	maxGramCols = 64
	// maxGramRowCols bounds m, the average non-zeros of a row (d for a
	// design in dense form) plus the intercept: a pass forming H costs
	// m(m+1)/2 multiply-adds a row against 2m for a Hessian product, and
	// pays when the Newton steps take more than about m/4 products.
	// Fitting the one-vs-rest problems of the shipped data sets
	// (standardised, one-hot for the categorical ones; C = 1, tol 10⁻⁴;
	// in-process, one goroutine) with and without it, as one batch and one
	// problem after the other: dense, letter (m = 17) 0.54× and 0.63× the
	// time, pendigits (17) 0.53× and 0.56×, vehicle (19) 0.49× and 0.59×,
	// segment (20) 0.54× and 0.71×, but breast cancer (31) 1.22× and 1.29×,
	// satimage (37) 1.19× and 1.16×; CSR, car (7) 0.66× and nursery (9)
	// 0.72× as one batch, covertype_50k resampled (13) 0.35× to 0.45× at
	// 25 000 rows and 0.23× at 400 000.
	maxGramRowCols = 24
)

// ExplicitHessian reports whether the newton solver forms the explicit
// Hessian of the problems on x once per Newton step, instead of a product
// with x per conjugate-gradient step: for a DenseDesign or a CSRDesign of
// at most 63 columns whose rows hold at most 23 non-zeros on average (in
// sparse form; all d in dense form). It depends on x alone, so a problem
// takes the same path alone and in any batch.
func ExplicitHessian(x Design) bool {
	n, d := x.Dims()
	if n == 0 || d+1 > maxGramCols {
		return false
	}
	var nnz int
	switch x := x.(type) {
	case *DenseDesign:
		nnz = n * d
		if s := x.sparseForm(); s != nil {
			nnz = len(s.VIdx) + len(s.UIdx)
		}
	case *CSRDesign:
		nnz = len(x.m.Values)
	default:
		return false
	}
	return float64(nnz)/float64(n)+1 <= maxGramRowCols
}

// gramer is implemented by the designs whose problems may form the
// explicit Hessian.
type gramer interface {
	// explicitHessian reports whether they do (ExplicitHessian of the
	// design).
	explicitHessian() bool
	// gram sets h to the packed upper triangle of Σᵢ dd[i]·x̃ᵢx̃ᵢᵀ.
	gram(h, dd []float64)
}

func (d *deferredDesign) explicitHessian() bool { return d.explicit }

// gram hands the product to the batch driver.
func (d *deferredDesign) gram(h, dd []float64) {
	d.req = product{op: opGram, dst: h, dd: dd}
	if !d.yield(&d.req) {
		panic(errStopped)
	}
}

// symPackedMul sets dst = H·v for the m×m symmetric matrix H given by its
// packed upper triangle h (m = len(v)), row after row of the triangle,
// each entry's two multiply-adds fused.
func symPackedMul(dst, h, v []float64) {
	m := len(v)
	clear(dst[:m])
	p := 0
	for a, va := range v {
		s := dst[a]
		s = math.FMA(h[p], va, s)
		p++
		for b := a + 1; b < m; b++ {
			s = math.FMA(h[p], v[b], s)
			dst[b] = math.FMA(h[p], va, dst[b])
			p++
		}
		dst[a] = s
	}
}
