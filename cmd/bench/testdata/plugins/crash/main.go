// Command crash is a learner plugin for tests: with crash = true (the
// default) it panics during Fit, as a buggy third-party plugin would, the
// panic going to its stderr, or, with exit = N > 0, writes a line to
// os.Stderr and exits with status N at once; with crash = false it is a
// small working learner, so a test can show that a crash costs only the
// cells it hit.
package main

import (
	"context"
	"fmt"
	"log"
	"os"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
)

type learner struct{}

func (learner) Info() sdk.LearnerInfo {
	return sdk.LearnerInfo{
		Name: "crash", Version: "0.0.2",
		Capabilities: sdk.Capabilities{Binary: true, Multiclass: true, Scores: true},
		Params: []sdk.ParamSpec{
			{Name: "crash", Type: sdk.BoolParam, Default: sdk.Bool(true)},
			{Name: "exit", Type: sdk.IntegerParam, Default: sdk.Number(0), Min: sdk.Bound(0), Max: sdk.Bound(125)},
		},
	}
}

func (learner) Fit(_ context.Context, in sdk.FitInput, p sdk.Params) (sdk.Model, error) {
	if p.Bool("crash") {
		if code := p.Int("exit"); code > 0 {
			fmt.Fprintf(os.Stderr, "crash: exiting with status %d in Fit\n", code)
			os.Exit(code)
		}
		panic("crash: simulated segmentation fault in Fit")
	}
	return fitDirection(in), nil
}

// direction scores x·w with w = Σ yᵢxᵢ, the difference of the class sums.
type direction []float64

func fitDirection(in sdk.FitInput) direction {
	_, d := in.X.Dims()
	w := make(direction, d)
	for i, y := range in.Targets {
		for j := range w {
			w[j] += y * in.X.Dense.At(i, j)
		}
	}
	return w
}

func (direction) Outputs() int { return 1 }

func (w direction) Predict(_ context.Context, x sdk.Matrix, scores, _ *mat.Dense) error {
	n, _ := x.Dims()
	for i := 0; i < n; i++ {
		scores.Set(i, 0, mat.Dot(mat.NewVecDense(len(w), w), x.Dense.RowView(i)))
	}
	return nil
}

func main() {
	if err := sdk.Serve(context.Background(), sdk.WithLearner(learner{})); err != nil {
		log.Fatal(err)
	}
}
