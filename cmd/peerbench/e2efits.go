package main

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/data"
	"github.com/polyclass/polyclass/framework/encode"
	"github.com/polyclass/polyclass/plugins/logreg/logistic"
)

// pluginTol is the logreg plugin's default tolerance ("tol"), which the
// end-to-end runs use.
const pluginTol = 1e-4

// foldFit is the work of one fold's fit in the logreg plugin: the fold's
// training rows of the design and the ±1 targets of its one-vs-rest
// problems.
type foldFit struct {
	rows  *mat.Dense // the standardised training rows
	x     logistic.Design
	probs []logistic.BatchProblem
}

// e2eFolds prepares the fits of an all-numeric case standardised per
// fold, as bench gives them to the logreg plugin: the stratified folds of
// writeFolds (k folds, seed 1), the numeric columns standardised over
// each fold's training rows (encode.Standardize), the training rows in
// file order and one problem per class, the class positive.
func e2eFolds(path string, k int) ([]foldFit, error) {
	t, err := data.ReadCSV(path, data.Options{Categorical: []string{"class"}})
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	cls, ok := t.Lookup("class")
	if !ok {
		return nil, fmt.Errorf("%s: no column \"class\"", path)
	}
	y, err := classColumn(path)
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
		ctx := &encode.Context{Train: train, K: len(cls.Levels), Seed: 1, Last: true}
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
		rows := trainRows(m.Dense, train)
		fits[f] = foldFit{rows: rows, x: logistic.NewDense(rows), probs: oneVsRest(y, train, len(cls.Levels))}
	}
	return fits, nil
}

// trainRows returns the given rows of x.
func trainRows(x *mat.Dense, rows []int) *mat.Dense {
	_, d := x.Dims()
	out := mat.NewDense(len(rows), d, nil)
	for i, r := range rows {
		out.SetRow(i, x.RawRowView(r))
	}
	return out
}

// oneVsRest returns the k one-vs-rest problems of the given rows: class c
// positive, the others negative.
func oneVsRest(y, rows []int, k int) []logistic.BatchProblem {
	probs := make([]logistic.BatchProblem, k)
	for c := range probs {
		t := make([]float64, len(rows))
		for i, r := range rows {
			t[i] = -1
			if y[r] == c {
				t[i] = 1
			}
		}
		probs[c].Y = t
	}
	return probs
}

// fitFoldsCPU fits the folds as `bench run -j jobs` has the logreg plugin
// fit them: jobs folds at a time, each fold's problems as one batch
// (logistic.FitBatch, trust-region Newton, C = 1, the plugin's default
// tolerance) on GOMAXPROCS goroutines, and returns the CPU time (user +
// system) of this process meanwhile.
func fitFoldsCPU(ctx context.Context, fits []foldFit, jobs int) (time.Duration, error) {
	opt := logistic.Options{C: 1, Solver: logistic.SolverNewton, Tol: pluginTol, MaxIter: 1000, Workers: runtime.GOMAXPROCS(0)}
	next := make(chan foldFit, len(fits))
	for _, f := range fits {
		next <- f
	}
	close(next)
	errs := make([]error, jobs)
	var wg sync.WaitGroup
	start := processCPU()
	for j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range next {
				if _, err := logistic.FitBatch(ctx, f.x, f.probs, opt); err != nil {
					errs[j] = err
					return
				}
			}
		}()
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
