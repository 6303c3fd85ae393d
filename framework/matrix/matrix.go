package matrix

import (
	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sparse"
)

// Matrix is a design matrix: dense, or sparse in CSR form. Exactly one of
// the fields is set.
type Matrix struct {
	Dense *mat.Dense
	CSR   *sparse.CSR
}

// Dims returns the number of rows and columns of m.
func (m Matrix) Dims() (r, c int) {
	if m.CSR != nil {
		return m.CSR.Dims()
	}
	if m.Dense == nil {
		return 0, 0
	}
	return m.Dense.Dims()
}

// AsDense returns m in dense form: m itself when it is dense, else its CSR
// matrix densified.
func (m Matrix) AsDense() Matrix {
	if m.CSR == nil {
		return m
	}
	return Matrix{Dense: m.CSR.ToDense()}
}

// DenseBytes is the memory a dense rows × cols matrix of float64 takes.
func DenseBytes(rows, cols int) int64 { return 8 * int64(rows) * int64(cols) }
