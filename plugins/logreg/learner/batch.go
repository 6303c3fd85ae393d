package learner

import (
	"context"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/logreg/logistic"
)

// FitBatch is FitBatchParallel on one goroutine.
func (l learner) FitBatch(ctx context.Context, ins []sdk.FitInput, p sdk.Params) ([]sdk.Model, error) {
	return l.FitBatchParallel(ctx, ins, p, 1)
}

// FitBatchParallel trains binary problems that share X together with
// logistic.FitBatch when the solver is newton (the seed, which only sgd
// uses, does not matter), its products on workers goroutines; it declines
// any other batch. Each model is the one Fit gives.
func (learner) FitBatchParallel(ctx context.Context, ins []sdk.FitInput, p sdk.Params, workers int) ([]sdk.Model, error) {
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
	opt := binaryOptions(p, 0)
	opt.Workers = workers
	res, err := logistic.FitBatch(ctx, design(ins[0].X), probs, opt)
	if err != nil {
		return nil, err
	}
	models := make([]sdk.Model, len(res))
	for i, r := range res {
		models[i] = binaryModel{r}
	}
	return models, nil
}

// learner trains batches of binary problems together, on several
// goroutines.
var _ sdk.ParallelBatchFitter = learner{}
