package learner

import (
	"context"
	"fmt"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/svm/kernelsvm"
)

// together reports whether the parameters train native multiclass
// problems by an all-together method (multiclass = crammer_singer or
// weston_watkins).
func together(p sdk.Params) bool {
	v := p.Str("multiclass")
	return v == crammerSinger || v == westonWatkins
}

// seq returns the indices of x's rows.
func seq(x sdk.Matrix) []int {
	n, _ := x.Dims()
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	return all
}

// togetherOptions returns the options of the all-together method of the
// parameters for a design of d columns, the cache split over workers.
func togetherOptions(p sdk.Params, d, workers int) kernelsvm.TogetherOptions {
	return kernelsvm.TogetherOptions{
		Options: kernelsvm.Options{
			Kernel:      kernelOf(p, d),
			C:           p.Float("C"),
			Eps:         p.Float("tol"),
			NoShrinking: !p.Bool("shrinking"),
			CacheBytes:  int64(p.Float("cache_size")*(1<<20)) / int64(workers),
		},
		Method: p.Str("multiclass"),
		Bias:   max(p.Float("bias"), 0),
	}
}

// fitTogether trains each native multiclass problem ins[i] on rows[i]
// of x by the all-together method of the parameters
// (kernelsvm.TrainTogether), on up to workers goroutines.
func fitTogether(ctx context.Context, x sdk.Matrix, ins []sdk.FitInput, rows [][]int, p sdk.Params, workers int) ([]sdk.Model, error) {
	_, d := x.Dims()
	workers = max(1, min(workers, len(ins)))
	opt := togetherOptions(p, d, workers)
	if p.Bool("probability") {
		return nil, sdk.WithParam("probability", fmt.Errorf("multiclass = %s gives no probabilities; use multiclass = %q for Platt-scaled ones", opt.Method, multiclassAuto))
	}
	data := kernelData(x)
	out := make([]sdk.Model, len(ins))
	errs := make([]error, len(ins))
	var next int
	var mu sync.Mutex
	take := func() int {
		mu.Lock()
		defer mu.Unlock()
		next++
		return next - 1
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := take(); i < len(ins); i = take() {
				in := ins[i]
				pr := kernelsvm.Problem{Rows: rows[i], Classes: in.Classes, NumClasses: in.NumClasses, Weights: in.Weights}
				o := opt
				o.Seed = in.Seed
				m, err := kernelsvm.TrainTogether(ctx, data, pr, o)
				out[i], errs[i] = togetherModel{m}, err
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			if len(ins) > 1 {
				return nil, fmt.Errorf("problem %d: %w", i, err)
			}
			return nil, err
		}
	}
	return out, nil
}

// togetherModel is an all-together multiclass SVM: one score per class,
// its output fₘ(x), the largest the predicted class.
type togetherModel struct{ m *kernelsvm.TogetherModel }

func (t togetherModel) Outputs() int { return t.m.Outputs() }

func (t togetherModel) Predict(ctx context.Context, x sdk.Matrix, scores, _ *mat.Dense) error {
	return t.m.Predict(ctx, kernelData(x), scores)
}

// NotConverged reports whether the solver stopped at its iteration bound
// before its tol rule was met, or met it on a degenerate kernel matrix
// (kernelsvm.TogetherModel.Degenerate), a constant model as in
// kernelModel.NotConverged (sdk.ConvergenceReporter).
func (t togetherModel) NotConverged() bool { return !t.m.Converged() || t.m.Degenerate() }

// HasProbabilities reports that the all-together models have no
// probabilities (sdk.ProbabilityModel).
func (togetherModel) HasProbabilities() bool { return false }
