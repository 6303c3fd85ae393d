package neighbors

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// sklearnKNN is testdata/sklearn_knn.json (see testdata/gen_sklearn_knn.py).
type sklearnKNN struct {
	Datasets map[string]map[string]struct {
		Algorithm   []string             `json:"algorithm"`
		Predictions []int                `json:"predictions"`
		Proba       map[string][]float64 `json:"proba"`
		Neighbors   [][]int32            `json:"neighbors"`
	} `json:"datasets"`
	Trees map[string]struct {
		Idx   []int32 `json:"idx_array"`
		Start []int32 `json:"start"`
		End   []int32 `json:"end"`
		Leaf  []bool  `json:"leaf"`
	} `json:"trees"`
}

func loadSklearn(t *testing.T) sklearnKNN {
	t.Helper()
	b, err := os.ReadFile("testdata/sklearn_knn.json")
	if err != nil {
		t.Fatalf("read testdata: %v", err)
	}
	var ref sklearnKNN
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatalf("decode testdata: %v", err)
	}
	return ref
}

// configs are the generator's configurations (CONFIGS there).
var configs = map[string]Options{
	"default":             {},
	"distance":            {Weights: Distance},
	"k10_distance":        {K: 10, Weights: Distance},
	"k1":                  {K: 1},
	"manhattan":           {Metric: Manhattan},
	"manhattan_distance":  {Metric: Manhattan, Weights: Distance},
	"cosine":              {Metric: Cosine},
	"cosine_k10_distance": {Metric: Cosine, K: 10, Weights: Distance},
	"brute":               {Algorithm: Brute},
	"kd_tree":             {Algorithm: KDTree},
	"kd_tree_manhattan":   {Algorithm: KDTree, Metric: Manhattan, Weights: Distance},
}

// foldData returns fold k's training and test rows of data set name as
// the generator passes them to scikit-learn: standardised, raw
// (NAME_raw) or raw in CSR form (NAME_csr), with the training classes and
// the test rows' positions in the file.
func foldData(ds *reftest.Dataset, name string, folds []int, k int) (xtr matrix.Matrix, ytr []int, xte matrix.Matrix, rows []int) {
	train, test := cv.Split(folds, k)
	ytr = reftest.Pick(ds.Y, train)
	switch {
	case strings.HasSuffix(name, "_raw"), strings.HasSuffix(name, "_csr"):
		tr, te := pickRows(ds.X, train), pickRows(ds.X, test)
		if strings.HasSuffix(name, "_csr") {
			return matrix.Matrix{CSR: reftest.CSR(tr)}, ytr, matrix.Matrix{CSR: reftest.CSR(te)}, test
		}
		return matrix.Matrix{Dense: tr}, ytr, matrix.Matrix{Dense: te}, test
	}
	return matrix.Matrix{Dense: reftest.NumpyStandardize(ds.X, train, train)}, ytr, matrix.Matrix{Dense: reftest.NumpyStandardize(ds.X, train, test)}, test
}

func pickRows(x *mat.Dense, rows []int) *mat.Dense {
	_, d := x.Dims()
	out := mat.NewDense(len(rows), d, nil)
	for k, i := range rows {
		out.SetRow(k, x.RawRowView(i))
	}
	return out
}

