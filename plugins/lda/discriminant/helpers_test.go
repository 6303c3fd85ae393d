package discriminant

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// sharedDir is /work/shared seen from this package (/work/main/plugins/lda/discriminant).
const sharedDir = "../../../../shared"

// dataset is a numeric data file with classes indexed in sorted string order.
type dataset struct {
	x       *mat.Dense
	y       []int
	classes []string
}

// loadDataset reads shared/data/NAME.csv (numeric features, class last),
// skipping the test when the shared data is missing.
func loadDataset(tb testing.TB, name string) dataset {
	tb.Helper()
	path := filepath.Join(sharedDir, "data", name+".csv")
	f, err := os.Open(path)
	if err != nil {
		tb.Skipf("shared data missing (%v): skipping", err)
	}
	defer f.Close()
	r := csv.NewReader(bufio.NewReader(f))
	header, err := r.Read()
	if err != nil {
		tb.Fatalf("read %s header: %v", path, err)
	}
	d := len(header) - 1
	var vals []float64
	var labels []string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatalf("read %s: %v", path, err)
		}
		for j := 0; j < d; j++ {
			v, err := strconv.ParseFloat(rec[j], 64)
			if err != nil {
				tb.Fatalf("%s: column %s: %v", path, header[j], err)
			}
			vals = append(vals, v)
		}
		labels = append(labels, rec[d])
	}
	classes := slices.Clone(labels)
	slices.Sort(classes)
	classes = slices.Compact(classes)
	y := make([]int, len(labels))
	for i, l := range labels {
		y[i], _ = slices.BinarySearch(classes, l)
	}
	return dataset{x: mat.NewDense(len(labels), d, vals), y: y, classes: classes}
}

// loadFolds reads shared/reference/folds/NAME.folds.csv.
func loadFolds(tb testing.TB, name string) []int {
	tb.Helper()
	path := filepath.Join(sharedDir, "reference", "folds", name+".folds.csv")
	f, err := os.Open(path)
	if err != nil {
		tb.Skipf("shared fold file missing (%v): skipping", err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		tb.Fatalf("read %s: %v", path, err)
	}
	folds := make([]int, len(recs)-1)
	for i, rec := range recs[1:] {
		folds[i], err = strconv.Atoi(rec[0])
		if err != nil {
			tb.Fatalf("%s row %d: %v", path, i+1, err)
		}
	}
	return folds
}

// split returns the standardised training and test parts of fold k: the
// scaler (mean, population std, constant column → scale 1) is fitted on
// the training part.
func split(ds dataset, folds []int, k int) (xtr *mat.Dense, ytr []int, xte *mat.Dense, yte []int) {
	n, d := ds.x.Dims()
	var tr, te []int
	for i := 0; i < n; i++ {
		if folds[i] == k {
			te = append(te, i)
		} else {
			tr = append(tr, i)
		}
	}
	mean := make([]float64, d)
	scale := make([]float64, d)
	for j := 0; j < d; j++ {
		var s float64
		for _, i := range tr {
			s += ds.x.At(i, j)
		}
		mean[j] = s / float64(len(tr))
		var ss float64
		for _, i := range tr {
			v := ds.x.At(i, j) - mean[j]
			ss += v * v
		}
		scale[j] = math.Sqrt(ss / float64(len(tr)))
		if scale[j] == 0 {
			scale[j] = 1
		}
	}
	pick := func(rows []int) (*mat.Dense, []int) {
		x := mat.NewDense(len(rows), d, nil)
		y := make([]int, len(rows))
		for r, i := range rows {
			for j := 0; j < d; j++ {
				x.Set(r, j, (ds.x.At(i, j)-mean[j])/scale[j])
			}
			y[r] = ds.y[i]
		}
		return x, y
	}
	xtr, ytr = pick(tr)
	xte, yte = pick(te)
	return xtr, ytr, xte, yte
}

// cvRef is one line of shared/reference/sklearn_cv.jsonl.
type cvRef struct {
	Dataset  string    `json:"dataset"`
	Setup    string    `json:"setup"`
	AccFolds []float64 `json:"acc_folds"`
}

// loadCVRef returns the acc_folds of (dataset, setup).
func loadCVRef(tb testing.TB, dataset, setup string) []float64 {
	tb.Helper()
	path := filepath.Join(sharedDir, "reference", "sklearn_cv.jsonl")
	f, err := os.Open(path)
	if err != nil {
		tb.Skipf("shared reference missing (%v): skipping", err)
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	for {
		var r cvRef
		if err := dec.Decode(&r); err == io.EOF {
			break
		} else if err != nil {
			tb.Fatalf("decode %s: %v", path, err)
		}
		if r.Dataset == dataset && r.Setup == setup {
			return r.AccFolds
		}
	}
	tb.Fatalf("%s: no entry for %s/%s", path, dataset, setup)
	return nil
}

func accuracy(pred, y []int) float64 {
	c := 0
	for i := range y {
		if pred[i] == y[i] {
			c++
		}
	}
	return float64(c) / float64(len(y))
}
