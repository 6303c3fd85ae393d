package host

import (
	"context"
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
