package reducer

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/lda/discriminant"
)

// randomTask returns features and a 0/1 label matrix whose labels depend
// on the features, seeded.
func randomTask(n, d, K int, seed uint64) (*mat.Dense, *mat.Dense) {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := mat.NewDense(n, d, nil)
	y := mat.NewDense(n, K, nil)
	w := mat.NewDense(d, K, nil)
	for j := 0; j < d; j++ {
		for k := 0; k < K; k++ {
			w.Set(j, k, rng.NormFloat64())
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	var s mat.Dense
	s.Mul(x, w)
	for i := 0; i < n; i++ {
		for k := 0; k < K; k++ {
			if s.At(i, k)+rng.NormFloat64() > 0.3 {
				y.Set(i, k, 1)
			}
		}
	}
	return x, y
}

// TestPLSTFullRankEqualsLeastSquaresBR: with M = K components and ordinary
// least squares, PLST reconstructs Ŷ = X·B_Y exactly (V_M is orthogonal),
// so its labels equal binary relevance with least-squares regressors
// thresholded at ½.
func TestPLSTFullRankEqualsLeastSquaresBR(t *testing.T) {
	const n, d, K = 120, 5, 4
	x, y := randomTask(n, d, K, 11)
	r := New()
	ctx := context.Background()
	plan, err := r.Plan(ctx, sdk.PlanRequest{Scheme: PLST, Params: withDefaults(PLST, sdk.Params{"components": sdk.Number(K)}), NumClasses: K, LabelMatrix: y})
	if err != nil {
		t.Fatal(err)
	}
	scores := mat.NewDense(n, K, nil)
	for m, p := range plan.Problems {
		if p.Kind != sdk.Regression {
			t.Fatalf("problem %d is %s, want regression", m, p.Kind)
		}
		fit, err := discriminant.FitRidge(x, mat.NewDense(n, 1, p.Targets), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		scores.SetCol(m, mat.Col(nil, 0, fit.Predict(nil, x)))
	}
	dec, err := r.Decode(ctx, sdk.DecodeRequest{Scheme: PLST, Params: withDefaults(PLST, sdk.Params{"components": sdk.Number(K)}), State: plan.State, Scores: scores})
	if err != nil {
		t.Fatal(err)
	}
	ols, err := discriminant.FitRidge(x, y, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	yhat := ols.Predict(nil, x)
	for i := 0; i < n; i++ {
		for k := 0; k < K; k++ {
			want := 0.0
			if yhat.At(i, k) >= 0.5 {
				want = 1
			}
			if dec.LabelMatrix.At(i, k) != want {
				t.Fatalf("row %d label %d: PLST %v, least-squares BR %v (Ŷ = %v)", i, k, dec.LabelMatrix.At(i, k), want, yhat.At(i, k))
			}
			if got := dec.ClassScores.At(i, k); math.Abs(got-min(max(yhat.At(i, k), 0), 1)) > 1e-9 {
				t.Fatalf("row %d label %d: reconstructed %v, OLS %v", i, k, got, yhat.At(i, k))
			}
		}
	}
}

// TestPLSTTargets: Z = (Y − ȳ)V_M has orthogonal columns whose squared
// norms are the top singular values squared, in decreasing order.
func TestPLSTTargets(t *testing.T) {
	_, y := randomTask(80, 3, 5, 3)
	plan, err := New().Plan(context.Background(), sdk.PlanRequest{Scheme: PLST, Params: withDefaults(PLST, sdk.Params{"components": sdk.Number(3)}), NumClasses: 5, LabelMatrix: y})
	if err != nil {
		t.Fatal(err)
	}
	norms := make([]float64, 3)
	for a, pa := range plan.Problems {
		for b, pb := range plan.Problems {
			var dot float64
			for i := range pa.Targets {
				dot += pa.Targets[i] * pb.Targets[i]
			}
			if a == b {
				norms[a] = dot
			} else if math.Abs(dot) > 1e-9 {
				t.Errorf("components %d and %d not orthogonal: %v", a, b, dot)
			}
		}
	}
	if !(norms[0] >= norms[1] && norms[1] >= norms[2] && norms[2] > 0) {
		t.Errorf("component energies %v not decreasing", norms)
	}
}

func TestMultiLabelPlanErrors(t *testing.T) {
	r := New()
	ctx := context.Background()
	y := mat.NewDense(3, 2, []float64{1, 0, 0, 1, 1, 1})
	for _, tt := range []struct {
		req  sdk.PlanRequest
		want string
	}{
		{sdk.PlanRequest{Scheme: PLST, NumClasses: 2, LabelMatrix: y}, "components"},
		{sdk.PlanRequest{Scheme: PLST, Params: withDefaults(PLST, sdk.Params{"components": sdk.Number(3)}), NumClasses: 2, LabelMatrix: y}, "1 ≤ M ≤ 2"},
		{sdk.PlanRequest{Scheme: BinaryRelevance, NumClasses: 2, Labels: []int{0, 1}}, "needs multi-label data"},
		{sdk.PlanRequest{Scheme: "ova", NumClasses: 2, LabelMatrix: y}, "multiclass data"},
		{sdk.PlanRequest{Scheme: BinaryRelevance, NumClasses: 2, LabelMatrix: mat.NewDense(1, 2, []float64{2, 0})}, "labels are 0 or 1"},
	} {
		if _, err := r.Plan(ctx, tt.req); err == nil || !contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.req.Scheme, err, tt.want)
		}
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// withDefaults completes p with the defaults of scheme's parameters, as the
// SDK does before a call reaches the reducer.
func withDefaults(scheme string, p sdk.Params) sdk.Params {
	for _, sc := range New().Info().Schemes {
		if sc.Name == scheme {
			return sdk.WithDefaults(sc.Params, p)
		}
	}
	panic("no scheme " + scheme)
}

// TestBinaryRelevanceDecode: probabilities are thresholded; without them
// the sign of the score decides.
func TestBinaryRelevanceDecode(t *testing.T) {
	r := New()
	ctx := context.Background()
	y := mat.NewDense(2, 2, []float64{1, 0, 0, 1})
	plan, err := r.Plan(ctx, sdk.PlanRequest{Scheme: BinaryRelevance, NumClasses: 2, LabelMatrix: y})
	if err != nil {
		t.Fatal(err)
	}
	if got := plan.Problems[1].Targets; got[0] != -1 || got[1] != 1 {
		t.Fatalf("label 2 targets %v", got)
	}
	probs := mat.NewDense(1, 2, []float64{0.7, 0.5})
	params := sdk.Params{"threshold": sdk.Number(0.6)}
	d, err := r.Decode(ctx, sdk.DecodeRequest{Scheme: BinaryRelevance, Params: params, State: plan.State, Scores: probs, Probabilities: probs})
	if err != nil {
		t.Fatal(err)
	}
	if d.LabelMatrix.At(0, 0) != 1 || d.LabelMatrix.At(0, 1) != 0 {
		t.Fatalf("labels %v", d.LabelMatrix.RawRowView(0))
	}
	d, err = r.Decode(ctx, sdk.DecodeRequest{Scheme: BinaryRelevance, Params: withDefaults(BinaryRelevance, nil), State: plan.State, Scores: mat.NewDense(1, 2, []float64{-0.1, 0})})
	if err != nil || d.LabelMatrix.At(0, 0) != 0 || d.LabelMatrix.At(0, 1) != 1 {
		t.Fatalf("score decoding %v %v", d.LabelMatrix, err)
	}
}
