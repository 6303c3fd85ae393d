package linsvm

import (
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sparse"
)

// Rows is the read-only row access the solvers need. *sparse.CSR implements
// it directly and Dense adapts a *mat.Dense. Implementations must be safe
// for concurrent use (they are only read).
type Rows interface {
	// Dims returns the number of rows n and columns d.
	Dims() (n, d int)
	// Row returns row i. A nil idx means the row is dense: val holds all d
	// values. Otherwise val[k] is the value in column idx[k] (indices
	// strictly increasing, all < d) and every other column is zero. The
	// slices alias the matrix storage and are never modified.
	Row(i int) (idx []int32, val []float64)
}

var _ Rows = (*sparse.CSR)(nil)

// Dense adapts a *mat.Dense to Rows without copying.
type Dense struct {
	data       []float64
	rows, cols int
	stride     int
}

// NewDense returns a Rows view of x. x must not be modified while the view
// is in use.
func NewDense(x *mat.Dense) Dense {
	raw := x.RawMatrix()
	return Dense{data: raw.Data, rows: raw.Rows, cols: raw.Cols, stride: raw.Stride}
}

// Dims returns the number of rows and columns.
func (m Dense) Dims() (n, d int) { return m.rows, m.cols }

// Row returns (nil, row i).
func (m Dense) Row(i int) ([]int32, []float64) {
	off := i * m.stride
	return nil, m.data[off : off+m.cols : off+m.cols]
}

// rowDot returns x·w for a row given as (idx, val); w must cover every
// column of the row.
func rowDot(idx []int32, val, w []float64) float64 {
	if idx == nil {
		return floats.Dot(val, w[:len(val)])
	}
	var s float64
	for k, j := range idx {
		s += val[k] * w[j]
	}
	return s
}

// rowAxpy sets w += a·x for a row given as (idx, val).
func rowAxpy(a float64, idx []int32, val, w []float64) {
	if idx == nil {
		floats.AddScaled(w[:len(val)], a, val)
		return
	}
	for k, j := range idx {
		w[j] += a * val[k]
	}
}

// rowSqNorm returns ‖x‖² for a row.
func rowSqNorm(val []float64) float64 {
	return floats.Dot(val, val)
}

// view is the row access of the solvers' inner loops. Dense and CSR
// storage is read directly, without an interface call per row; any other
// Rows implementation goes through its Row method.
type view struct {
	kind viewKind
	cols int
	// Dense storage.
	data   []float64
	stride int
	// CSR storage.
	indptr  []int64
	indices []int32
	values  []float64
	// Any other implementation.
	rows Rows
}

type viewKind uint8

const (
	viewRows viewKind = iota
	viewDense
	viewCSR
)

// newView returns the view of x.
func newView(x Rows) view {
	switch m := x.(type) {
	case Dense:
		return view{kind: viewDense, cols: m.cols, data: m.data, stride: m.stride}
	case *sparse.CSR:
		return view{kind: viewCSR, cols: m.Cols, indptr: m.Indptr, indices: m.Indices, values: m.Values}
	}
	_, d := x.Dims()
	return view{kind: viewRows, cols: d, rows: x}
}

// row returns row i as Rows.Row does.
func (v *view) row(i int) ([]int32, []float64) {
	switch v.kind {
	case viewDense:
		off := i * v.stride
		return nil, v.data[off : off+v.cols : off+v.cols]
	case viewCSR:
		lo, hi := v.indptr[i], v.indptr[i+1]
		return v.indices[lo:hi:hi], v.values[lo:hi:hi]
	}
	return v.rows.Row(i)
}

// dot returns x_i·w, summed in the same order as rowDot. The solvers'
// inner loops call denseDot themselves for dense views (saving a call).
func (v *view) dot(i int, w []float64) float64 {
	if v.kind == viewDense {
		return denseDot(v.data, i*v.stride, v.cols, w)
	}
	idx, val := v.row(i)
	return rowDot(idx, val, w)
}

// axpy sets w += a·x_i, as rowAxpy.
func (v *view) axpy(a float64, i int, w []float64) {
	if v.kind == viewDense {
		denseAxpy(a, v.data, i*v.stride, v.cols, w)
		return
	}
	idx, val := v.row(i)
	rowAxpy(a, idx, val, w)
}

// denseDot returns x·w[:cols] with the summation order of gonum's amd64
// DotUnitary (floats.Dot): four running sums over the indices ≡ 0, 1, 2, 3
// (mod 4) of the multiple-of-four prefix, the tail added to the first, then
// (s0+s2) + (s1+s3). It gives the same bits as floats.Dot on amd64 without
// the call, and the explicit conversions forbid fused multiply-adds.
//
// The row is data[off : off+cols].
func denseDot(data []float64, off, cols int, w []float64) float64 {
	x := data[off : off+cols : off+cols]
	w = w[:len(x)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += float64(x[i] * w[i])
		s1 += float64(x[i+1] * w[i+1])
		s2 += float64(x[i+2] * w[i+2])
		s3 += float64(x[i+3] * w[i+3])
	}
	for ; i < len(x); i++ {
		s0 += float64(x[i] * w[i])
	}
	return (s0 + s2) + (s1 + s3)
}

// denseAxpy sets w[:cols] += a·x for the row x = data[off : off+cols],
// element by element as floats.AddScaled.
func denseAxpy(a float64, data []float64, off, cols int, w []float64) {
	x := data[off : off+cols : off+cols]
	w = w[:len(x)]
	for i, v := range x {
		w[i] += float64(a * v)
	}
}
