package neighbors

import (
	"math"
)

// DefaultLeafSize is scikit-learn's leaf_size: a KD tree's leaves hold
// between LeafSize and 2·LeafSize rows.
const DefaultLeafSize = 30

// kdTree is scikit-learn's KDTree (sklearn/neighbors/_binary_tree.pxi,
// _kd_tree.pyx) rebuilt node for node: the same number of levels, the
// same split dimension (largest spread, the first on ties), the same
// median split by std::nth_element over row indices compared by value and
// then by index, and the same depth-first query nearest child first. It
// finds what scikit-learn's finds, also which rows it keeps among several
// at equal distance: their order of visit decides that.
type kdTree struct {
	data   []float64 // n × d, row-major: the training rows
	d      int
	metric Metric // Euclidean or Manhattan
	// idx holds the rows in tree order: node i holds idx[start[i]:end[i]].
	idx        []int32
	start, end []int32
	leaf       []bool
	// lower and upper are the bounds of node i's rows: [i*d, (i+1)*d).
	lower, upper []float64
}

// kdLevels is the number of levels of scikit-learn's tree for n rows:
// int(log2(max(1, (n−1)/leafSize)) + 1).
func kdLevels(n, leafSize int) int {
	return int(math.Log2(math.Max(1, float64(n-1)/float64(leafSize))) + 1)
}

// newKDTree builds the tree over the n × d rows of data (row-major).
func newKDTree(data []float64, n, d, leafSize int, metric Metric) *kdTree {
	nodes := 1<<kdLevels(n, leafSize) - 1
	t := &kdTree{
		data: data, d: d, metric: metric,
		idx:   make([]int32, n),
		start: make([]int32, nodes), end: make([]int32, nodes), leaf: make([]bool, nodes),
		lower: make([]float64, nodes*d), upper: make([]float64, nodes*d),
	}
	for i := range t.idx {
		t.idx[i] = int32(i)
	}
	t.build(0, 0, n)
	return t
}

// build is BinaryTree._recursive_build.
func (t *kdTree) build(node, lo, hi int) {
	t.initNode(node, lo, hi)
	nodes := len(t.start)
	switch {
	case 2*node+1 >= nodes, hi-lo < 2:
		t.leaf[node] = true
	default:
		pts := t.idx[lo:hi]
		dim := t.splitDim(pts)
		d := t.d
		data := t.data
		nthElement(pts, len(pts)/2, func(a, b int32) bool {
			av, bv := data[int(a)*d+dim], data[int(b)*d+dim]
			if av == bv {
				return a < b
			}
			return av < bv
		})
		mid := lo + len(pts)/2
		t.build(2*node+1, lo, mid)
		t.build(2*node+2, mid, hi)
	}
}

// initNode is the KD tree's init_node: the node's rows and bounds.
func (t *kdTree) initNode(node, lo, hi int) {
	d := t.d
	lower, upper := t.lower[node*d:(node+1)*d], t.upper[node*d:(node+1)*d]
	for j := range lower {
		lower[j], upper[j] = math.Inf(1), math.Inf(-1)
	}
	for _, r := range t.idx[lo:hi] {
		row := t.data[int(r)*d : (int(r)+1)*d]
		for j, v := range row {
			lower[j] = math.Min(lower[j], v)
			upper[j] = math.Max(upper[j], v)
		}
	}
	t.start[node], t.end[node] = int32(lo), int32(hi)
}

// splitDim is find_node_split_dim: the column of largest spread among
// the rows pts, the first of several.
func (t *kdTree) splitDim(pts []int32) int {
	d := t.d
	best, bestSpread := 0, 0.0
	for j := 0; j < d; j++ {
		hi := t.data[int(pts[0])*d+j]
		lo := hi
		for _, r := range pts[1:] {
			v := t.data[int(r)*d+j]
			hi = math.Max(hi, v)
			lo = math.Min(lo, v)
		}
		if s := hi - lo; s > bestSpread {
			best, bestSpread = j, s
		}
	}
	return best
}

// minRdist is the KD tree's min_rdist: a lower bound of the reduced
// distance from pt to any row of node.
func (t *kdTree) minRdist(node int, pt []float64) float64 {
	d := t.d
	lower, upper := t.lower[node*d:(node+1)*d], t.upper[node*d:(node+1)*d]
	var r float64
	for j, p := range pt {
		lo := lower[j] - p
		hi := p - upper[j]
		x := 0.5 * ((lo + math.Abs(lo)) + (hi + math.Abs(hi)))
		if t.metric == Euclidean {
			r += float64(x * x)
		} else {
			r += x
		}
	}
	return r
}

// query pushes onto the heap (values, indices) every row the depth-first
// search from the root offers it, as _query_single_depthfirst does:
// a node farther than the heap's largest value is skipped, a leaf's rows
// are offered in tree order, and of two children the nearer is searched
// first (the left one on equal bounds).
func (t *kdTree) query(pt []float64, values []float64, indices []int32) {
	t.search(0, pt, values, indices, t.minRdist(0, pt))
}

func (t *kdTree) search(node int, pt []float64, values []float64, indices []int32, lb float64) {
	switch {
	case lb > values[0]:
	case t.leaf[node]:
		d := t.d
		for _, r := range t.idx[t.start[node]:t.end[node]] {
			row := t.data[int(r)*d : (int(r)+1)*d]
			var dist float64
			if t.metric == Euclidean {
				dist = sqDist(pt, row)
			} else {
				dist = l1Dist(pt, row)
			}
			heapPush(values, indices, dist, r)
		}
	default:
		c1, c2 := 2*node+1, 2*node+2
		lb1, lb2 := t.minRdist(c1, pt), t.minRdist(c2, pt)
		if lb1 <= lb2 {
			t.search(c1, pt, values, indices, lb1)
			t.search(c2, pt, values, indices, lb2)
		} else {
			t.search(c2, pt, values, indices, lb2)
			t.search(c1, pt, values, indices, lb1)
		}
	}
}

// sqDist is Σ (x_j − y_j)², summed in column order (scikit-learn's
// euclidean_rdist).
func sqDist(x, y []float64) float64 {
	var s float64
	y = y[:len(x)]
	for j, v := range x {
		t := v - y[j]
		s += float64(t * t)
	}
	return s
}

// l1Dist is Σ |x_j − y_j|, summed in column order (scikit-learn's
// ManhattanDistance.dist).
func l1Dist(x, y []float64) float64 {
	var s float64
	y = y[:len(x)]
	for j, v := range x {
		s += math.Abs(v - y[j])
	}
	return s
}
