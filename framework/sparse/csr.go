// Package sparse holds the compressed sparse row (CSR) matrix that polyclass
// carries end to end for wide one-hot and hashed feature blocks.
package sparse

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// CSR is a compressed sparse row matrix. Row i holds the entries
// Indices[Indptr[i]:Indptr[i+1]] (column indices, strictly increasing)
// with values Values[Indptr[i]:Indptr[i+1]].
type CSR struct {
	Rows, Cols int
	Indptr     []int64
	Indices    []int32
	Values     []float64
}

// Dims returns the number of rows and columns.
func (m *CSR) Dims() (r, c int) { return m.Rows, m.Cols }

// NNZ returns the number of stored entries.
func (m *CSR) NNZ() int { return len(m.Values) }

// Row returns the column indices and values of row i. The slices alias the
// matrix storage and must not be modified.
func (m *CSR) Row(i int) ([]int32, []float64) {
	lo, hi := m.Indptr[i], m.Indptr[i+1]
	return m.Indices[lo:hi], m.Values[lo:hi]
}

// At returns the element at row i, column j.
func (m *CSR) At(i, j int) float64 {
	idx, val := m.Row(i)
	for k, c := range idx {
		if int(c) == j {
			return val[k]
		}
		if int(c) > j {
			break
		}
	}
	return 0
}

// Validate checks the structural invariants of m.
func (m *CSR) Validate() error {
	if m.Rows < 0 || m.Cols < 0 {
		return fmt.Errorf("sparse: negative dimensions %d×%d", m.Rows, m.Cols)
	}
	if len(m.Indptr) != m.Rows+1 {
		return fmt.Errorf("sparse: indptr has %d entries, want %d", len(m.Indptr), m.Rows+1)
	}
	if m.Indptr[0] != 0 || m.Indptr[m.Rows] != int64(len(m.Values)) || len(m.Indices) != len(m.Values) {
		return fmt.Errorf("sparse: indptr ends %d..%d do not match %d values and %d indices",
			m.Indptr[0], m.Indptr[m.Rows], len(m.Values), len(m.Indices))
	}
	for i := 0; i < m.Rows; i++ {
		if m.Indptr[i] > m.Indptr[i+1] {
			return fmt.Errorf("sparse: indptr decreases at row %d", i)
		}
		prev := int32(-1)
		for _, c := range m.Indices[m.Indptr[i]:m.Indptr[i+1]] {
			if c <= prev || int(c) >= m.Cols {
				return fmt.Errorf("sparse: row %d: column index %d out of order or range", i, c)
			}
			prev = c
		}
	}
	return nil
}

// MulVec sets dst[i] = Σ_j m[i,j]·x[j] for every row i.
func (m *CSR) MulVec(dst, x []float64) {
	for i := 0; i < m.Rows; i++ {
		idx, val := m.Row(i)
		var s float64
		for k, c := range idx {
			s += val[k] * x[c]
		}
		dst[i] = s
	}
}

// ToDense returns m as a dense matrix (a 0×0 one when m has no rows or no
// columns, which gonum cannot represent otherwise).
func (m *CSR) ToDense() *mat.Dense {
	if m.Rows == 0 || m.Cols == 0 {
		return &mat.Dense{}
	}
	d := mat.NewDense(m.Rows, m.Cols, nil)
	for i := 0; i < m.Rows; i++ {
		idx, val := m.Row(i)
		row := d.RawRowView(i)
		for k, j := range idx {
			row[j] = val[k]
		}
	}
	return d
}
