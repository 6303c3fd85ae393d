// Package encode turns a data table into a numeric design matrix, one
// pipeline step at a time. Every step is fitted on the training rows of a
// fold only and then applied to all rows, so nothing about the test rows
// leaks into the encoding.
package encode

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/data"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/sparse"
)

// NumCol is a numeric feature column; NaN marks a missing value.
type NumCol struct {
	Name string
	Vals []float64
}

// CatCol is a categorical column: per-row codes into Levels, −1 = missing.
type CatCol struct {
	Name   string
	Levels []string
	Codes  []int32
}

// Frame is the working state of a pipeline: numeric and categorical
// columns over every row of a dataset, plus sparse blocks already encoded.
type Frame struct {
	Rows   int
	Num    []NumCol
	Cat    []CatCol
	Sparse []SparseBlock
}

// SparseBlock is a block of numeric features stored sparse.
type SparseBlock struct {
	// Names are the names of the block's M.Cols columns, or nil when
	// Prefix names them.
	Names []string
	// Prefix, when Names is nil, names column j Prefix[j] ("hash[17]"),
	// made when asked (Name): a block as wide as a hash encoder's 2^26
	// buckets holds no names.
	Prefix string
	M      *sparse.CSR
}

// Name returns the name of the block's column j (0 ≤ j < M.Cols).
func (b SparseBlock) Name(j int) string {
	if b.Names != nil {
		return b.Names[j]
	}
	return b.Prefix + "[" + strconv.Itoa(j) + "]"
}

// FeatureNames are the names of a design's columns (Frame.Design): the
// dense columns', then each sparse block's, each made when asked (Name),
// so that a design of millions of hashed columns holds no names.
type FeatureNames struct {
	num    []string
	blocks []SparseBlock
	n      int
}

// Len returns the number of columns named.
func (n FeatureNames) Len() int { return n.n }

// Name returns the name of column j (0 ≤ j < Len).
func (n FeatureNames) Name(j int) string {
	if j < 0 || j >= n.n {
		panic(fmt.Sprintf("encode: feature %d of %d", j, n.n))
	}
	if j < len(n.num) {
		return n.num[j]
	}
	j -= len(n.num)
	for _, b := range n.blocks {
		if j < b.M.Cols {
			return b.Name(j)
		}
		j -= b.M.Cols
	}
	panic("unreachable")
}

// List returns every name: as many strings as columns, for a design
// known to be narrow.
func (n FeatureNames) List() []string {
	out := make([]string, n.n)
	for j := range out {
		out[j] = n.Name(j)
	}
	return out
}

// NewFrame returns the feature columns of t, leaving out the columns named
// in exclude (the target or label columns).
func NewFrame(t *data.Table, exclude map[string]bool) *Frame {
	f := &Frame{Rows: t.NumRows}
	for _, c := range t.Columns {
		if exclude[c.Name] {
			continue
		}
		switch c.Kind {
		case data.Numeric:
			f.Num = append(f.Num, NumCol{Name: c.Name, Vals: c.Num})
		case data.Categorical:
			f.Cat = append(f.Cat, CatCol{Name: c.Name, Levels: c.Levels, Codes: c.Codes})
		}
	}
	if t.Sparse != nil {
		f.Sparse = append(f.Sparse, SparseBlock{Names: t.SparseNames, M: t.Sparse})
	}
	return f
}

// Width returns the number of numeric features the frame holds.
func (f *Frame) Width() int {
	w := len(f.Num)
	for _, b := range f.Sparse {
		w += b.M.Cols
	}
	return w
}

// SparseDensity is the density (the fraction of non-zero entries) below
// which Frame.Design gives a design of dense columns alone in CSR form:
// scikit-learn's ColumnTransformer default (sparse_threshold = 0.3). A
// covertype-like design (10 numeric columns and the few-level one-hot
// indicators of 2 categorical ones: 12 non-zeros in 54 columns, 0.22)
// then travels to the learner and is fitted in a third of its dense size.
const SparseDensity = 0.3

// Design assembles the numeric features into a design matrix: CSR when
// any block is sparse (dense columns then join it as sparse entries) or
// when fewer than SparseDensity of its entries are non-zero, else dense;
// the values and the column order are the same either way. The names of
// its columns are made when asked (FeatureNames), so that they cost no
// memory of the design's width. Categorical columns left unencoded and
// missing values are errors.
func (f *Frame) Design() (matrix.Matrix, FeatureNames, error) {
	if len(f.Cat) > 0 {
		names := make([]string, len(f.Cat))
		for i, c := range f.Cat {
			names[i] = c.Name
		}
		return matrix.Matrix{}, FeatureNames{}, fmt.Errorf("categorical column(s) %s have no encoder: add an encoder such as onehot to the pipeline", strings.Join(names, ", "))
	}
	for _, c := range f.Num {
		for i, v := range c.Vals {
			if math.IsNaN(v) {
				return matrix.Matrix{}, FeatureNames{}, fmt.Errorf("column %q has a missing value in data row %d: add an impute encoder to the pipeline", c.Name, i+1)
			}
		}
	}
	names := FeatureNames{num: make([]string, len(f.Num)), blocks: f.Sparse, n: f.Width()}
	for j, c := range f.Num {
		names.num[j] = c.Name
	}
	if names.n == 0 {
		return matrix.Matrix{}, FeatureNames{}, fmt.Errorf("the pipeline leaves no features")
	}
	if _, csr := f.DesignShape(); !csr {
		return matrix.Matrix{Dense: f.dense()}, names, nil
	}
	return matrix.Matrix{CSR: f.csr(names.n, f.rowEnds())}, names, nil
}

