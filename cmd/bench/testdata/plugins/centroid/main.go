package main

import (
	"context"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
)

type centroid struct{}

func (centroid) Info() sdk.LearnerInfo {
	return sdk.LearnerInfo{
		Name: "centroid", Version: "0.1.0",
		Capabilities: sdk.Capabilities{Binary: true, Scores: true},
		Params:       []sdk.ParamSpec{{Name: "shift", Type: sdk.NumberParam, Default: sdk.Number(0)}},
	}
}

// Fit sees only the rows its problem uses; targets are ±1.
func (centroid) Fit(ctx context.Context, in sdk.FitInput, p sdk.Params) (sdk.Model, error) {
	_, d := in.X.Dims()
	w := make([]float64, d)
	for i, y := range in.Targets {
		for j := 0; j < d; j++ {
			w[j] += y * in.X.Dense.At(i, j)
		}
	}
	return model{w: w, b: p.Float("shift")}, nil // params arrive with the defaults of Info().Params
}

type model struct {
	w []float64
	b float64
}

func (model) Outputs() int { return 1 }

func (m model) Predict(ctx context.Context, x sdk.Matrix, scores, _ *mat.Dense) error {
	r, _ := x.Dims()
	for i := 0; i < r; i++ {
		scores.Set(i, 0, mat.Dot(mat.NewVecDense(len(m.w), m.w), x.Dense.RowView(i))+m.b)
	}
	return nil
}

func main() { sdk.Serve(sdk.WithLearner(centroid{})) }
