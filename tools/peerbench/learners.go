package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/sdk"
	ldaLearner "github.com/polyclass/polyclass/plugins/lda/learner"
	logregLearner "github.com/polyclass/polyclass/plugins/logreg/learner"
	"github.com/polyclass/polyclass/plugins/reducers/reducer"
	svmLearner "github.com/polyclass/polyclass/plugins/svm/learner"
)

// inProcessHost serves the shipped Go plugins in this process, each under
// its binary's name, through the SDK's own gRPC servers on in-memory
// connections (host.Register): the engine's calls are those it makes to
// the plugin processes, without the processes. Each plugin is linked
// through its public constructor (learner.New, reducer.New), the value its
// bench-plugin-NAME command serves; peerbench fits in this process only
// through these values and the SDK's interfaces, never through a plugin's
// solver package, so that what it times is what a plugin process runs.
func inProcessHost() *host.Host {
	h := host.New("", nil)
	h.Register("logreg", host.InProcess{Learner: logregLearner.New()})
	h.Register("svm", host.InProcess{Learner: svmLearner.New()})
	h.Register("lda", host.InProcess{Learner: ldaLearner.New()})
	h.Register("reducers", host.InProcess{Reducer: reducer.New()})
	return h
}

// fitter fits problems in this process with a learner and fixed
// parameters (its declared defaults filled in, as the host fills them).
type fitter struct {
	learner sdk.Learner
	params  param.Params
}

// newFitter returns a fitter of l with the parameters p over l's defaults.
func newFitter(l sdk.Learner, p param.Params) fitter {
	return fitter{learner: l, params: param.WithDefaults(l.Info().Params, p)}
}

// fitBinary fits one binary problem: targets ±1, one per row of x.
func (f fitter) fitBinary(ctx context.Context, x matrix.Matrix, targets []float64, seed uint64) error {
	_, err := f.learner.Fit(ctx, sdk.FitInput{Kind: sdk.Binary, X: x, Targets: targets, Seed: seed}, f.params)
	return err
}

// fitMulticlass fits one native multiclass problem: classes 0..k−1, one
// per row of x.
func (f fitter) fitMulticlass(ctx context.Context, x matrix.Matrix, classes []int, k int, seed uint64) error {
	_, err := f.learner.Fit(ctx, sdk.FitInput{Kind: sdk.Multiclass, X: x, Classes: classes, NumClasses: k, Seed: seed}, f.params)
	return err
}

// fitBatch fits the binary problems of one design at once, as the SDK's
// learner server hands them to a learner that batches them itself
// (sdk.ParallelBatchFitter) on workers goroutines; a learner that does not
// gets them one after the other.
func (f fitter) fitBatch(ctx context.Context, x matrix.Matrix, targets [][]float64, workers int) error {
	ins := make([]sdk.FitInput, len(targets))
	for i, t := range targets {
		ins[i] = sdk.FitInput{Kind: sdk.Binary, X: x, Targets: t, Seed: uint64(i)}
	}
	if b, ok := f.learner.(sdk.ParallelBatchFitter); ok {
		_, err := b.FitBatchParallel(ctx, ins, f.params, workers)
		if !errors.Is(err, sdk.ErrBatchDeclined) {
			return err
		}
	}
	for i, in := range ins {
		if _, err := f.learner.Fit(ctx, in, f.params); err != nil {
			return fmt.Errorf("problem %d: %w", i, err)
		}
	}
	return nil
}

// logregFitter fits with the logreg plugin's learner and parameters p.
func logregFitter(p param.Params) fitter { return newFitter(logregLearner.New(), p) }

// svmFitter fits with the svm plugin's learner and parameters p.
func svmFitter(p param.Params) fitter { return newFitter(svmLearner.New(), p) }