// TestMatchesSklearn cross-validates every configuration of the
// generator on the reference folds and compares, row by row, the
// algorithm scikit-learn 1.2.1 chose, the predicted class, the
// probabilities of every 14th row (within 1e-12) and, for the default
// configuration, the neighbours in scikit-learn's order up to the order of
// rows at equal distance (see sameUpToTies; as sets where scikit-learn's
// distances are OpenBLAS's sums, see inexact). digits_raw and
// digits_csr (integer pixels: exact distances, many of them equal) test
// that the same rows are kept among rows at the k-th distance.
func TestMatchesSklearn(t *testing.T) {
	ref := loadSklearn(t)
	for name, entry := range ref.Datasets {
		file := strings.TrimSuffix(strings.TrimSuffix(name, "_raw"), "_csr")
		ds := reftest.Load(t, file)
		folds := reftest.Folds(t, file)
		for cname, want := range entry {
			t.Run(name+"/"+cname, func(t *testing.T) {
				t.Parallel()
				opt, ok := configs[cname]
				if !ok {
					t.Fatalf("no configuration %s", cname)
				}
				if len(want.Predictions) != len(folds) {
					t.Fatalf("testdata has %d predictions, data %d rows", len(want.Predictions), len(folds))
				}
				K := len(ds.Classes)
				var algos []string
				pred := make([]int, len(folds))
				probs := map[int][]float64{}
				neighbors := make([][]int32, len(folds))
				distances := make([][]float64, len(folds))
				nearest := make([]float64, len(folds))
				trainRow := make([][]int, len(folds)) // fold's training rows, by test row
				for k := range 10 {
					xtr, ytr, xte, rows := foldData(ds, name, folds, k)
					train, _ := cv.Split(folds, k)
					m, err := Fit(xtr, ytr, K, opt)
					if err != nil {
						t.Fatalf("fold %d: %v", k, err)
					}
					if a := m.Algorithm().String(); !slices.Contains(algos, a) {
						algos = append(algos, a)
					}
					votes, p := mat.NewDense(len(rows), K, nil), mat.NewDense(len(rows), K, nil)
					if err := m.Predict(xte, votes, p); err != nil {
						t.Fatal(err)
					}
					dist, ind, err := m.Kneighbors(xte)
					if err != nil {
						t.Fatal(err)
					}
					kk := m.opt.K
					for j, r := range rows {
						pred[r] = argmax(votes.RawRowView(j))
						probs[r] = p.RawRowView(j)
						neighbors[r] = ind[j*kk : (j+1)*kk]
						nearest[r] = dist[j*kk]
						distances[r] = dist[j*kk : (j+1)*kk]
						trainRow[r] = train
					}
				}
				slices.Sort(algos)
				if !slices.Equal(algos, want.Algorithm) {
					t.Errorf("algorithm %v, sklearn %v", algos, want.Algorithm)
				}
				diff := 0
				for i, w := range want.Predictions {
					if pred[i] != w {
						diff++
						if diff <= 5 {
							t.Errorf("row %d: predicted %d, sklearn %d (neighbours %v, sklearn's %v)", i, pred[i], w, neighbors[i], want.Neighbors)
						}
					}
				}
				if diff > 0 {
					t.Errorf("%d of %d predictions differ", diff, len(folds))
				}
				// scikit-learn's dense brute force computes a squared distance
				// as ‖x‖² − 2x·y + ‖y‖² with OpenBLAS's sums, whose rounding
				// Go does not reproduce: a test row that repeats a training
				// row (segment has 224 repeated rows) is at distance ~1e-8
				// there, 0 here, where it alone votes (weights "distance").
				// Its probabilities then differ by ~1e-7.
				inexact := algos[0] == "brute" && !strings.HasSuffix(name, "_raw") && !strings.HasSuffix(name, "_csr") && opt.Metric == Euclidean
				for key, w := range want.Proba {
					r, _ := strconv.Atoi(key)
					tol := 1e-12
					if inexact && nearest[r] == 0 {
						tol = 1e-6
					}
					for c, v := range w {
						if got := probs[r][c]; math.Abs(got-v) > tol {
							t.Errorf("row %d class %d: probability %.17g, sklearn %.17g", r, c, got, v)
						}
					}
				}
				if want.Neighbors != nil {
					bad := 0
					for i, w := range want.Neighbors {
						got := neighbors[i]
						if inexact {
							// Repeated rows (segment's) are at equal
							// distance here; OpenBLAS computes their
							// distances with different roundings (a
							// column block's edge), so scikit-learn may
							// keep another copy of the same row, and
							// orders them by the history of its heap.
							// Compare the neighbours' contents.
							if gk, wk := rowKeys(ds, trainRow[i], got), rowKeys(ds, trainRow[i], w); slices.Equal(gk, wk) {
								continue
							}
						}
						if !sameUpToTies(got, w, distances[i]) {
							bad++
							if bad <= 5 {
								t.Errorf("row %d: neighbours %v, sklearn %v", i, neighbors[i], w)
							}
						}
					}
					if bad > 0 {
						t.Errorf("%d of %d neighbour lists differ", bad, len(folds))
					}
				}
			})
		}
	}
}

