package discriminant

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// TestExtremeValuesEnd is issue 55's property for LDA: on iris with
// extreme feature values (reftest.ExtremeIris) every solver returns, a
// model or an error wrapping ErrNonFinite. Before, the lsqr solvers spun
// in gonum's SVD (Dbdsqr) on a covariance holding +Inf or NaN, and svd
// did on minmax1e308's NaN within-class data.
func TestExtremeValuesEnd(t *testing.T) {
	solvers := []struct {
		name string
		opts LDAOptions
	}{
		{"svd", LDAOptions{Solver: SolverSVD}},
		{"lsqr", LDAOptions{Solver: SolverLSQR}},
		{"lsqr_auto", LDAOptions{Solver: SolverLSQR, AutoShrinkage: true}},
		{"lsqr_0.5", LDAOptions{Solver: SolverLSQR, Shrinkage: 0.5}},
	}
	for _, kind := range reftest.ExtremeKinds {
		x, y := reftest.ExtremeIris(t, kind)
		for _, s := range solvers {
			t.Run(kind+"/"+s.name, func(t *testing.T) {
				// The svd solver whitens the point outliers away; the
				// others meet a non-finite matrix.
				wantModel := s.name == "svd" && kind != "minmax1e308"
				what, v := "the covariance", "+Inf"
				switch {
				case s.name == "lsqr_auto":
					v = "NaN"
				case s.name == "svd":
					what, v = "within-class data", "NaN"
				}
				want := fmt.Sprintf("discriminant: FitLDA (%s solver): non-finite value: entry (0, 0) of the SVD's input (%s) is %s", s.opts.Solver, what, v)
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				done := make(chan error, 1)
				go func() { _, err := FitLDA(x, y, 3, s.opts); done <- err }()
				var err error
				select {
				case err = <-done:
				case <-ctx.Done():
					t.Fatalf("FitLDA still running after a minute: it spins")
				}
				switch {
				case wantModel && err != nil:
					t.Errorf("error %v, want a model", err)
				case !wantModel && (!errors.Is(err, ErrNonFinite) || err.Error() != want):
					t.Errorf("error %v, want %q", err, want)
				}
			})
		}
	}
}

// TestRidgeExtremeValuesEnd: FitRidge (the lsq learner's solver) on iris
// with a sepal length of 1e160, row weights of 1e308 and one-hot targets
// ends with an error wrapping ErrNonFinite (the weighted centred design
// overflows) instead of entering gonum's SVD with it.
func TestRidgeExtremeValuesEnd(t *testing.T) {
	x, y := reftest.ExtremeIris(t, "1e160")
	w := make([]float64, len(y))
	for i := range w {
		w[i] = 1e308
	}
	tgt := mat.NewDense(len(y), 3, nil)
	for i, c := range y {
		tgt.Set(i, c, 1)
	}
	_, err := FitRidge(x, tgt, w, 1)
	want := "discriminant: FitRidge: non-finite value: entry (3, 0) of the SVD's input (the design) is +Inf"
	if !errors.Is(err, ErrNonFinite) || err.Error() != want {
		t.Errorf("FitRidge: error %v, want %q", err, want)
	}
}
