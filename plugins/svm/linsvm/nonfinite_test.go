package linsvm

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// within runs f and fails the test when it does not return within a
// minute (the fits take milliseconds): a hang guard, not a timing.
func within(t *testing.T, f func()) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatalf("still running after a minute: the solver spins")
	}
}

// TestExtremeValuesEndWithinBound is issue 55's property for the dual
// coordinate descent (Fit, both losses) and Crammer–Singer solvers: on
// iris with extreme feature values (reftest.ExtremeIris) they end with an
// error wrapping ErrNonFinite, naming the row whose squared norm
// overflows; on plain iris with C or row weights of 1e308 or all row
// weights 0 they return a model within MaxIter iterations. Before, the
// extreme rows' Q̄ᵢᵢ was +Inf and the solvers returned models that
// ignored them (minmax1e308: w = 0, a constant model) as converged.
func TestExtremeValuesEndWithinBound(t *testing.T) {
	const maxIter = 200
	weights := []struct{ c, w float64 }{{1, -1}, {1e308, -1}, {1, 1e308}, {1, 0}} // C and every row weight (-1: none)
	for _, kind := range append([]string{"plain"}, reftest.ExtremeKinds...) {
		var x *mat.Dense
		var y []int
		if kind == "plain" {
			ds := reftest.Load(t, "iris")
			x, y = ds.X, ds.Y
		} else {
			x, y = reftest.ExtremeIris(t, kind)
		}
		wantRow := 3
		if kind == "minmax1e308" {
			wantRow = 0
		}
		for _, tt := range weights {
			var s []float64
			if tt.w >= 0 {
				s = make([]float64, len(y))
				for i := range s {
					s[i] = tt.w
				}
			}
			check := func(t *testing.T, err error, iters int) {
				t.Helper()
				want := fmt.Sprintf("linsvm: non-finite value: row %d: its squared norm (with the bias feature) is +Inf", wantRow)
				switch {
				case kind != "plain" && tt.w != 0 && (!errors.Is(err, ErrNonFinite) || err.Error() != want):
					t.Errorf("error %v, want %q", err, want)
				case (kind == "plain" || tt.w == 0) && err != nil:
					t.Errorf("error %v, want a model", err)
				case err == nil && iters > maxIter:
					t.Errorf("%d iterations, want at most %d", iters, maxIter)
				}
			}
			for _, loss := range []string{LossHinge, LossSquaredHinge} {
				t.Run(fmt.Sprintf("%s/%s/C=%g/w=%g", kind, loss, tt.c, tt.w), func(t *testing.T) {
					var r *Result
					var err error
					within(t, func() {
						r, err = Fit(NewDense(x), reftest.BinaryLabels(y, 0), s, Options{C: tt.c, Loss: loss, Bias: 1, MaxIter: maxIter})
					})
					check(t, err, iterations(r))
				})
			}
			t.Run(fmt.Sprintf("%s/crammer_singer/C=%g/w=%g", kind, tt.c, tt.w), func(t *testing.T) {
				var r *CSResult
				var err error
				within(t, func() {
					r, err = FitCrammerSinger(NewDense(x), y, 3, s, Options{C: tt.c, Bias: 1, MaxIter: maxIter})
				})
				iters := 0
				if r != nil {
					iters = r.Iterations
				}
				check(t, err, iters)
			})
		}
	}
}

// iterations returns r's iterations, 0 for nil.
func iterations(r *Result) int {
	if r == nil {
		return 0
	}
	return r.Iterations
}
