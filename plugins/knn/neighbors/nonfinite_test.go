package neighbors

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// TestExtremeValuesEnd is issue 55's property for the neighbour search,
// which has no iterations to bound: on iris with extreme feature values
// (reftest.ExtremeIris) every algorithm, metric and weighting fits and
// predicts without error, with finite non-negative votes, within a
// minute (a hang guard: the searches take milliseconds).
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
							if err != nil {
								t.Fatalf("error %v, want none", err)
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
