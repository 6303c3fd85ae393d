package logistic

import (
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sparse"
	"github.com/polyclass/polyclass/plugins/logreg/logistic/internal/sparsemul"
)

// Design is a read-only n×d design matrix (one training row per matrix row)
// as seen by the solvers. DenseDesign and CSRDesign wrap the two storage
// formats polyclass uses; other implementations must make every method safe
// for concurrent use (they are only read).
type Design interface {
	// Dims returns the number of rows n and columns d.
	Dims() (n, d int)
	// MulVec sets dst = X·x (len(dst) = n, len(x) = d).
	MulVec(dst, x []float64)
	// MulVecTrans sets dst = Xᵀ·v (len(dst) = d, len(v) = n).
	MulVecTrans(dst, v []float64)
	// MulVecTransSq sets dst = (X∘X)ᵀ·v, the transpose product with every
	// entry squared; it gives the diagonal of XᵀDX for preconditioning.
	MulVecTransSq(dst, v []float64)
	// RowDot returns x_i·w for row i.
	RowDot(i int, w []float64) float64
	// AddRow sets dst += alpha·x_i for row i.
	AddRow(dst []float64, i int, alpha float64)
}

// matMuler is implemented by designs that can multiply by a whole
// coefficient matrix at once (dense BLAS level 3); the softmax solver uses it
// when available and falls back to MulVec / MulVecTrans per class otherwise.
type matMuler interface {
	// mulXWT sets dst (n×K) = X · Wᵀ for W K×d.
	mulXWT(dst, w blas64.General)
	// mulRTX sets dst (K×d) = Rᵀ · X for R n×K.
	mulRTX(dst, r blas64.General)
}

// DenseDesign adapts a *mat.Dense to Design using BLAS calls on its raw
// storage, so none of its methods allocate.
type DenseDesign struct {
	raw blas64.General
	// sparse is the design in sparse form when at most maxDensity of its
	// entries are non-zero (else nil), for the batch's products, made
	// once when first needed.
	sparse     *sparsemul.Matrix
	sparseOnce sync.Once
	// csr is the design in CSR form, for the explicit Hessians of a
	// design in sparse form (see gram.go), made once when first needed.
	csr     *sparse.CSR
	csrOnce sync.Once
}

// csrForm returns the design in CSR form, its zeros left out, for a
// design in sparse form; it is made on the first call.
func (m *DenseDesign) csrForm() *sparse.CSR {
	m.csrOnce.Do(func() {
		n, d := m.Dims()
		s := m.sparseForm()
		nnz := len(s.VIdx) + len(s.UIdx)
		c := &sparse.CSR{Rows: n, Cols: d, Indptr: make([]int64, n+1),
			Indices: make([]int32, 0, nnz), Values: make([]float64, 0, nnz)}
		for i := range n {
			for j, v := range m.row(i) {
				if v != 0 {
					c.Indices = append(c.Indices, int32(j))
					c.Values = append(c.Values, v)
				}
			}
			c.Indptr[i+1] = int64(len(c.Values))
		}
		m.csr = c
	})
	return m.csr
}

// maxDensity is the largest fraction of non-zero entries of a dense design
// whose batch products run in sparse form: below it the sparse kernels do
// less work and read less memory (a covertype-like design, 12 non-zeros in
// 54 columns, fits 7 problems in 195 instead of 354 ns per row and problem
// at 320 000 rows; a single problem at 20 000 rows takes the same time).
const maxDensity = 0.25

// sparseForm returns the design in sparse form when it is sparse enough
// (see maxDensity), else nil; it is made on the first call.
func (m *DenseDesign) sparseForm() *sparsemul.Matrix {
	m.sparseOnce.Do(func() {
		n, d := m.Dims()
		m.sparse = sparsemul.FromDense(m.raw.Data, n, d, m.raw.Stride, int(maxDensity*float64(n)*float64(d)))
	})
	return m.sparse
}

// NewDense returns a Design view of x. x must not be modified while the
// view is in use.
func NewDense(x *mat.Dense) *DenseDesign {
	return &DenseDesign{raw: x.RawMatrix()}
}

