// Command memorise is a learner plugin for tests: it remembers the target
// of every training row and predicts it back for that exact row (P = 1 or
// 0), and P = ½ for a row it has not seen. Fed to stacking, it shows whether
// the stage-1 outputs of the training rows come from models that saw them:
// when it trains on rows with more than `features` columns it writes to
// stderr how many appended values were ½ (out-of-fold) and how many were
// memorised answers.
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
		Name: "memorise", Version: "0.0.1",
		Capabilities: sdk.Capabilities{Binary: true, Scores: true, Probabilities: true},
		Params:       []sdk.ParamSpec{{Name: "features", Type: sdk.IntegerParam, Default: sdk.Number(0)}},
	}
}

func key(x sdk.Matrix, i int) string { return fmt.Sprint(x.Dense.RawRowView(i)) }

func (learner) Fit(_ context.Context, in sdk.FitInput, p sdk.Params) (sdk.Model, error) {
	seen := map[string]float64{}
	n, d := in.X.Dims()
	base := p.Int("features")
	var half, answers int
	for i := 0; i < n; i++ {
		seen[key(in.X, i)] = in.Targets[i]
		for _, v := range in.X.Dense.RawRowView(i)[min(base, d):] {
			if v == 0.5 {
				half++
			} else {
				answers++
			}
		}
	}
	if base > 0 && d > base {
		fmt.Fprintf(os.Stderr, "memorise: appended values: %d out-of-fold, %d memorised\n", half, answers)
	}
	return model(seen), nil
}

type model map[string]float64

func (model) Outputs() int { return 1 }

func (m model) Predict(_ context.Context, x sdk.Matrix, scores, probs *mat.Dense) error {
	n, _ := x.Dims()
	for i := 0; i < n; i++ {
		p := 0.5
		if t, ok := m[key(x, i)]; ok {
			p = (t + 1) / 2
		}
		scores.Set(i, 0, 2*p-1)
		if probs != nil {
			probs.Set(i, 0, p)
		}
	}
	return nil
}

func main() {
	if err := sdk.Serve(context.Background(), sdk.WithLearner(learner{})); err != nil {
		log.Fatal(err)
	}
}
