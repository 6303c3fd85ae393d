package linsvm

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/polyclass/polyclass/framework/sparse"
)

// sharedDir is /work/shared seen from this package directory
// (/work/main/plugins/svm/linsvm).
const sharedDir = "../../../../shared"

// dataset is a numeric classification data set with string classes.
type dataset struct {
	x       *mat.Dense
	classes []string // sorted distinct class values
	y       []int    // index into classes
}

// loadDataset reads data/NAME.csv (all features numeric, class last) or
// skips the test when it is missing.
func loadDataset(tb testing.TB, name string) *dataset {
	tb.Helper()
	path := filepath.Join(sharedDir, "data", name+".csv")
	f, err := os.Open(path)
	if err != nil {
		tb.Skipf("shared data set %s not available: %v", path, err)
	}
	defer f.Close()
	recs, err := csv.NewReader(bufio.NewReader(f)).ReadAll()
	if err != nil {
		tb.Fatalf("reading %s: %v", path, err)
	}
	recs = recs[1:]
	n, d := len(recs), len(recs[0])-1
	x := mat.NewDense(n, d, nil)
	labels := make([]string, n)
	for i, r := range recs {
		for j := range d {
			v, err := strconv.ParseFloat(r[j], 64)
			if err != nil {
				tb.Fatalf("%s row %d col %d: %v", path, i, j, err)
			}
			x.Set(i, j, v)
		}
		labels[i] = r[d]
	}
	classes := slices.Clone(labels)
	slices.Sort(classes)
	classes = slices.Compact(classes)
	y := make([]int, n)
	for i, l := range labels {
		y[i], _ = slices.BinarySearch(classes, l)
	}
	return &dataset{x: x, classes: classes, y: y}
}

// loadFolds reads reference/folds/NAME.folds.csv or skips.
func loadFolds(tb testing.TB, name string) []int {
	tb.Helper()
	path := filepath.Join(sharedDir, "reference", "folds", name+".folds.csv")
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Skipf("fold file %s not available: %v", path, err)
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		tb.Fatalf("reading %s: %v", path, err)
	}
	folds := make([]int, len(recs)-1)
	for i, r := range recs[1:] {
		folds[i], err = strconv.Atoi(r[0])
		if err != nil {
			tb.Fatalf("%s row %d: %v", path, i, err)
		}
	}
	return folds
}

// sklearnAcc returns acc_folds of (dataset, setup) in sklearn_cv.jsonl or
// skips.
func sklearnAcc(tb testing.TB, name, setup string) []float64 {
	tb.Helper()
	path := filepath.Join(sharedDir, "reference", "sklearn_cv.jsonl")
	f, err := os.Open(path)
	if err != nil {
		tb.Skipf("reference %s not available: %v", path, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var rec struct {
			Dataset  string    `json:"dataset"`
			Setup    string    `json:"setup"`
			AccFolds []float64 `json:"acc_folds"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			tb.Fatalf("parsing %s: %v", path, err)
		}
		if rec.Dataset == name && rec.Setup == setup {
			return rec.AccFolds
		}
	}
	tb.Fatalf("no %s/%s entry in %s", name, setup, path)
	return nil
}

// standardize returns the rows `rows` of x standardised with the mean and
// population standard deviation of the rows `fit` (constant column: scale
// 1).
func standardize(x *mat.Dense, fit, rows []int) *mat.Dense {
	_, d := x.Dims()
	mean := make([]float64, d)
	std := make([]float64, d)
	col := make([]float64, len(fit))
	for j := range d {
		for k, i := range fit {
			col[k] = x.At(i, j)
		}
		m, v := stat.PopMeanVariance(col, nil)
		mean[j] = m
		std[j] = 1
		if v > 0 {
			std[j] = math.Sqrt(v)
		}
	}
	out := mat.NewDense(len(rows), d, nil)
	for k, i := range rows {
		for j := range d {
			out.Set(k, j, (x.At(i, j)-mean[j])/std[j])
		}
	}
	return out
}

// seq returns 0..n−1.
func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// toCSR converts a dense matrix to CSR, dropping exact zeros.
func toCSR(x *mat.Dense) *sparse.CSR {
	n, d := x.Dims()
	m := &sparse.CSR{Rows: n, Cols: d, Indptr: make([]int64, 1, n+1)}
	for i := range n {
		for j := range d {
			if v := x.At(i, j); v != 0 {
				m.Indices = append(m.Indices, int32(j))
				m.Values = append(m.Values, v)
			}
		}
		m.Indptr = append(m.Indptr, int64(len(m.Values)))
	}
	return m
}

// binaryLabels returns +1 for class c and −1 otherwise.
func binaryLabels(y []int, c int) []float64 {
	out := make([]float64, len(y))
	for i, v := range y {
		out[i] = -1
		if v == c {
			out[i] = 1
		}
	}
	return out
}

// optimum is one entry of breast_cancer_optima.json.
type optimum struct {
	Objective float64   `json:"objective"`
	W         []float64 `json:"w"`
	B         float64   `json:"b"`
}

// loadOptima reads reference/breast_cancer_optima.json or skips.
func loadOptima(tb testing.TB) map[string]optimum {
	tb.Helper()
	path := filepath.Join(sharedDir, "reference", "breast_cancer_optima.json")
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Skipf("reference %s not available: %v", path, err)
	}
	var m map[string]optimum
	if err := json.Unmarshal(b, &m); err != nil {
		tb.Fatalf("parsing %s: %v", path, err)
	}
	return m
}

// breastCancer returns breast_cancer.csv standardised over the whole file
// with y = +1 for malignant.
func breastCancer(tb testing.TB) (*mat.Dense, []float64) {
	tb.Helper()
	ds := loadDataset(tb, "breast_cancer")
	n, _ := ds.x.Dims()
	mal, ok := slices.BinarySearch(ds.classes, "malignant")
	if !ok {
		tb.Fatalf("breast_cancer classes %v lack malignant", ds.classes)
	}
	return standardize(ds.x, seq(n), seq(n)), binaryLabels(ds.y, mal)
}

// libRef is one entry of testdata/liblinear_ref.json (see gen_liblinear.py).
type libRef struct {
	Objective float64     `json:"objective"`
	W         [][]float64 `json:"W"`
	B         []float64   `json:"B"`
	WBin      []float64   `json:"w"`
	BBin      float64     `json:"b"`
}

// loadLibRef reads testdata/liblinear_ref.json.
func loadLibRef(tb testing.TB) map[string]libRef {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "liblinear_ref.json"))
	if err != nil {
		tb.Fatalf("reading LIBLINEAR references: %v", err)
	}
	var m map[string]libRef
	if err := json.Unmarshal(b, &m); err != nil {
		tb.Fatalf("parsing liblinear_ref.json: %v", err)
	}
	return m
}

// wholeFile returns data set NAME standardised over the whole file.
func wholeFile(tb testing.TB, name string) (*mat.Dense, []int, int) {
	tb.Helper()
	ds := loadDataset(tb, name)
	n, _ := ds.x.Dims()
	return standardize(ds.x, seq(n), seq(n)), ds.y, len(ds.classes)
}
