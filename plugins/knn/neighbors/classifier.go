package neighbors

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/sparse"
	"github.com/polyclass/polyclass/plugins/internal/numpysum"
)

// Classifier is a fitted k-nearest-neighbours classifier: its training
// rows, laid out for the algorithm it searches them with, and their
// classes.
type Classifier struct {
	opt        Options
	algorithm  Algorithm // Brute or KDTree
	n, d       int
	labels     []int32
	numClasses int

	tree  *kdTree     // KDTree
	cols  *columns    // Brute, Euclidean and Cosine
	ynorm []float64   // Brute, Euclidean: ‖y‖² of each training row
	rows  []float64   // Brute, Manhattan, dense input: n × d row-major
	csr   *sparse.CSR // Brute, Manhattan, sparse input
}

// Fit keeps the training rows x (dense or CSR) with their classes y in
// 0..numClasses−1 for later searches. It keeps its own copy of x.
func Fit(x matrix.Matrix, y []int, numClasses int, opt Options) (*Classifier, error) {
	opt = opt.withDefaults()
	n, d := x.Dims()
	switch {
	case n == 0:
		return nil, errors.New("neighbors: no training rows")
	case len(y) != n:
		return nil, fmt.Errorf("neighbors: %d classes for %d training rows", len(y), n)
	case opt.K < 1:
		return nil, fmt.Errorf("neighbors: k = %d, want at least 1", opt.K)
	case opt.K > n:
		return nil, fmt.Errorf("neighbors: k = %d neighbours, more than the %d training rows", opt.K, n)
	case opt.LeafSize < 1:
		return nil, fmt.Errorf("neighbors: leaf size %d, want at least 1", opt.LeafSize)
	}
	c := &Classifier{opt: opt, n: n, d: d, labels: make([]int32, n), numClasses: numClasses}
	for i, k := range y {
		if k < 0 || k >= numClasses {
			return nil, fmt.Errorf("neighbors: class %d of training row %d is outside 0..%d", k, i, numClasses-1)
		}
		c.labels[i] = int32(k)
	}
	c.algorithm = opt.Algorithm
	if c.algorithm == Auto {
		c.algorithm = KDTree
		if x.CSR != nil || opt.Metric == Cosine || d > 15 || opt.K >= n/2 {
			c.algorithm = Brute
		}
	}
	switch {
	case c.algorithm == KDTree && opt.Metric == Cosine:
		return nil, errors.New("neighbors: the kd_tree algorithm does not take the cosine metric")
	case c.algorithm == KDTree:
		c.tree = newKDTree(denseRows(x), n, d, opt.LeafSize, opt.Metric)
	case opt.Metric == Euclidean:
		c.cols = newColumns(x, nil)
		c.ynorm = make([]float64, n)
		for i, r := range nonZeroRows(x) {
			c.ynorm[i] = sumSquares(r.vals)
		}
	case opt.Metric == Cosine:
		norms, err := rowNorms(nonZeroRows(x), true)
		if err != nil {
			return nil, err
		}
		c.cols = newColumns(x, norms)
	case x.CSR != nil && int64(n)*int64(d) > maxDenseManhattan:
		c.csr = copyCSR(x.CSR)
	default:
		c.rows = denseRows(x)
	}
	return c, nil
}

// maxDenseManhattan is the most values of training rows that the
// Manhattan brute force keeps dense (64 MiB); wider sparse rows stay CSR,
// their distances summed over the union of non-zero columns.
const maxDenseManhattan = 1 << 23

// Algorithm returns the algorithm the classifier searches with (Auto
// resolved).
func (c *Classifier) Algorithm() Algorithm { return c.algorithm }

// denseRows returns x's rows as one row-major slice of its own.
func denseRows(x matrix.Matrix) []float64 {
	n, d := x.Dims()
	out := make([]float64, n*d)
	if x.CSR != nil {
		for i := range n {
			idx, val := x.CSR.Row(i)
			for p, j := range idx {
				out[i*d+int(j)] = val[p]
			}
		}
		return out
	}
	for i := range n {
		copy(out[i*d:(i+1)*d], x.Dense.RawRowView(i))
	}
	return out
}

func copyCSR(m *sparse.CSR) *sparse.CSR {
	return &sparse.CSR{Rows: m.Rows, Cols: m.Cols, Indptr: append([]int64(nil), m.Indptr...),
		Indices: append([]int32(nil), m.Indices...), Values: append([]float64(nil), m.Values...)}
}

// heap is one test row's k candidates: a max-heap during the search,
// sorted ascending after it.
type heap struct {
	values  []float64
	indices []int32
}

