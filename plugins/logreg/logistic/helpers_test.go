package logistic

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
// (/work/main/plugins/logreg/logistic).
const sharedDir = "../../../../shared"

// dataset is a numeric classification data set with string classes.
type dataset struct {
	x       *mat.Dense
	classes []string // sorted distinct class values
	y       []int    // index into classes
}

// loadDataset reads ../data/NAME.csv (all features numeric, class last) or
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
		for j := 0; j < d; j++ {
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

// standardize returns (x − mean)/std with mean and population std taken
// over the rows listed in fit; a constant column gets scale 1.
func standardize(x *mat.Dense, fit []int, rows []int) *mat.Dense {
	_, d := x.Dims()
	out := mat.NewDense(len(rows), d, nil)
	col := make([]float64, len(fit))
	for j := 0; j < d; j++ {
		for k, i := range fit {
			col[k] = x.At(i, j)
		}
		mean, variance := stat.PopMeanVariance(col, nil)
		sd := math.Sqrt(variance)
		if sd == 0 {
			sd = 1
		}
		for k, i := range rows {
			out.Set(k, j, (x.At(i, j)-mean)/sd)
		}
	}
	return out
}

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
	m := &sparse.CSR{Rows: n, Cols: d, Indptr: make([]int64, n+1)}
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			if v := x.At(i, j); v != 0 {
				m.Indices = append(m.Indices, int32(j))
				m.Values = append(m.Values, v)
			}
		}
		m.Indptr[i+1] = int64(len(m.Values))
	}
	return m
}

// binaryLabels returns +1 for rows of class pos and −1 otherwise.
func binaryLabels(y []int, pos int) []float64 {
	out := make([]float64, len(y))
	for i, c := range y {
		if c == pos {
			out[i] = 1
		} else {
			out[i] = -1
		}
	}
	return out
}
