package linsvm

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// cvAccuracy runs the 10-fold CV of the reference on data set name, with
// fit returning a predictor for the standardised test rows.
func cvAccuracy(t *testing.T, name string, fit func(x Rows, y []int, k int) (func(x Rows, i int) int, error)) (acc []float64, nTest []int) {
	t.Helper()
	ds := reftest.Load(t, name)
	folds := reftest.Folds(t, name)
	if len(folds) != len(ds.Y) {
		t.Fatalf("%s: %d fold entries for %d rows", name, len(folds), len(ds.Y))
	}
	k := len(ds.Classes)
	for f := range 10 {
		xtr, ytr, xte, yte := reftest.Split(ds, folds, f)
		predict, err := fit(NewDense(xtr), ytr, k)
		if err != nil {
			t.Fatalf("%s fold %d: %v", name, f, err)
		}
		rows := NewDense(xte)
		var ok int
		for i, c := range yte {
			if predict(rows, i) == c {
				ok++
			}
		}
		acc = append(acc, float64(ok)/float64(len(yte)))
		nTest = append(nTest, len(yte))
	}
	return acc, nTest
}

// fitOvR returns a fitter of the K one-vs-rest hinge problems (C = 1,
// Bias = 1, tolerance tol) predicting the argmax of the decision values.
func fitOvR(tol float64) func(x Rows, y []int, k int) (func(x Rows, i int) int, error) {
	return func(x Rows, y []int, k int) (func(x Rows, i int) int, error) {
		models := make([]*Result, k)
		for c := range k {
			r, err := Fit(x, reftest.BinaryLabels(y, c), nil, parityOptions(tol))
			if err != nil {
				return nil, err
			}
			models[c] = r
		}
		f := make([]float64, k)
		return func(x Rows, i int) int {
			for c, m := range models {
				f[c] = m.Decision(x, i)
			}
			return floats.MaxIdx(f)
		}, nil
	}
}

// fitCS returns a fitter of Crammer–Singer (C = 1, Bias = 1, tolerance
// tol).
func fitCS(tol float64) func(x Rows, y []int, k int) (func(x Rows, i int) int, error) {
	return func(x Rows, y []int, k int) (func(x Rows, i int) int, error) {
		r, err := FitCrammerSinger(x, y, k, nil, parityOptions(tol))
		if err != nil {
			return nil, err
		}
		f := make([]float64, k)
		return func(x Rows, i int) int { return r.Predict(x, i, f) }, nil
	}
}

// parityOptions returns DefaultOptions with the given tolerance and a
// generous iteration cap.
func parityOptions(tol float64) Options {
	o := DefaultOptions()
	o.Tol = tol
	o.MaxIter = 100000
	return o
}

// TestParityLIBLINEAR checks per-fold accuracies of one-vs-rest hinge SVMs
// and Crammer–Singer against the references in sklearn_cv.jsonl (setups
// svm+ova and svm+crammer_singer, C = 1).
//
// The references sit at the optimum: solved to Tol 1e-3 (or tighter) every
// fold agrees within one test row, and 97 of the 100 folds agree exactly.
// At LIBLINEAR's default eps 0.1 the dual is far from converged and the
// predictions depend on the visiting order: on digits fold 6, for example,
// `liblinear-train -s 3 -c 1 -B 1` itself gets 177/180 where the reference
// has 176/180 (our seeds give 177 or 178), so the default-tolerance runs
// are held to two test rows.
func TestParityLIBLINEAR(t *testing.T) {
	type fitter = func(x Rows, y []int, k int) (func(x Rows, i int) int, error)
	for _, name := range []string{"iris", "wine", "vehicle", "digits", "segment"} {
		for _, tc := range []struct {
			setup string
			tol   float64
			rows  float64 // allowed test rows apart per fold
			fit   fitter
		}{
			{"svm+ova", 1e-3, 1, fitOvR(1e-3)},
			{"svm+crammer_singer", 1e-3, 1, fitCS(1e-3)},
			{"svm+ova", DefaultTol, 2, fitOvR(DefaultTol)},
			{"svm+crammer_singer", DefaultTol, 2, fitCS(DefaultTol)},
		} {
			t.Run(fmt.Sprintf("%s/%s/tol=%g", name, tc.setup, tc.tol), func(t *testing.T) {
				if testing.Short() && (name == "digits" || name == "segment") {
					t.Skip("large data set skipped in -short mode")
				}
				want := reftest.SklearnAccuracy(t, name, tc.setup)
				got, nTest := cvAccuracy(t, name, tc.fit)
				exact := 0
				for f := range got {
					rows := math.Abs(got[f]-want[f]) * float64(nTest[f])
					if rows < 1e-3 {
						exact++
					}
					if rows > tc.rows+1e-3 {
						t.Errorf("fold %d: accuracy %.6f, reference %.6f (%.1f test rows apart)", f, got[f], want[f], rows)
					}
				}
				t.Logf("mean accuracy %.4f, reference %.4f, %d of 10 folds identical", floats.Sum(got)/10, floats.Sum(want)/10, exact)
			})
		}
	}
}