// Kneighbors returns the k nearest training rows of every row of x and
// their distances, each row's sorted ascending: row i's neighbours are
// ind[i·k:(i+1)·k] at distances dist[i·k:(i+1)·k], as scikit-learn's
// kneighbors returns them, in the same order.
func (c *Classifier) Kneighbors(x matrix.Matrix) (dist []float64, ind []int32, err error) {
	m, d := x.Dims()
	if d != c.d {
		return nil, nil, fmt.Errorf("neighbors: %d columns, the training rows have %d", d, c.d)
	}
	k := c.opt.K
	dist, ind = make([]float64, m*k), make([]int32, m*k)
	heaps := make([]heap, m)
	init := math.MaxFloat64 // the pairwise-distance reductions' DBL_MAX
	if c.algorithm == KDTree {
		init = math.Inf(1) // NeighborsHeap's np.inf
	}
	for i := range heaps {
		heaps[i] = heap{values: dist[i*k : (i+1)*k], indices: ind[i*k : (i+1)*k]}
		for j := range heaps[i].values {
			heaps[i].values[j] = init
		}
	}
	switch {
	case c.algorithm == KDTree:
		buf := make([]float64, d)
		for i, h := range heaps {
			c.tree.query(rowOf(x, i, buf), h.values, h.indices)
		}
	case c.opt.Metric == Euclidean:
		c.cols.bruteEuclidean(nonZeroRows(x), c.ynorm, heaps)
	case c.opt.Metric == Cosine:
		if err := c.bruteCosine(x, heaps); err != nil {
			return nil, nil, err
		}
		return dist, ind, nil // already sorted, distances final
	default:
		c.bruteManhattan(x, heaps)
	}
	if err := checkFinite(heaps, init); err != nil {
		return nil, nil, err
	}
	for _, h := range heaps {
		simultaneousSort(h.values, h.indices)
		if c.opt.Metric == Euclidean {
			for j, v := range h.values {
				h.values[j] = math.Sqrt(math.Max(v, 0))
			}
		}
	}
	return dist, ind, nil
}

// checkFinite reports the first row whose heap holds a candidate still
// at init after the search: fewer than k of its distances were finite
// (a squared Euclidean distance beyond 1.8e308, or a Manhattan sum, that
// overflowed to +Inf, or a NaN; no such distance enters a heap). Its
// neighbours would be no neighbours, every row of a fold alike, so the
// prediction ends with an error (issue 55: non-finite intermediate
// values end with an error) rather than a constant answer.
func checkFinite(heaps []heap, init float64) error {
	for i, h := range heaps {
		if h.values[0] >= init {
			return fmt.Errorf("neighbors: the distances of row %d to the training rows overflow: a feature's values are too large (near or beyond 1e154 for the Euclidean metric); scale the features (an encoder such as standardize)", i+1)
		}
	}
	return nil
}

// rowOf returns row i of x densely: a view of a dense x, else buf filled.
func rowOf(x matrix.Matrix, i int, buf []float64) []float64 {
	if x.CSR == nil {
		return x.Dense.RawRowView(i)
	}
	clear(buf)
	idx, val := x.CSR.Row(i)
	for p, j := range idx {
		buf[j] = val[p]
	}
	return buf
}

// bruteManhattan offers every training row to each test row's heap in row
// order with its Manhattan distance summed in column order. For sparse
// input scikit-learn sums over the union of the two rows' non-zero
// columns, which adds the same terms but zeros, with the same result.
func (c *Classifier) bruteManhattan(x matrix.Matrix, heaps []heap) {
	buf := make([]float64, c.d)
	for i, h := range heaps {
		if c.csr != nil && x.CSR != nil {
			xi, xv := x.CSR.Row(i)
			for j := 0; j < c.n; j++ {
				yi, yv := c.csr.Row(j)
				if s := l1Sparse(xi, xv, yi, yv); s < h.values[0] {
					heapPush(h.values, h.indices, s, int32(j))
				}
			}
			continue
		}
		pt := rowOf(x, i, buf)
		ybuf := make([]float64, c.d)
		for j := 0; j < c.n; j++ {
			var y []float64
			if c.csr != nil {
				y = rowOf(matrix.Matrix{CSR: c.csr}, j, ybuf)
			} else {
				y = c.rows[j*c.d : (j+1)*c.d]
			}
			if s := l1Dist(pt, y); s < h.values[0] {
				heapPush(h.values, h.indices, s, int32(j))
			}
		}
	}
}

// l1Sparse is Σ |x_j − y_j| over the union of two sparse rows' columns,
// in column order: scikit-learn's ManhattanDistance.dist_csr.
func l1Sparse(xi []int32, xv []float64, yi []int32, yv []float64) float64 {
	var s float64
	p, q := 0, 0
	for p < len(xi) && q < len(yi) {
		switch {
		case xi[p] == yi[q]:
			s += math.Abs(xv[p] - yv[q])
			p++
			q++
		case xi[p] < yi[q]:
			s += math.Abs(xv[p])
			p++
		default:
			s += math.Abs(yv[q])
			q++
		}
	}
	for ; p < len(xi); p++ {
		s += math.Abs(xv[p])
	}
	for ; q < len(yi); q++ {
		s += math.Abs(yv[q])
	}
	return s
}

