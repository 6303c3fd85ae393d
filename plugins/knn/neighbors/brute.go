package neighbors

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/polyclass/polyclass/framework/matrix"
)

// blockRows is the number of training rows whose distances to one test
// row are computed together: their partial dot products (16 KiB) stay in
// the level-1 cache while the columns of the block (blockRows values of
// each feature) stay in level 2 across the test rows of a call.
const blockRows = 2048

// columns holds the training rows by feature, for the brute-force search:
// the dot product of a test row with every training row of a block is a
// sum, over the test row's non-zero features, of that feature's column
// scaled by the test value, which a one-hot or otherwise sparse test row
// makes short. A column that is mostly non-zero is kept whole (dense[j]);
// the others as their non-zero entries (rows[j], vals[j]), with
// first[j][b] the first entry of block b.
type columns struct {
	n, d  int
	dense [][]float64
	rows  [][]int32
	vals  [][]float64
	first [][]int32
}

// newColumns lays out x by column. scale, when not nil, divides row i by
// scale[i] first (cosine's normalised rows).
func newColumns(x matrix.Matrix, scale []float64) *columns {
	n, d := x.Dims()
	c := &columns{n: n, d: d, dense: make([][]float64, d), rows: make([][]int32, d), vals: make([][]float64, d), first: make([][]int32, d)}
	nnz := make([]int, d)
	forEachNonZero(x, func(i, j int, v float64) { nnz[j]++ })
	for j := range d {
		if nnz[j] > n/8 {
			c.dense[j] = make([]float64, n)
		}
	}
	forEachNonZero(x, func(i, j int, v float64) {
		if scale != nil {
			v /= scale[i]
		}
		if c.dense[j] != nil {
			c.dense[j][i] = v
			return
		}
		c.rows[j] = append(c.rows[j], int32(i))
		c.vals[j] = append(c.vals[j], v)
	})
	blocks := (n + blockRows - 1) / blockRows
	for j := range d {
		if c.dense[j] != nil {
			continue
		}
		f := make([]int32, blocks+1)
		p := 0
		for b := 0; b <= blocks; b++ {
			for p < len(c.rows[j]) && int(c.rows[j][p]) < b*blockRows {
				p++
			}
			f[b] = int32(p)
		}
		c.first[j] = f
	}
	return c
}

// dots sets acc[r] = Σ_k x_k·y_{lo+r,k} for the training rows lo ≤ lo+r <
// lo+len(acc) of block b, summed over the test row's non-zero features
// (cols, vals) in their order.
func (c *columns) dots(acc []float64, b int, cols []int32, vals []float64) {
	clear(acc)
	lo := b * blockRows
	hi := lo + len(acc)
	for p, j := range cols {
		v := vals[p]
		if col := c.dense[j]; col != nil {
			floats.AddScaled(acc, v, col[lo:hi])
			continue
		}
		rows, vs := c.rows[j], c.vals[j]
		for q := c.first[j][b]; q < c.first[j][b+1]; q++ {
			acc[int(rows[q])-lo] += float64(v * vs[q])
		}
	}
}

// forEachNonZero calls f for every non-zero entry of x, row by row and in
// column order within a row.
func forEachNonZero(x matrix.Matrix, f func(i, j int, v float64)) {
	if x.CSR != nil {
		for i := 0; i < x.CSR.Rows; i++ {
			idx, val := x.CSR.Row(i)
			for p, j := range idx {
				if val[p] != 0 {
					f(i, int(j), val[p])
				}
			}
		}
		return
	}
	if x.Dense == nil {
		return
	}
	n, _ := x.Dense.Dims()
	for i := range n {
		for j, v := range x.Dense.RawRowView(i) {
			if v != 0 {
				f(i, j, v)
			}
		}
	}
}

// sparseRow is one row's non-zero entries in column order.
type sparseRow struct {
	cols []int32
	vals []float64
}

// nonZeroRows returns the non-zero entries of every row of x.
func nonZeroRows(x matrix.Matrix) []sparseRow {
	n, _ := x.Dims()
	out := make([]sparseRow, n)
	forEachNonZero(x, func(i, j int, v float64) {
		out[i].cols = append(out[i].cols, int32(j))
		out[i].vals = append(out[i].vals, v)
	})
	return out
}

// sumSquares is Σ v² in order: the squared norm scikit-learn computes for
// a sparse row.
func sumSquares(vals []float64) float64 {
	var s float64
	for _, v := range vals {
		s += float64(v * v)
	}
	return s
}

// bruteEuclidean offers every training row to each test row's heap in
// row order, as scikit-learn's EuclideanArgKmin does: the value offered
// is the squared distance in its expanded form (‖x‖² + (−2·x·y)) + ‖y‖²,
// added in that order. heaps[i] is test row i's heap.
func (c *columns) bruteEuclidean(test []sparseRow, ynorm []float64, heaps []heap) {
	acc := make([]float64, blockRows)
	xnorm := make([]float64, len(test))
	for i, r := range test {
		xnorm[i] = sumSquares(r.vals)
	}
	for b, lo := 0, 0; lo < c.n; b, lo = b+1, lo+blockRows {
		hi := min(lo+blockRows, c.n)
		a := acc[:hi-lo]
		yn := ynorm[lo:hi]
		for i, r := range test {
			c.dots(a, b, r.cols, r.vals)
			h := heaps[i]
			xn := xnorm[i]
			for q, dot := range a {
				if s := (xn + -2*dot) + yn[q]; s < h.values[0] {
					heapPush(h.values, h.indices, s, int32(lo+q))
				}
			}
		}
	}
}

// cosineDistances sets dist[j] to the cosine distance of the test row
// (normalised, as its non-zero entries) to training row j, whose
// columns hold the normalised training rows: 1 − x̂·ŷ clipped to [0, 2],
// as scikit-learn's cosine_distances.
func (c *columns) cosineDistances(dist []float64, r sparseRow) {
	blocks := (c.n + blockRows - 1) / blockRows
	for b := 0; b < blocks; b++ {
		lo := b * blockRows
		a := dist[lo:min(lo+blockRows, c.n)]
		c.dots(a, b, r.cols, r.vals)
		for q, s := range a {
			a[q] = math.Min(math.Max(-s+1, 0), 2)
		}
	}
}

// rowNorms returns the Euclidean norm of every row of x with norms below
// 10 machine epsilons set to 1, as scikit-learn's normalize does before
// dividing. A row whose sum of squares overflows (values near 1e160,
// where scikit-learn divides by +Inf, makes the row 0 and every distance
// 1, so that a fold's predictions all come out alike) gets its norm
// computed with scaling (floats.Norm), which the cosine metric, free of
// scale, is owed; a norm beyond 1.8e308 even so is an error naming the
// row (of the training rows when training is set, else of the rows to
// predict).
func rowNorms(rows []sparseRow, training bool) ([]float64, error) {
	out := make([]float64, len(rows))
	for i, r := range rows {
		out[i] = math.Sqrt(sumSquares(r.vals))
		if math.IsInf(out[i], 1) {
			out[i] = floats.Norm(r.vals, 2)
		}
		if math.IsInf(out[i], 1) {
			which := "row"
			if training {
				which = "training row"
			}
			return nil, fmt.Errorf("neighbors: the norm of %s %d overflows: its values are too large for the cosine metric (a norm beyond 1.8e308); scale the features (an encoder such as standardize)", which, i+1)
		}
		if out[i] < 10*eps {
			out[i] = 1
		}
	}
	return out, nil
}

// eps is the float64 machine epsilon, 2⁻⁵².
const eps = 0x1p-52
