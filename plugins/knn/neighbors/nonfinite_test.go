package neighbors

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// TestExtremeValuesEnd is issue 55's property for the neighbour search,
// which has no iterations to bound: on iris with extreme feature values
// (reftest.ExtremeIris) every algorithm, metric and weighting fits and
// predicts within a minute (a hang guard: the searches take
// milliseconds), either with finite non-negative votes or, where the
// distances overflow (every Euclidean case, whose squares pass 1.8e308,
// and Manhattan sums on minmax1e308), with an error that says so.
func TestExtremeValuesEnd(t *testing.T) {
	for _, kind := range reftest.ExtremeKinds {
		x, y := reftest.ExtremeIris(t, kind)
		for _, a := range []Algorithm{Brute, KDTree} {
			for _, m := range []Metric{Euclidean, Manhattan, Cosine} {
				if a == KDTree && m == Cosine {
					continue // not a combination Fit takes
				}
				for _, w := range []Weighting{Uniform, Distance} {
					t.Run(fmt.Sprintf("%s/%v/%v/%v", kind, a, m, w), func(t *testing.T) {
						votes := mat.NewDense(len(y), 3, nil)
						done := make(chan error, 1)
						go func() {
							c, err := Fit(matrix.Matrix{Dense: x}, y, 3, Options{K: 5, Algorithm: a, Metric: m, Weights: w})
							if err == nil {
								err = c.Predict(matrix.Matrix{Dense: x}, votes, nil)
							}
							done <- err
						}()
						ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
						defer cancel()
						select {
						case err := <-done:
							// A Euclidean distance to or from the extreme
							// value overflows (its square passes 1.8e308):
							// an error that says so, never a constant answer.
							if err != nil && (m == Euclidean || kind == "minmax1e308") && strings.Contains(err.Error(), "overflow") {
								return
							}
							if err != nil {
								t.Fatalf("error %v, want none", err)
							}
							if m == Euclidean {
								t.Fatalf("no error, want the overflow of the squared distances said")
							}
						case <-ctx.Done():
							t.Fatalf("still running after a minute: the search spins")
						}
						for i, v := range votes.RawMatrix().Data {
							if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
								t.Fatalf("vote %d (row %d) is %v, want finite and ≥ 0", i, i/3, v)
							}
						}
					})
				}
			}
		}
	}
}

// TestOverflowingDistancesRefused: iris with every feature multiplied by
// 2^515, about 1e155 (campaign 11e's C11 multiplied by 1e155): the
// squared Euclidean distances overflow,
// and the prediction ends with an error naming the overflow, for both
// algorithms; before, every heap stayed empty and every row was given
// one class (accuracy 1/3, no word). Multiplied by 2^500, about 3e150 (a
// power of two: every distance scaled exactly), the neighbours are
// iris's own: the same votes as on iris.
func TestOverflowingDistancesRefused(t *testing.T) {
	ds := reftest.Load(t, "iris")
	plain, y := mat.DenseCopyOf(ds.X), ds.Y
	for _, a := range []Algorithm{Brute, KDTree} {
		want := predictVotes(t, plain, y, a)
		for _, tc := range []struct {
			scale    float64
			overflow bool
		}{{math.Ldexp(1, 500), false}, {math.Ldexp(1, 515), true}} {
			x := mat.DenseCopyOf(plain)
			x.Scale(tc.scale, x)
			c, err := Fit(matrix.Matrix{Dense: x}, y, 3, Options{K: 5, Algorithm: a, Metric: Euclidean, Weights: Uniform})
			if err != nil {
				t.Fatal(err)
			}
			votes := mat.NewDense(len(y), 3, nil)
			err = c.Predict(matrix.Matrix{Dense: x}, votes, nil)
			switch {
			case tc.overflow && (err == nil || !strings.Contains(err.Error(), "overflow")):
				t.Errorf("%v ×%g: error %v, want the overflow said", a, tc.scale, err)
			case !tc.overflow && err != nil:
				t.Errorf("%v ×%g: error %v", a, tc.scale, err)
			case !tc.overflow && !mat.Equal(votes, want):
				t.Errorf("%v ×%g: votes differ from iris's", a, tc.scale)
			}
		}
	}
}

// predictVotes fits k = 5 uniform Euclidean neighbours on x and returns
// the votes of x's own rows.
func predictVotes(t *testing.T, x *mat.Dense, y []int, a Algorithm) *mat.Dense {
	t.Helper()
	c, err := Fit(matrix.Matrix{Dense: x}, y, 3, Options{K: 5, Algorithm: a, Metric: Euclidean, Weights: Uniform})
	if err != nil {
		t.Fatal(err)
	}
	votes := mat.NewDense(len(y), 3, nil)
	if err := c.Predict(matrix.Matrix{Dense: x}, votes, nil); err != nil {
		t.Fatal(err)
	}
	return votes
}

// TestOverflowingNorms is campaign 11f's case: the cosine metric on iris
// ×1e160 made every row norm +Inf, every normalised row 0 and every
// distance 1, and each fold predicted one class without a word. A sum of
// squares that overflows now gets its norm with scaling: the votes of
// iris ×1e160 are iris's own, as the metric is free of scale. A norm
// beyond 1.8e308 (a row of four values 1e308) ends the fit (training
// rows) or the prediction (rows to predict) with an error naming the row.
func TestOverflowingNorms(t *testing.T) {
	ds := reftest.Load(t, "iris")
	plain, y := mat.DenseCopyOf(ds.X), ds.Y
	opt := Options{K: 5, Algorithm: Brute, Metric: Cosine, Weights: Uniform}
	fit := func(x *mat.Dense) (*Classifier, error) { return Fit(matrix.Matrix{Dense: x}, y, 3, opt) }
	c, err := fit(plain)
	if err != nil {
		t.Fatal(err)
	}
	want := mat.NewDense(len(y), 3, nil)
	if err := c.Predict(matrix.Matrix{Dense: plain}, want, nil); err != nil {
		t.Fatal(err)
	}
	huge := mat.DenseCopyOf(plain)
	huge.Scale(1e160, huge)
	if c, err = fit(huge); err != nil {
		t.Fatalf("×1e160: %v", err)
	}
	votes := mat.NewDense(len(y), 3, nil)
	if err := c.Predict(matrix.Matrix{Dense: huge}, votes, nil); err != nil || !mat.Equal(votes, want) {
		t.Errorf("×1e160: error %v, or votes that differ from iris's", err)
	}
	beyond := mat.DenseCopyOf(plain)
	beyond.SetRow(1, []float64{1e308, 1e308, 1e308, 1e308})
	if _, err := fit(beyond); err == nil || !strings.Contains(err.Error(), "the norm of training row 2 overflows") {
		t.Errorf("training row 2 of four values 1e308: error %v, want its overflow said", err)
	}
	if err := c.Predict(matrix.Matrix{Dense: beyond}, votes, nil); err == nil || !strings.Contains(err.Error(), "the norm of row 2 overflows") {
		t.Errorf("row to predict 2 of four values 1e308: error %v, want its overflow said", err)
	}
}
