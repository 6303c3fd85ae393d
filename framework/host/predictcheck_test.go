package host

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/sdk"
)

// nanLearner's models score NaN on their third row.
type nanLearner struct{ meanLearner }

func (nanLearner) Fit(ctx context.Context, in sdk.FitInput, p sdk.Params) (sdk.Model, error) {
	return nanModel{}, nil
}

type nanModel struct{}

func (nanModel) Outputs() int { return 1 }

func (nanModel) Predict(_ context.Context, x sdk.Matrix, scores, _ *mat.Dense) error {
	r, _ := x.Dims()
	for i := range r {
		scores.Set(i, 0, 1)
	}
	scores.Set(2, 0, math.NaN())
	return nil
}

// TestPredictRejectsNaN: a learner whose model scores NaN fails its
// Predict call at the host, whatever reduction would decode the scores.
func TestPredictRejectsNaN(t *testing.T) {
	ctx := context.Background()
	h := New("", nil)
	h.Register("nan", InProcess{Learner: nanLearner{}})
	defer h.Close()
	p, err := h.Get(ctx, "nan")
	if err != nil {
		t.Fatal(err)
	}
	m := matrix.EncodeMatrix(sdk.Matrix{Dense: mat.NewDense(4, 2, []float64{1, 2, 3, 4, 5, 6, 7, 8})})
	if _, err := p.EnsureDataset(ctx, m); err != nil {
		t.Fatal(err)
	}
	rows := []int{0, 1, 2, 3}
	models, err := p.Learner.Fit(ctx, m.Digest, rows, nil, []sdk.Problem{{Kind: sdk.Binary, Targets: []float64{1, -1, 1, -1}}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = p.Learner.Predict(ctx, m.Digest, []int{3, 2, 1, 0}, models, false)
	if err == nil || !strings.Contains(err.Error(), "predict: model 0 (of 1): score 0 of row 2 of the request (matrix row 1) is NaN") {
		t.Fatalf("predict error %v, want the NaN of row 2", err)
	}
}

// failingLearner's models fail every Predict.
type failingLearner struct{ meanLearner }

func (failingLearner) Fit(ctx context.Context, in sdk.FitInput, p sdk.Params) (sdk.Model, error) {
	return failingModel{}, nil
}

type failingModel struct{ nanModel }

func (failingModel) Predict(context.Context, sdk.Matrix, *mat.Dense, *mat.Dense) error {
	return errors.New("out of luck")
}

// TestPredictErrorNamesThePlaceNotTheHandle: a model's Predict error names
// the model by its place in the request, not by its handle, which the
// plugin process numbers in the order it fitted models (so that concurrent
// folds made it depend on timing, and a cell's recorded error with it:
// campaign 8's D01 grid gave "predict with model m17" in one run and m12
// in another). The same model, fitted after three others or first, gives
// the same error.
func TestPredictErrorNamesThePlaceNotTheHandle(t *testing.T) {
	ctx := context.Background()
	m := matrix.EncodeMatrix(sdk.Matrix{Dense: mat.NewDense(4, 2, []float64{1, 2, 3, 4, 5, 6, 7, 8})})
	rows := []int{0, 1, 2, 3}
	problem := sdk.Problem{Kind: sdk.Binary, Targets: []float64{1, -1, 1, -1}}
	var errs []string
	for _, before := range []int{0, 3} {
		h := New("", nil)
		h.Register("failing", InProcess{Learner: failingLearner{}})
		p, err := h.Get(ctx, "failing")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.EnsureDataset(ctx, m); err != nil {
			t.Fatal(err)
		}
		for range before {
			if _, err := p.Learner.Fit(ctx, m.Digest, rows, nil, []sdk.Problem{problem}, 0); err != nil {
				t.Fatal(err)
			}
		}
		models, err := p.Learner.Fit(ctx, m.Digest, rows, nil, []sdk.Problem{problem, problem}, 0)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = p.Learner.Predict(ctx, m.Digest, rows, models[1:], false)
		errs = append(errs, fmt.Sprint(err))
		h.Close()
	}
	for i, e := range errs {
		if !strings.Contains(e, "predict: model 0: out of luck") {
			t.Errorf("fitted after %d models: predict error %q, want it to name model 0 of the request", []int{0, 3}[i], e)
		}
	}
	if errs[0] != errs[1] {
		t.Errorf("the same model's error differs with the models fitted before it:\n%s\n%s", errs[0], errs[1])
	}
}
