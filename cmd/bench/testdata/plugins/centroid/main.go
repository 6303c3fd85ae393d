package main

import (
	"context"
	"errors"
	"log"

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

// Fit sees only the rows its problem uses, targets ±1, and dense rows
// (it does not declare Sparse). Its score w·x + b is positive on the side
// of the positive class's mean: w = μ₊ − μ₋, b = −w·(μ₊ + μ₋)/2 + shift.
func (centroid) Fit(ctx context.Context, in sdk.FitInput, p sdk.Params) (sdk.Model, error) {
	n, d := in.X.Dims()
	pos, neg := mat.NewVecDense(d, nil), mat.NewVecDense(d, nil)
	var np, nn float64
	for i := 0; i < n; i++ {
		if in.Targets[i] > 0 {
			pos.AddVec(pos, in.X.Dense.RowView(i))
			np++
		} else {
			neg.AddVec(neg, in.X.Dense.RowView(i))
			nn++
		}
	}
	if np == 0 || nn == 0 {
		return nil, errors.New("centroid needs rows of both classes")
	}
	pos.ScaleVec(1/np, pos)
	neg.ScaleVec(1/nn, neg)
	w, mid := mat.NewVecDense(d, nil), mat.NewVecDense(d, nil)
	w.SubVec(pos, neg)
	mid.AddVec(pos, neg)
	return model{w: w, b: -mat.Dot(w, mid)/2 + p.Float("shift")}, nil // params arrive with the defaults of Info().Params
}

type model struct {
	w *mat.VecDense
	b float64
}

func (model) Outputs() int { return 1 }

func (m model) Predict(ctx context.Context, x sdk.Matrix, scores, _ *mat.Dense) error {
	r, _ := x.Dims()
	for i := 0; i < r; i++ {
		scores.Set(i, 0, mat.Dot(m.w, x.Dense.RowView(i))+m.b)
	}
	return nil
}

func main() {
	if err := sdk.Serve(context.Background(), sdk.WithLearner(centroid{})); err != nil {
		log.Fatal(err)
	}
}
