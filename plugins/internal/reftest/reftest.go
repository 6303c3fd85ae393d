// Package reftest holds the test helpers the solver packages under plugins/
// share: loading the classification data sets and reference files kept in
// the repository's testdata directory (see internal/refdata),
// standardising fold splits the way the references did, and small
// conversions (dense → CSR, one-vs-rest labels, accuracy).
//
// Every loader takes a testing.TB and fails the test when the requested
// file is missing or malformed.
package reftest

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/sparse"
	"github.com/polyclass/polyclass/internal/refdata"
)

// Dataset is a numeric classification data set with string classes.
type Dataset struct {
	// X holds the features, one row per example.
	X *mat.Dense
	// Classes are the distinct class values in sorted string order.
	Classes []string
	// Y holds the class of each row as an index into Classes.
	Y []int
}

// Optimum is one entry of reference/breast_cancer_optima.json: the exact
// optimum of a regularised binary problem on the whole-file standardised
// breast cancer data.
type Optimum struct {
	// Objective is the optimal objective value.
	Objective float64 `json:"objective"`
	// W is the optimal weight vector.
	W []float64 `json:"w"`
	// B is the optimal bias.
	B float64 `json:"b"`
}

// Load reads the data set NAME.csv (a header row, numeric features, class
// last) from the repository's testdata, compressed or not.
func Load(tb testing.TB, name string) *Dataset {
	tb.Helper()
	path := refdata.Data(tb, name+".csv")
	f, err := refdata.Open(path)
	if err != nil {
		tb.Fatalf("opening data set: %v", err)
	}
	defer f.Close()
	ds, err := ReadCSV(f)
	if err != nil {
		tb.Fatalf("reading %s: %v", path, err)
	}
	return ds
}

// ReadCSV parses a data set: a header row, then rows of numeric features
// with the class value last.
func ReadCSV(r io.Reader) (*Dataset, error) {
	recs, err := csv.NewReader(bufio.NewReader(r)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("parsing CSV: %w", err)
	}
	if len(recs) < 2 || len(recs[0]) < 2 {
		return nil, fmt.Errorf("need a header, at least one row and two columns, got %d records", len(recs))
	}
	header, recs := recs[0], recs[1:]
	n, d := len(recs), len(header)-1
	x := mat.NewDense(n, d, nil)
	labels := make([]string, n)
	for i, rec := range recs {
		for j := range d {
			v, err := strconv.ParseFloat(rec[j], 64)
			if err != nil {
				return nil, fmt.Errorf("row %d column %s: %w", i+1, header[j], err)
			}
			x.Set(i, j, v)
		}
		labels[i] = rec[d]
	}
	classes := slices.Clone(labels)
	slices.Sort(classes)
	classes = slices.Compact(classes)
	y := make([]int, n)
	for i, l := range labels {
		y[i], _ = slices.BinarySearch(classes, l)
	}
	return &Dataset{X: x, Classes: classes, Y: y}, nil
}

// Class returns the index of class value c, failing the test when the data
// set has no such class.
func (ds *Dataset) Class(tb testing.TB, c string) int {
	tb.Helper()
	k, ok := slices.BinarySearch(ds.Classes, c)
	if !ok {
		tb.Fatalf("no class %q in %v", c, ds.Classes)
	}
	return k
}

// Standardized returns X standardised with the mean and population
// standard deviation of the whole file (see Standardize).
func (ds *Dataset) Standardized() *mat.Dense {
	n, _ := ds.X.Dims()
	all := Seq(n)
	return Standardize(ds.X, all, all)
}

// Folds reads the fold of each row from reference/folds/NAME.folds.csv
// (a header, then one `fold` column) or skips the test when it is missing.
func Folds(tb testing.TB, name string) []int {
	tb.Helper()
	path := refdata.Reference(tb, "folds", name+".folds.csv")
	f, err := os.Open(path)
	if err != nil {
		tb.Fatalf("opening fold file: %v", err)
	}
	defer f.Close()
	recs, err := csv.NewReader(bufio.NewReader(f)).ReadAll()
	if err != nil {
		tb.Fatalf("reading %s: %v", path, err)
	}
	if len(recs) == 0 {
		tb.Fatalf("%s: empty fold file", path)
	}
	folds := make([]int, len(recs)-1)
	for i, rec := range recs[1:] {
		if folds[i], err = strconv.Atoi(rec[0]); err != nil {
			tb.Fatalf("%s row %d: %v", path, i+1, err)
		}
	}
	return folds
}

// SklearnAccuracy returns the per-fold test accuracies (acc_folds) of the
// (name, setup) entry of reference/sklearn_cv.jsonl, skipping the test
// when the file is missing and failing it when it has no such entry.
func SklearnAccuracy(tb testing.TB, name, setup string) []float64 {
	tb.Helper()
	path := refdata.Reference(tb, "sklearn_cv.jsonl")
	f, err := os.Open(path)
	if err != nil {
		tb.Fatalf("opening reference: %v", err)
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReader(f))
	for {
		var rec struct {
			Dataset  string    `json:"dataset"`
			Setup    string    `json:"setup"`
			AccFolds []float64 `json:"acc_folds"`
		}
		if err := dec.Decode(&rec); err == io.EOF {
			break
		} else if err != nil {
			tb.Fatalf("parsing %s: %v", path, err)
		}
		if rec.Dataset == name && rec.Setup == setup {
			return rec.AccFolds
		}
	}
	tb.Fatalf("no %s/%s entry in %s", name, setup, path)
	return nil
}

