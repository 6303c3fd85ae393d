package main

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/encode"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/param"
)

// foldFit is the work of one fold's fit in the logreg plugin: the fold's
// standardised training rows and the ±1 targets of its one-vs-rest
// problems.
type foldFit struct {
	rows   *mat.Dense
	labels [][]float64
}

// e2eFolds prepares the fits of an all-numeric case standardised per
// fold, as bench gives them to the logreg plugin: the stratified folds of
// writeFolds (k folds, seed 1, over the classes in order of first
// appearance, as classColumn numbers them), the numeric columns
// standardised over each fold's training rows (encode.Standardize), the
// training rows in file order and the one-vs-rest problems of ovrLabels.
func e2eFolds(path string, k int) ([]foldFit, error) {
	t, classes, y, err := readClassified(path)
	if err != nil {
		return nil, err
	}
	fold, err := cv.StratifiedKFold(y, k, 1)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	frame := encode.NewFrame(t, map[string]bool{"class": true})
	fits := make([]foldFit, k)
	for f := range fits {
		var train []int
		for i, g := range fold {
			if g != f {
				train = append(train, i)
			}
		}
		ctx := &encode.Context{Train: train, K: len(classes), Seed: 1, Last: true}
		g, err := (&encode.Standardize{}).FitTransform(frame, ctx)
		if err != nil {
			return nil, fmt.Errorf("%s, fold %d: %w", path, f, err)
		}
		m, _, err := g.Design()
		if err != nil {
			return nil, fmt.Errorf("%s, fold %d: %w", path, f, err)
		}
		if m.Dense == nil {
			return nil, fmt.Errorf("%s, fold %d: the design is not dense", path, f)
		}
		rows := mat.NewDense(len(train), m.Dense.RawMatrix().Cols, nil)
		ty := make([]int, len(train))
		for i, r := range train {
			rows.SetRow(i, m.Dense.RawRowView(r))
			ty[i] = y[r]
		}
		fits[f] = foldFit{rows: rows, labels: ovrLabels(ty, len(classes))}
	}
	return fits, nil
}

// foldShare is the goroutines a fold's fit keeps busy when jobs folds run
// at once: its share of the CPUs (GOMAXPROCS over jobs, at least 1), as
// the engine gives it (FitRequest.threads) while more folds are left than
// workers.
func foldShare(jobs int) int {
	return max(runtime.GOMAXPROCS(0)/max(jobs, 1), 1)
}

// fitFoldsCPU fits the folds as `bench run -j jobs` has the logreg plugin
// fit them: jobs folds at a time, each fold's problems as one batch (the
// learner's sdk.ParallelBatchFitter, C = 1 and the plugin's defaults, as
// the end-to-end runs use) on foldShare(jobs) goroutines, and returns the
// CPU time (user + system) of this process meanwhile.
func fitFoldsCPU(ctx context.Context, fits []foldFit, jobs int) (time.Duration, error) {
	next := make(chan foldFit, len(fits))
	for _, f := range fits {
		next <- f
	}
	close(next)
	lr := logregFitter(param.Params{"C": param.Number(1)})
	errs := make([]error, jobs)
	var wg sync.WaitGroup
	start := processCPU()
	for j := range jobs {
		wg.Go(func() {
			for f := range next {
				if err := lr.fitBatch(ctx, matrix.Matrix{Dense: f.rows}, f.labels, foldShare(jobs)); err != nil {
					errs[j] = err
					return
				}
			}
		})
	}
	wg.Wait()
	cpu := processCPU() - start
	for _, err := range errs {
		if err != nil {
			return 0, err
		}
	}
	return cpu, nil
}
