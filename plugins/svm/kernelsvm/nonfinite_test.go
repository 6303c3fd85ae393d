package kernelsvm

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// TestExtremeValuesEndWithinBound is issue 55's property for the SMO
// solver: on iris with extreme feature values (see reftest.ExtremeIris),
// C or row weights of 1e308 and all row weights 0, one-vs-rest setosa
// ends with an error wrapping ErrNonFinite (a kernel value that
// overflowed); on plain iris with those C and weights, with a model within
// the solver's iteration bound max(10⁷, 100·l). Before, the kernel values were +Inf or NaN and the
// solver iterated on them; the models were meaningless.
func TestExtremeValuesEndWithinBound(t *testing.T) {
	kernels := []Kernel{{Type: Linear}, {Type: RBF, Gamma: 0.25}, {Type: Poly, Gamma: 1, Degree: 3, Coef0: 1}}
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
		rows := reftest.Seq(len(y))
		bound := max(10000000, 100*len(rows))
		for _, k := range kernels {
			for _, tt := range weights {
				t.Run(fmt.Sprintf("%s/%s/C=%g/w=%g", kind, k.Type, tt.c, tt.w), func(t *testing.T) {
					p := Problem{Rows: rows, Targets: reftest.BinaryLabels(y, 0)}
					if tt.w >= 0 {
						p.Weights = make([]float64, len(rows))
						for i := range p.Weights {
							p.Weights[i] = tt.w
						}
					}
					ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
					defer cancel()
					ms, err := Train(ctx, NewDense(x), []Problem{p}, Options{Kernel: k, C: tt.c, Probability: true}, 1)
					switch {
					case errors.Is(err, context.DeadlineExceeded):
						t.Fatalf("Train still running after 60 s: the solver spins")
					case kind != "plain" && !errors.Is(err, ErrNonFinite):
						// Every kernel's K(x, x) overflows (linear, poly) or
						// is ∞ − ∞ (rbf's ‖x‖² + ‖x‖² − 2x·x).
						t.Errorf("error %v, want one wrapping ErrNonFinite", err)
					case kind == "plain" && err != nil:
						t.Errorf("error %v, want a model", err)
					case err == nil && ms[0].Iterations() > bound:
						t.Errorf("%d iterations, want at most %d", ms[0].Iterations(), bound)
					}
				})
			}
		}
	}
}

// TestFloat32KernelOverflowEnds: a sepal length of 1e30 leaves K(x, x) =
// 1e60 finite in float64 but overflows the float32 columns of Q (LIBSVM's
// Qfloat), so the gradient turns non-finite while the solver runs; it is
// looked at with the shrinking, every min(l, 1000) iterations, and when
// the solver stops (here after 15 iterations, on a NaN gradient).
func TestFloat32KernelOverflowEnds(t *testing.T) {
	ds := reftest.Load(t, "iris")
	x := mat.DenseCopyOf(ds.X)
	x.Set(3, 0, 1e30)
	p := Problem{Rows: reftest.Seq(len(ds.Y)), Targets: reftest.BinaryLabels(ds.Y, 0)}
	_, err := Train(context.Background(), NewDense(x), []Problem{p}, Options{Kernel: Kernel{Type: Linear}, C: 1}, 1)
	want := "binary problem 0: non-finite value: after 15 iterations, the gradient of the problem's row 3 is NaN"
	if !errors.Is(err, ErrNonFinite) || err.Error() != want {
		t.Fatalf("Train: error %v, want %q", err, want)
	}
}