// Optima reads reference/breast_cancer_optima.json, keyed by setup name
// (e.g. "logreg_C1"), or skips the test when it is missing.
func Optima(tb testing.TB) map[string]Optimum {
	tb.Helper()
	path := refdata.Reference(tb, "breast_cancer_optima.json")
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("reading reference: %v", err)
	}
	var m map[string]Optimum
	if err := json.Unmarshal(b, &m); err != nil {
		tb.Fatalf("parsing %s: %v", path, err)
	}
	return m
}

// Standardize returns the rows `rows` of x (in that order) standardised
// with the mean and population standard deviation of column values over
// the rows `fit`; a constant column gets scale 1.
func Standardize(x *mat.Dense, fit, rows []int) *mat.Dense {
	_, d := x.Dims()
	mean := make([]float64, d)
	scale := make([]float64, d)
	col := make([]float64, len(fit))
	for j := range d {
		for k, i := range fit {
			col[k] = x.At(i, j)
		}
		m, v := stat.PopMeanVariance(col, nil)
		mean[j], scale[j] = m, 1
		if v > 0 {
			scale[j] = math.Sqrt(v)
		}
	}
	out := mat.NewDense(len(rows), d, nil)
	for k, i := range rows {
		for j := range d {
			out.Set(k, j, (x.At(i, j)-mean[j])/scale[j])
		}
	}
	return out
}

// NumpyStandardize returns the rows `rows` of x standardised as the
// reference generators do with NumPy (np.mean and np.std along axis 0):
// column means and population variances over the rows `fit`, each a
// plain sum in row order (Standardize's compensated sums may differ in
// the last bits), a zero standard deviation replaced by 1.
func NumpyStandardize(x *mat.Dense, fit, rows []int) *mat.Dense {
	_, d := x.Dims()
	mean, sd := make([]float64, d), make([]float64, d)
	for j := range d {
		var s float64
		for _, i := range fit {
			s += x.At(i, j)
		}
		mean[j] = s / float64(len(fit))
		var v float64
		for _, i := range fit {
			t := x.At(i, j) - mean[j]
			v += float64(t * t) // the conversion keeps the product rounded (no fused multiply-add)
		}
		sd[j] = math.Sqrt(v / float64(len(fit)))
		if sd[j] == 0 {
			sd[j] = 1
		}
	}
	out := mat.NewDense(len(rows), d, nil)
	for k, i := range rows {
		for j := range d {
			out.Set(k, j, (x.At(i, j)-mean[j])/sd[j])
		}
	}
	return out
}

// Split returns the training and test parts of fold k (rows in file order,
// see cv.Split), both standardised with the training part's statistics
// (see Standardize), and their classes.
func Split(ds *Dataset, folds []int, k int) (xtr *mat.Dense, ytr []int, xte *mat.Dense, yte []int) {
	train, test := cv.Split(folds, k)
	return Standardize(ds.X, train, train), Pick(ds.Y, train),
		Standardize(ds.X, train, test), Pick(ds.Y, test)
}

// Pick returns y[rows[0]], y[rows[1]], ….
func Pick(y []int, rows []int) []int {
	out := make([]int, len(rows))
	for k, i := range rows {
		out[k] = y[i]
	}
	return out
}

// Seq returns 0, 1, …, n−1.
func Seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// CSR converts a dense matrix to CSR, dropping exact zeros.
func CSR(x *mat.Dense) *sparse.CSR {
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

// BinaryLabels returns +1 for the rows of class pos and −1 for the others.
func BinaryLabels(y []int, pos int) []float64 {
	out := make([]float64, len(y))
	for i, c := range y {
		out[i] = -1
		if c == pos {
			out[i] = 1
		}
	}
	return out
}

// OneVsRest returns BinaryLabels(y, c) for c = 0, …, k−1.
func OneVsRest(y []int, k int) [][]float64 {
	out := make([][]float64, k)
	for c := range out {
		out[c] = BinaryLabels(y, c)
	}
	return out
}

// Accuracy returns the fraction of rows with pred[i] == y[i] (NaN for no
// rows).
func Accuracy(pred, y []int) float64 {
	ok := 0
	for i := range y {
		if pred[i] == y[i] {
			ok++
		}
	}
	return float64(ok) / float64(len(y))
}

// DiabetesLike returns an n-row CSR design shaped like diabetes130 after
// impute → standardize → one-hot, seeded by n: 12 standard normal
// columns, then 35 one-hot groups of 70 columns with skewed levels (as
// diagnosis codes are), 2462 columns, 47 entries a row, 35 of them 1.
func DiabetesLike(n int) *sparse.CSR {
	rng := rand.New(rand.NewPCG(2, uint64(n)))
	const numeric, groups, width = 12, 35, 70
	m := &sparse.CSR{Rows: n, Cols: numeric + groups*width, Indptr: make([]int64, n+1)}
	for i := range n {
		for j := range numeric {
			m.Indices = append(m.Indices, int32(j))
			m.Values = append(m.Values, rng.NormFloat64())
		}
		for g := range groups {
			lvl := min(int(rng.ExpFloat64()*8), width-1)
			m.Indices = append(m.Indices, int32(numeric+g*width+lvl))
			m.Values = append(m.Values, 1)
		}
		m.Indptr[i+1] = int64(len(m.Values))
	}
	return m
}
