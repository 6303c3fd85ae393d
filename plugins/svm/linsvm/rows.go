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