// bruteCosine finds each test row's neighbours as scikit-learn does for a
// metric its pairwise-distance reductions lack: the row's distances to
// every training row, np.argpartition at k−1, the first k entries, then
// np.argsort of their distances. It writes the neighbours sorted, with
// their distances.
func (c *Classifier) bruteCosine(x matrix.Matrix, heaps []heap) error {
	test := nonZeroRows(x)
	norms, err := rowNorms(test, false)
	if err != nil {
		return err
	}
	dist := make([]float64, c.n)
	order := make([]int32, c.n)
	k := c.opt.K
	first := make([]int32, k)
	vals := make([]float64, k)
	for i, r := range test {
		scaled := sparseRow{cols: r.cols, vals: make([]float64, len(r.vals))}
		for p, v := range r.vals {
			scaled.vals[p] = v / norms[i]
		}
		c.cols.cosineDistances(dist, scaled)
		for j := range order {
			order[j] = int32(j)
		}
		argPartition(dist, order, k-1)
		for p := range k {
			vals[p] = dist[order[p]]
			first[p] = int32(p)
		}
		argSort(vals, first)
		h := heaps[i]
		for p, q := range first {
			h.indices[p] = order[q]
			h.values[p] = vals[q]
		}
	}
	return nil
}

// Predict finds the k nearest training rows of every row of x and writes
// each row's class votes into votes (rows × classes): the votes
// scikit-learn's predict takes the class of the largest from (the
// smallest class of several), a count of neighbours for uniform weights,
// a sum of weights 1/distance for distance weights. When probs is not
// nil it writes the class probabilities into it, as predict_proba: the
// votes normalised to sum to one.
func (c *Classifier) Predict(x matrix.Matrix, votes, probs *mat.Dense) error {
	m, _ := x.Dims()
	for _, dst := range []*mat.Dense{votes, probs} {
		if dst == nil {
			continue
		}
		if r, k := dst.Dims(); r != m || k != c.numClasses {
			return fmt.Errorf("neighbors: output is %d×%d, want %d×%d", r, k, m, c.numClasses)
		}
	}
	dist, ind, err := c.Kneighbors(x)
	if err != nil {
		return err
	}
	k := c.opt.K
	w := make([]float64, k)
	template := make([]float64, k)
	p := make([]float64, c.numClasses)
	for i := range m {
		nb := ind[i*k : (i+1)*k]
		c.weights(w, dist[i*k:(i+1)*k])
		// predict_proba: proba[class of neighbour j] += w[j], j in order.
		clear(p)
		for j, r := range nb {
			p[c.labels[r]] += w[j]
		}
		if votes != nil {
			row := votes.RawRowView(i)
			if c.opt.Weights == Uniform {
				copy(row, p)
			} else {
				// weighted_mode: np.sum over the neighbours of the weights
				// of class cl (0 elsewhere), a pairwise sum.
				for cl := range row {
					for j, r := range nb {
						template[j] = 0
						if int(c.labels[r]) == cl {
							template[j] = w[j]
						}
					}
					row[cl] = numpysum.Pairwise(template)
				}
			}
		}
		if probs != nil {
			norm := numpysum.Pairwise(p)
			if norm == 0 {
				norm = 1
			}
			row := probs.RawRowView(i)
			for cl, v := range p {
				row[cl] = v / norm
			}
		}
	}
	return nil
}

// weights sets w to the neighbours' vote weights given their distances:
// 1 each for Uniform; for Distance 1/distance, or, when some distance is
// 0, 1 for those at distance 0 and 0 for the others (scikit-learn's
// _get_weights).
func (c *Classifier) weights(w, dist []float64) {
	if c.opt.Weights == Uniform {
		for j := range w {
			w[j] = 1
		}
		return
	}
	zero := false
	for j, d := range dist {
		w[j] = 1 / d
		zero = zero || math.IsInf(w[j], 0)
	}
	if zero {
		for j := range w {
			w[j] = 0
			if math.IsInf(1/dist[j], 0) {
				w[j] = 1
			}
		}
	}
}

// Classes returns the class of each row of x: the argmax of its votes,
// the smallest class of several.
func (c *Classifier) Classes(x matrix.Matrix) ([]int, error) {
	m, _ := x.Dims()
	votes := mat.NewDense(max(m, 1), c.numClasses, nil)
	if m == 0 {
		return nil, nil
	}
	if err := c.Predict(x, votes, nil); err != nil {
		return nil, err
	}
	out := make([]int, m)
	for i := range out {
		out[i] = argmax(votes.RawRowView(i))
	}
	return out, nil
}

// argmax returns the index of the largest value, the first of several.
func argmax(v []float64) int {
	best := 0
	for j, x := range v {
		if x > v[best] {
			best = j
		}
	}
	return best
}
