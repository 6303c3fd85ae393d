package sdk_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/sdk"
)

// sharedLearner is meanLearner with FitShared and PredictBatch: it records
// what it gets and trains each problem with meanLearner's Fit on its rows;
// it shares fits unless the solver is "b", and predicts in batch unless C
// is 2. Its models have probabilities unless C is 3.
type sharedLearner struct {
	meanLearner
	smu     sync.Mutex
	x       sdk.Matrix
	rows    [][]int
	workers int
	batches int
}

func (l *sharedLearner) SharesFit(p sdk.Params) bool { return p.Str("solver") != "b" }

func (l *sharedLearner) FitShared(ctx context.Context, x sdk.Matrix, ins []sdk.FitInput, rows [][]int, p sdk.Params, workers int) ([]sdk.Model, error) {
	l.smu.Lock()
	l.x, l.rows, l.workers = x, rows, workers
	l.smu.Unlock()
	models := make([]sdk.Model, len(ins))
	for i, in := range ins {
		m, err := l.Fit(ctx, in, p)
		if err != nil {
			return nil, err
		}
		models[i] = sharedModel{meanModel: m.(meanModel), probs: p.Float("C") != 3, batch: p.Float("C") != 2}
	}
	return models, nil
}

func (l *sharedLearner) PredictBatch(ctx context.Context, models []sdk.Model, x sdk.Matrix, scores, probs *mat.Dense) error {
	if m, ok := models[0].(sharedModel); !ok || !m.batch {
		return sdk.ErrBatchDeclined
	}
	l.smu.Lock()
	l.batches++
	l.smu.Unlock()
	n, _ := x.Dims()
	for j, m := range models {
		var pr *mat.Dense
		if probs != nil {
			pr = probs.Slice(0, n, j, j+1).(*mat.Dense)
		}
		if err := m.Predict(ctx, x, scores.Slice(0, n, j, j+1).(*mat.Dense), pr); err != nil {
			return err
		}
	}
	return nil
}

type sharedModel struct {
	meanModel
	probs, batch bool
}

func (m sharedModel) HasProbabilities() bool { return m.probs }

// TestFitShared: a SharedFitter gets every problem of a request at once,
// with the request's rows gathered once and each problem's rows as
// positions in them; its models answer as Fit's would; a BatchPredictor
// predicts them in one call; a model without probabilities makes the
// answer carry none; SharesFit false leaves the request to Fit.
func TestFitShared(t *testing.T) {
	ctx := context.Background()
	impl := &sharedLearner{}
	c := connect(t, impl, sdk.WithWorkers(2))
	x := mat.NewDense(4, 2, []float64{10, 1, 20, 2, 30, 3, 40, 4})
	enc := matrix.EncodeMatrix(sdk.Matrix{Dense: x})
	if _, err := c.Ensure(ctx, enc); err != nil {
		t.Fatal(err)
	}
	rows := []int{3, 1, 0}
	problems := []sdk.Problem{
		{Kind: sdk.Binary, Targets: []float64{1, -1, 1}},
		{Kind: sdk.Binary, Targets: []float64{1, 0, -1}}, // rows 3 and 0
		{Kind: sdk.Binary, Targets: []float64{0, -1, 1}, Weights: []float64{1, 2, 3}},
	}
	models, err := c.Fit(ctx, enc.Digest, rows, nil, problems, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]int{{0, 1, 2}, {0, 2}, {1, 2}}; !slices.EqualFunc(impl.rows, want, slices.Equal) {
		t.Errorf("rows %v, want %v", impl.rows, want)
	}
	if impl.workers != 2 {
		t.Errorf("%d workers, want 2", impl.workers)
	}
	if got := impl.x.Dense.RawRowView(0); !slices.Equal(got, []float64{40, 4}) {
		t.Errorf("first gathered row %v, want [40 4]", got)
	}
	if w := impl.fits[2].Weights; !slices.Equal(w, []float64{2, 3}) {
		t.Errorf("problem 2's weights %v, want [2 3]", w)
	}
	s, p, err := c.Predict(ctx, enc.Digest, []int{0}, models, true)
	if err != nil {
		t.Fatal(err)
	}
	if impl.batches != 1 {
		t.Errorf("%d batch predictions, want 1", impl.batches)
	}
	for j, want := range []float64{1.0/3 + 10, 0 + 10, 0 + 10} {
		if d := s.At(0, j) - want; d > 1e-12 || d < -1e-12 {
			t.Errorf("model %d: score %v, want %v", j, s.At(0, j), want)
		}
	}
	if p == nil {
		t.Error("no probabilities")
	}
	// C = 3: models without probabilities; C = 2: declined batch; solver
	// b: not shared.
	for _, tc := range []struct {
		params                 sdk.Params
		shared, batched, probs bool
	}{
		{sdk.Params{"C": sdk.Number(3)}, true, true, false},
		{sdk.Params{"C": sdk.Number(2)}, true, false, true},
		{sdk.Params{"solver": sdk.String("b")}, false, false, true},
	} {
		params := tc.params
		before, fits := impl.batches, len(impl.fits)
		impl.rows = nil
		models, err := c.Fit(ctx, enc.Digest, rows, params, problems, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(impl.fits) != fits+3 {
			t.Errorf("%v: %d fits, want 3", params, len(impl.fits)-fits)
		}
		if shared := impl.rows != nil; shared != tc.shared {
			t.Errorf("%v: shared fit %v", params, shared)
		}
		s2, p, err := c.Predict(ctx, enc.Digest, []int{0}, models, true)
		if err != nil {
			t.Fatal(err)
		}
		if (p != nil) != tc.probs {
			t.Errorf("%v: probabilities %v", params, p != nil)
		}
		if batched := impl.batches > before; batched != tc.batched {
			t.Errorf("%v: batch prediction %v", params, batched)
		}
		if !mat.Equal(s, s2) {
			t.Errorf("%v: scores %v, want %v", params, mat.Formatted(s2), mat.Formatted(s))
		}
	}
}
