package kernelsvm

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sparse"
)

// Data is a design matrix as the kernels read it: dense, row-major, or
// sparse rows (CSR). It only reads the matrix it wraps, which must not
// change while the Data is in use; concurrent reads are safe.
type Data struct {
	n, d   int
	dense  []float64 // row i at dense[i*stride:][:d]; nil when sparse
	stride int
	csr    *sparse.CSR
}

// NewDense wraps a dense matrix without copying it.
func NewDense(x *mat.Dense) *Data {
	raw := x.RawMatrix()
	return &Data{n: raw.Rows, d: raw.Cols, dense: raw.Data, stride: raw.Stride}
}

// NewSparse wraps a CSR matrix without copying it.
func NewSparse(x *sparse.CSR) *Data {
	return &Data{n: x.Rows, d: x.Cols, csr: x}
}

// Dims returns the number of rows and columns.
func (x *Data) Dims() (n, d int) { return x.n, x.d }

// Sparse reports whether the rows are held in CSR form.
func (x *Data) Sparse() bool { return x.csr != nil }

// row returns row i: (nil, all d values) when dense, else the indices
// (strictly increasing) and values of its stored entries.
func (x *Data) row(i int) ([]int32, []float64) {
	if x.csr != nil {
		return x.csr.Row(i)
	}
	off := i * x.stride
	return nil, x.dense[off : off+x.d : off+x.d]
}

// rowsOf copies the given rows of x into a new Data of the same form.
func (x *Data) rowsOf(rows []int) *Data {
	if x.csr == nil {
		out := make([]float64, len(rows)*x.d)
		for k, i := range rows {
			_, v := x.row(i)
			copy(out[k*x.d:], v)
		}
		return &Data{n: len(rows), d: x.d, dense: out, stride: x.d}
	}
	c := &sparse.CSR{Rows: len(rows), Cols: x.d, Indptr: make([]int64, len(rows)+1)}
	for k, i := range rows {
		idx, val := x.row(i)
		c.Indices = append(c.Indices, idx...)
		c.Values = append(c.Values, val...)
		c.Indptr[k+1] = int64(len(c.Values))
	}
	return &Data{n: len(rows), d: x.d, csr: c}
}

// denseDensity is the share of stored entries from which a sparse design
// is densified for the kernels (scikit-learn's sparse_threshold, which
// also decides when the host sends a design as CSR): the dense loops are
// faster than the sparse merges, and add the same products in the same
// order (a zero adds an exact zero), so the kernel values do not change.
const denseDensity = 0.3

// forKernels returns x, densified when it is sparse with at least
// denseDensity of its entries stored.
func (x *Data) forKernels() *Data {
	if x.csr == nil || x.n == 0 || x.d == 0 || float64(len(x.csr.Values)) < denseDensity*float64(x.n)*float64(x.d) {
		return x
	}
	out := make([]float64, x.n*x.d)
	for i := range x.n {
		idx, val := x.csr.Row(i)
		for k, j := range idx {
			out[i*x.d+int(j)] = val[k]
		}
	}
	return &Data{n: x.n, d: x.d, dense: out, stride: x.d}
}

// checkCols reports whether z has as many columns as x.
func checkCols(x, z *Data) error {
	if x.d != z.d {
		return fmt.Errorf("kernelsvm: data has %d columns, the model %d", z.d, x.d)
	}
	return nil
}

// dotRows returns the dot product of row a = (ia, va) and row b = (ib, vb),
// each dense (nil indices) or sparse, summing the products of the entries
// both store in increasing column order, one after the other, as LIBSVM's
// Kernel::dot: a dense zero adds an exact zero, so a dense row gives the
// sum of its sparse form bit for bit.
func dotRows(ia []int32, va []float64, ib []int32, vb []float64) float64 {
	var s float64
	switch {
	case ia == nil && ib == nil:
		vb = vb[:len(va)]
		for k, v := range va {
			s += v * vb[k]
		}
	case ia == nil:
		for k, j := range ib {
			s += va[j] * vb[k]
		}
	case ib == nil:
		for k, j := range ia {
			s += va[k] * vb[j]
		}
	default:
		p, q := 0, 0
		for p < len(ia) && q < len(ib) {
			switch {
			case ia[p] == ib[q]:
				s += va[p] * vb[q]
				p++
				q++
			case ia[p] > ib[q]:
				q++
			default:
				p++
			}
		}
	}
	return s
}

// distRows returns ‖a − b‖² as LIBSVM's Kernel::k_function sums it for
// the rbf kernel at prediction: (a_j − b_j)² over the columns either row
// stores, in increasing column order, a missing entry counting as zero.
func distRows(ia []int32, va []float64, ib []int32, vb []float64) float64 {
	var s float64
	switch {
	case ia == nil && ib == nil:
		vb = vb[:len(va)]
		for k, v := range va {
			d := v - vb[k]
			s += d * d
		}
	case ia == nil:
		q := 0
		for j, v := range va {
			if q < len(ib) && int(ib[q]) == j {
				v -= vb[q]
				q++
			}
			s += v * v
		}
	case ib == nil:
		p := 0
		for j, v := range vb {
			if p < len(ia) && int(ia[p]) == j {
				v = va[p] - v
				p++
			}
			s += v * v
		}
	default:
		p, q := 0, 0
		for p < len(ia) && q < len(ib) {
			switch {
			case ia[p] == ib[q]:
				d := va[p] - vb[q]
				s += d * d
				p++
				q++
			case ia[p] > ib[q]:
				s += vb[q] * vb[q]
				q++
			default:
				s += va[p] * va[p]
				p++
			}
		}
		for ; p < len(ia); p++ {
			s += va[p] * va[p]
		}
		for ; q < len(ib); q++ {
			s += vb[q] * vb[q]
		}
	}
	return s
}
