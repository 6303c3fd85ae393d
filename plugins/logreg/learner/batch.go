package learner

import (
	"context"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/logreg/logistic"
)

// FitBatch trains binary problems that share X together with
// logistic.FitBatch when the solver is newton (the seed, which only sgd
// uses, does not matter); it declines any other batch. Each model is the
// one Fit gives.
func (learner) FitBatch(ctx context.Context, ins []sdk.FitInput, p sdk.Params) ([]sdk.Model, error) {
	if p.Str("solver") != logistic.SolverNewton || len(ins) == 0 {
		return nil, sdk.ErrBatchDeclined
	}
	probs := make([]logistic.BatchProblem, len(ins))
	for i, in := range ins {
		if in.Kind != sdk.Binary || in.X != ins[0].X {
			return nil, sdk.ErrBatchDeclined
		}
		probs[i] = logistic.BatchProblem{Y: in.Targets, S: in.Weights}
	}
	res, err := logistic.FitBatch(ctx, design(ins[0].X), probs, binaryOptions(p, 0))
	if err != nil {
		return nil, err
	}
	models := make([]sdk.Model, len(res))
	for i, r := range res {
		models[i] = binaryModel{r}
	}
	return models, nil
}

// learner trains batches of binary problems together.
var _ sdk.BatchFitter = learner{}