// DesignShape returns the number of columns of the design matrix Design
// assembles from f, and whether it is in CSR form (f holds sparse blocks,
// or fewer than SparseDensity of its entries are non-zero), without
// assembling it. It has f.Rows rows.
func (f *Frame) DesignShape() (cols int, csr bool) {
	cols = f.Width()
	return cols, len(f.Sparse) > 0 || !f.nonzerosAtLeast(SparseDensity*float64(f.Rows)*float64(cols))
}

// nonzerosAtLeast reports whether f's dense columns hold at least min
// non-zero values, counting column after column until they do.
func (f *Frame) nonzerosAtLeast(min float64) bool {
	n := 0
	for _, c := range f.Num {
		if float64(n) >= min {
			return true
		}
		for _, v := range c.Vals {
			if v != 0 {
				n++
			}
		}
	}
	return float64(n) >= min
}

// designBlock is the number of rows dense and csr write at a time, a block
// from every column.
const designBlock = 256

// csr returns f's design in CSR form, with cols columns and the row ends
// rowEnds gave. It fills a block of rows at a time, column after column
// (the dense columns' non-zeros, then the sparse blocks' entries), each
// row's entries at its own cursor, so that the columns are read in order
// and the entries written stay in cache.
func (f *Frame) csr(cols int, ends []int64) *sparse.CSR {
	nnz := ends[f.Rows]
	out := &sparse.CSR{Rows: f.Rows, Cols: cols, Indptr: ends, Indices: make([]int32, nnz), Values: make([]float64, nnz)}
	var pos [designBlock]int64
	for i0 := 0; i0 < f.Rows; i0 += designBlock {
		i1 := min(i0+designBlock, f.Rows)
		at := pos[:i1-i0]
		copy(at, ends[i0:i1])
		for j, c := range f.Num {
			for i, v := range c.Vals[i0:i1] {
				if v != 0 {
					p := at[i]
					out.Indices[p], out.Values[p] = int32(j), v
					at[i] = p + 1
				}
			}
		}
		off := int32(len(f.Num))
		for _, b := range f.Sparse {
			for i := i0; i < i1; i++ {
				idx, val := b.M.Row(i)
				p := at[i-i0]
				for k, j := range idx {
					out.Indices[p+int64(k)] = off + j
				}
				copy(out.Values[p:], val)
				at[i-i0] = p + int64(len(idx))
			}
			off += int32(b.M.Cols)
		}
	}
	return out
}

// dense returns f's numeric columns as the columns of a dense matrix. It
// writes the matrix row after row, a block of rows from every column at a
// time, so that each cache line of the matrix is written once (column
// after column, every write of a tall matrix would touch a line of its
// own).
func (f *Frame) dense() *mat.Dense {
	d := len(f.Num)
	data := make([]float64, f.Rows*d)
	for i0 := 0; i0 < f.Rows; i0 += designBlock {
		i1 := min(i0+designBlock, f.Rows)
		for j, c := range f.Num {
			for i, v := range c.Vals[i0:i1] {
				data[(i0+i)*d+j] = v
			}
		}
	}
	return mat.NewDense(f.Rows, d, data)
}

// rowEnds returns the row pointers of f's sparse design: row i's entries
// end at element i+1, counting the non-zero dense values and the sparse
// blocks' entries, so that the design is allocated once at its size.
func (f *Frame) rowEnds() []int64 {
	ends := make([]int64, f.Rows+1)
	for i0 := 0; i0 < f.Rows; i0 += designBlock {
		i1 := min(i0+designBlock, f.Rows)
		count := ends[i0+1 : i1+1]
		for _, c := range f.Num {
			for i, v := range c.Vals[i0:i1] {
				if v != 0 {
					count[i]++
				}
			}
		}
	}
	for _, b := range f.Sparse {
		for i := 0; i < f.Rows; i++ {
			ends[i+1] += b.M.Indptr[i+1] - b.M.Indptr[i]
		}
	}
	for i := 1; i <= f.Rows; i++ {
		ends[i] += ends[i-1]
	}
	return ends
}

// clone returns a copy of f whose column and block slices are new, so that
// a step can replace or append columns without touching f (frames are
// shared between folds and goroutines). The column data itself is shared.
func (f *Frame) clone() *Frame {
	return &Frame{
		Rows:   f.Rows,
		Num:    append([]NumCol(nil), f.Num...),
		Cat:    append([]CatCol(nil), f.Cat...),
		Sparse: append([]SparseBlock(nil), f.Sparse...),
	}
}
