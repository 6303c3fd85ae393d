package learner

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// TestFitBatchEqualsFit: the one-vs-rest problems of breast cancer's
// design (plus a weighted one), dense and sparse, trained by FitBatch and
// by FitBatchParallel on 2 and 3 goroutines give the models of Fit, bit
// for bit; other solvers and kinds are declined.
func TestFitBatchEqualsFit(t *testing.T) {
	ctx := context.Background()
	ds := reftest.Load(t, "breast_cancer")
	x := ds.Standardized()
	pos := reftest.BinaryLabels(ds.Y, ds.Class(t, "malignant"))
	neg := make([]float64, len(pos))
	w := make([]float64, len(pos))
	for i, v := range pos {
		neg[i], w[i] = -v, 1+float64(i%3)
	}
	l := New().(learner)
	params := sdk.WithDefaults(l.Info().Params, sdk.Params{"C": sdk.Number(0.5)})
	for _, m := range []sdk.Matrix{{Dense: x}, {CSR: reftest.CSR(x)}} {
		ins := []sdk.FitInput{
			{Kind: sdk.Binary, X: m, Targets: pos},
			{Kind: sdk.Binary, X: m, Targets: neg, Weights: w},
			{Kind: sdk.Binary, X: m, Targets: pos, Weights: w},
		}
		got, err := l.FitBatch(ctx, ins, params)
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{2, 3} {
			par, err := l.FitBatchParallel(ctx, ins, params, workers)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, par...)
		}
		for i, in := range slices.Concat(ins, ins, ins) {
			want, err := l.Fit(ctx, in, params)
			if err != nil {
				t.Fatal(err)
			}
			g, w := got[i].(binaryModel).r, want.(binaryModel).r
			if math.Float64bits(g.B) != math.Float64bits(w.B) || g.Iterations != w.Iterations {
				t.Errorf("problem %d: batch b %.17g (%d iterations), alone %.17g (%d)", i, g.B, g.Iterations, w.B, w.Iterations)
			}
			for j := range g.W {
				if math.Float64bits(g.W[j]) != math.Float64bits(w.W[j]) {
					t.Errorf("problem %d: w[%d] batch %.17g, alone %.17g", i, j, g.W[j], w.W[j])
					break
				}
			}
		}
		lbfgs := sdk.WithDefaults(l.Info().Params, sdk.Params{"solver": sdk.String("lbfgs")})
		if _, err := l.FitBatch(ctx, ins, lbfgs); !errors.Is(err, sdk.ErrBatchDeclined) {
			t.Errorf("lbfgs: err = %v, want ErrBatchDeclined", err)
		}
	}
	multi := []sdk.FitInput{{Kind: sdk.Multiclass, X: sdk.Matrix{Dense: x}, Classes: ds.Y, NumClasses: 2}}
	if _, err := l.FitBatch(ctx, multi, params); !errors.Is(err, sdk.ErrBatchDeclined) {
		t.Errorf("multiclass: err = %v, want ErrBatchDeclined", err)
	}
}
