package learner

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/internal/reftest"
)

// TestBalancedClassWeightReachesSklearnOptimum: class_weight = "balanced"
// on breast cancer (whole-file standardised, +1 = malignant), weights as
// the host computes them for a binary problem, fitted by this plugin,
// reaches the optimum of scikit-learn's LogisticRegression(C=1,
// class_weight="balanced") to 1e-6 relative: the weights multiply the loss,
// not the penalty. Reference: testdata/balanced_breast_cancer.json, made by
// cmd/bench/testdata/design/refs.py.
func TestBalancedClassWeightReachesSklearnOptimum(t *testing.T) {
	var ref struct {
		ClassWeight      map[string]float64 `json:"class_weight"`
		SklearnObjective float64            `json:"sklearn_objective"`
		Objective        float64            `json:"objective"`
		W                []float64          `json:"w"`
		B                float64            `json:"b"`
	}
	b, err := os.ReadFile("testdata/balanced_breast_cancer.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	ds := reftest.Load(t, "breast_cancer")
	x := ds.Standardized()
	y := reftest.BinaryLabels(ds.Y, ds.Class(t, "malignant"))
	p := (&engine.ClassWeights{Balanced: true}).Weigh(sdk.Problem{Kind: sdk.Binary, Targets: y}, nil)
	// scikit-learn's compute_class_weight: n / (2 n_k).
	for i, w := range p.Weights {
		want := ref.ClassWeight["benign"]
		if y[i] > 0 {
			want = ref.ClassWeight["malignant"]
		}
		if math.Abs(w-want) > 1e-15*want {
			t.Fatalf("row %d: weight %v, scikit-learn %v", i, w, want)
		}
	}
	for _, solver := range []string{"newton", "lbfgs"} {
		m, err := learner{}.Fit(context.Background(), sdk.FitInput{Kind: sdk.Binary, X: sdk.Matrix{Dense: x}, Targets: y, Weights: p.Weights},
			sdk.WithDefaults(learner{}.Info().Params, sdk.Params{"C": sdk.Number(1), "tol": sdk.Number(1e-8), "solver": sdk.String(solver)}))
		if err != nil {
			t.Fatal(err)
		}
		got := m.(binaryModel).r.Objective
		for _, want := range []struct {
			name string
			f    float64
		}{{"exact optimum", ref.Objective}, {"scikit-learn's", ref.SklearnObjective}} {
			if rel := math.Abs(got-want.f) / want.f; rel > 1e-6 {
				t.Errorf("%s: objective %.12g, %s %.12g (rel %.2g)", solver, got, want.name, want.f, rel)
			}
		}
		bm := m.(binaryModel)
		if d := math.Abs(bm.r.B - ref.B); d > 1e-4*(1+math.Abs(ref.B)) {
			t.Errorf("%s: intercept %v, reference %v", solver, bm.r.B, ref.B)
		}
	}
	// Unweighted, the optimum is another one: the weights are in effect.
	m, err := learner{}.Fit(context.Background(), sdk.FitInput{Kind: sdk.Binary, X: sdk.Matrix{Dense: x}, Targets: y},
		sdk.WithDefaults(learner{}.Info().Params, sdk.Params{"C": sdk.Number(1), "tol": sdk.Number(1e-8)}))
	if err != nil {
		t.Fatal(err)
	}
	if f := m.(binaryModel).r.Objective; math.Abs(f-ref.Objective) < 1e-3*ref.Objective {
		t.Errorf("unweighted objective %v equals the balanced one %v", f, ref.Objective)
	}
}