// TestKDTreeMatchesSklearn compares the tree built on fold 0 of iris and
// wine (standardised) with scikit-learn's KDTree(leaf_size=30): the row
// order (idx_array, which std::nth_element's partitions leave) and every
// node's range and leaf flag.
func TestKDTreeMatchesSklearn(t *testing.T) {
	ref := loadSklearn(t)
	for name, want := range ref.Trees {
		t.Run(name, func(t *testing.T) {
			ds := reftest.Load(t, name)
			xtr, _, _, _ := foldData(ds, name, reftest.Folds(t, name), 0)
			n, d := xtr.Dims()
			tree := newKDTree(denseRows(xtr), n, d, DefaultLeafSize, Euclidean)
			if !slices.Equal(tree.idx, want.Idx) {
				t.Errorf("idx_array differs:\n got %v\nwant %v", tree.idx, want.Idx)
			}
			if !slices.Equal(tree.start, want.Start) || !slices.Equal(tree.end, want.End) || !slices.Equal(tree.leaf, want.Leaf) {
				t.Errorf("nodes: start %v end %v leaf %v; sklearn %v %v %v", tree.start, tree.end, tree.leaf, want.Start, want.End, want.Leaf)
			}
		})
	}
}

// sameUpToTies reports whether neighbour lists a (at distances dist) and
// b hold the same rows in the same places but for the order of rows at
// equal distance. scikit-learn's ArgKmin, when it parallelises over the
// training rows (fewer than 4·256 test rows per thread), pushes each
// thread's heap into the result heap, which rearranges rows at equal
// distance depending on how many test rows it was given; package
// neighbors answers each test row alike whatever the others, in the order
// of one pass.
func sameUpToTies(a, b []int32, dist []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for lo := 0; lo < len(a); {
		hi := lo + 1
		for hi < len(a) && dist[hi] == dist[lo] {
			hi++
		}
		x, y := slices.Sorted(slices.Values(a[lo:hi])), slices.Sorted(slices.Values(b[lo:hi]))
		if !slices.Equal(x, y) {
			return false
		}
		lo = hi
	}
	return true
}

// rowKeys returns the contents (features and class) of the given rows of
// the fold's training rows train, sorted.
func rowKeys(ds *reftest.Dataset, train []int, rows []int32) []string {
	keys := make([]string, len(rows))
	for p, r := range rows {
		i := train[r]
		keys[p] = fmt.Sprint(ds.X.RawRowView(i), ds.Y[i])
	}
	slices.Sort(keys)
	return keys
}

// TestRowsAnsweredAlone checks that a test row's votes and probabilities
// do not depend on the rows predicted with it: segment's fold 0 predicted
// whole and in runs of 1, 7 and 100 rows gives the same bits, for each
// algorithm and metric.
func TestRowsAnsweredAlone(t *testing.T) {
	ds := reftest.Load(t, "segment")
	xtr, ytr, xte, rows := foldData(ds, "segment", reftest.Folds(t, "segment"), 0)
	K := len(ds.Classes)
	for _, opt := range []Options{{}, {Weights: Distance, K: 10}, {Algorithm: KDTree}, {Metric: Manhattan, Weights: Distance}, {Metric: Cosine, K: 9, Weights: Distance}} {
		m, err := Fit(xtr, ytr, K, opt)
		if err != nil {
			t.Fatal(err)
		}
		whole, wholeP := mat.NewDense(len(rows), K, nil), mat.NewDense(len(rows), K, nil)
		if err := m.Predict(xte, whole, wholeP); err != nil {
			t.Fatal(err)
		}
		for _, run := range []int{1, 7, 100} {
			for lo := 0; lo < len(rows); lo += run {
				hi := min(lo+run, len(rows))
				part := matrix.Matrix{Dense: xte.Dense.Slice(lo, hi, 0, ds.X.RawMatrix().Cols).(*mat.Dense)}
				v, p := mat.NewDense(hi-lo, K, nil), mat.NewDense(hi-lo, K, nil)
				if err := m.Predict(part, v, p); err != nil {
					t.Fatal(err)
				}
				for i := lo; i < hi; i++ {
					for c := range K {
						if math.Float64bits(v.At(i-lo, c)) != math.Float64bits(whole.At(i, c)) || math.Float64bits(p.At(i-lo, c)) != math.Float64bits(wholeP.At(i, c)) {
							t.Fatalf("%+v, runs of %d: row %d class %d: votes %v / %v, probabilities %v / %v", opt, run, i, c, v.At(i-lo, c), whole.At(i, c), p.At(i-lo, c), wholeP.At(i, c))
						}
					}
				}
			}
		}
	}
}
