package linsvm

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// breastCancer returns breast_cancer.csv standardised over the whole file
// with y = +1 for malignant.
func breastCancer(tb testing.TB) (*mat.Dense, []float64) {
	tb.Helper()
	ds := reftest.Load(tb, "breast_cancer")
	return ds.Standardized(), reftest.BinaryLabels(ds.Y, ds.Class(tb, "malignant"))
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

// wholeFile returns data set NAME standardised over the whole file, its
// classes and their number.
func wholeFile(tb testing.TB, name string) (*mat.Dense, []int, int) {
	tb.Helper()
	ds := reftest.Load(tb, name)
	return ds.Standardized(), ds.Y, len(ds.Classes)
}