// Dims returns the number of rows and columns.
func (m *DenseDesign) Dims() (n, d int) { return m.raw.Rows, m.raw.Cols }

// MulVec sets dst = X·x.
func (m *DenseDesign) MulVec(dst, x []float64) {
	blas64.Gemv(blas.NoTrans, 1, m.raw, vec(x), 0, vec(dst))
}

// MulVecTrans sets dst = Xᵀ·v.
func (m *DenseDesign) MulVecTrans(dst, v []float64) {
	blas64.Gemv(blas.Trans, 1, m.raw, vec(v), 0, vec(dst))
}

// MulVecTransSq sets dst = (X∘X)ᵀ·v.
func (m *DenseDesign) MulVecTransSq(dst, v []float64) {
	clear(dst)
	for i, vi := range v {
		if vi == 0 {
			continue
		}
		row := m.row(i)
		for j, x := range row {
			dst[j] += vi * x * x
		}
	}
}

// RowDot returns x_i·w.
func (m *DenseDesign) RowDot(i int, w []float64) float64 {
	return blas64.Dot(vec(m.row(i)), vec(w))
}

// AddRow sets dst += alpha·x_i.
func (m *DenseDesign) AddRow(dst []float64, i int, alpha float64) {
	blas64.Axpy(alpha, vec(m.row(i)), vec(dst))
}

func (m *DenseDesign) row(i int) []float64 {
	off := i * m.raw.Stride
	return m.raw.Data[off : off+m.raw.Cols]
}

func (m *DenseDesign) mulXWT(dst, w blas64.General) {
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, m.raw, w, 0, dst)
}

func (m *DenseDesign) mulRTX(dst, r blas64.General) {
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, r, m.raw, 0, dst)
}

func vec(x []float64) blas64.Vector {
	return blas64.Vector{N: len(x), Inc: 1, Data: x}
}

// CSRDesign adapts a *sparse.CSR to Design. Products cost O(nnz) and do not
// allocate.
type CSRDesign struct {
	m *sparse.CSR
	// units is m with its unit entries apart, for the batch's products,
	// made once when first needed.
	units     *sparsemul.Matrix
	unitsOnce sync.Once
}

// unitMatrix returns the design with its unit entries apart
// (sparsemul.FromCSR), made on the first call.
func (c *CSRDesign) unitMatrix() *sparsemul.Matrix {
	c.unitsOnce.Do(func() { c.units = sparsemul.FromCSR(c.m) })
	return c.units
}

// NewCSR returns a Design view of x. x must be valid (see sparse.CSR.Validate)
// and must not be modified while the view is in use.
func NewCSR(x *sparse.CSR) *CSRDesign { return &CSRDesign{m: x} }

// Dims returns the number of rows and columns.
func (c *CSRDesign) Dims() (n, d int) { return c.m.Rows, c.m.Cols }

// MulVec sets dst = X·x.
func (c *CSRDesign) MulVec(dst, x []float64) { c.m.MulVec(dst, x) }

// MulVecTrans sets dst = Xᵀ·v.
func (c *CSRDesign) MulVecTrans(dst, v []float64) {
	clear(dst)
	for i, vi := range v {
		if vi == 0 {
			continue
		}
		idx, val := c.m.Row(i)
		for k, j := range idx {
			dst[j] += vi * val[k]
		}
	}
}

// MulVecTransSq sets dst = (X∘X)ᵀ·v.
func (c *CSRDesign) MulVecTransSq(dst, v []float64) {
	clear(dst)
	for i, vi := range v {
		if vi == 0 {
			continue
		}
		idx, val := c.m.Row(i)
		for k, j := range idx {
			dst[j] += vi * val[k] * val[k]
		}
	}
}

// RowDot returns x_i·w.
func (c *CSRDesign) RowDot(i int, w []float64) float64 {
	idx, val := c.m.Row(i)
	var s float64
	for k, j := range idx {
		s += val[k] * w[j]
	}
	return s
}

// AddRow sets dst += alpha·x_i.
func (c *CSRDesign) AddRow(dst []float64, i int, alpha float64) {
	idx, val := c.m.Row(i)
	for k, j := range idx {
		dst[j] += alpha * val[k]
	}
}
