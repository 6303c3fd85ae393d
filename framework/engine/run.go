package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/encode"
	"github.com/polyclass/polyclass/framework/sdk"
)

// FoldResult is one fold of one cell.
type FoldResult struct {
	Repeat  int                `json:"repeat"`
	Fold    int                `json:"fold"`
	NTrain  int                `json:"n_train"`
	NTest   int                `json:"n_test"`
	Metrics map[string]float64 `json:"metrics"`
	// Warnings counts metric values set by a convention (0/0 → 0).
	Warnings       map[string]int `json:"warnings,omitempty"`
	Ties           int            `json:"ties"`
	FitSeconds     float64        `json:"fit_seconds"`
	PredictSeconds float64        `json:"predict_seconds"`
	// Confusion is the K×K confusion matrix (rows = actual).
	Confusion [][]int `json:"confusion"`
	// Diagnostics and Warnings are the reducer's notes on its plan (code
	// matrix distances, degenerate columns).
	Diagnostics  map[string]float64 `json:"diagnostics,omitempty"`
	PlanWarnings []string           `json:"plan_warnings,omitempty"`
	// Predictions holds the fold's per-row predictions when
	// Options.KeepPredictions is set; it is not written to cell files.
	Predictions *Predictions `json:"-"`
}

// Predictions are one fold's predictions for its test rows.
type Predictions struct {
	// Rows are the 0-based data rows of the test part.
	Rows []int
	// True and Predicted are class indices (multiclass).
	True, Predicted []int
	// TrueSet and PredSet are the rows × K 0/1 label matrices (multi-label).
	TrueSet, PredSet *mat.Dense
	// Scores is the rows × K matrix of class probabilities the metrics used.
	Scores *mat.Dense
}

// CellResult is a finished cell.
type CellResult struct {
	Index int `json:"index"`
	ID
	Classes []string     `json:"classes"`
	Folds   []FoldResult `json:"folds"`
	Error   string       `json:"error,omitempty"`
}

// Failed reports whether the cell failed.
func (c *CellResult) Failed() bool { return c.Error != "" }

// Options configure a run.
type Options struct {
	// Workers is the number of folds run at once (default: CPUs).
	Workers int
	// Sink receives every cell as it finishes (failed ones included; not
	// the cells cut off by an interruption), one call at a time; nil means
	// none. Package results implements it with one file per cell.
	Sink Sink
	// Done holds cells finished by an earlier run, by cell index: they are
	// not run again, and Run returns them among its results.
	Done map[int]*CellResult
	// Progress is called after each fold with the folds done and total.
	Progress func(done, total int)
	// Log receives one line per failed cell.
	Log io.Writer
	// Timeout bounds one fold of one cell; 0 means no bound.
	Timeout time.Duration
	// KeepPredictions keeps every fold's per-row predictions in the results.
	KeepPredictions bool
}

// Sink receives finished cells.
type Sink interface {
	// CellFinished is called once per finished cell, never concurrently.
	// An error is reported by Run and does not stop the run.
	CellFinished(r *CellResult) error
}

// Stats counts what a run did.
type Stats struct {
	// Uploads counts datasets sent to learner plugins.
	Uploads int64
	// Folds counts the folds run.
	Folds int64
}

// matrixKey identifies one encoded design matrix.
type matrixKey struct{ dataset, pipeline, repeat, fold int }

type matrixEntry struct {
	once   sync.Once
	m      sdk.Matrix
	enc    *sdk.EncodedMatrix
	digest atomic.Pointer[string] // kept after m and enc are freed
	err    error
	refs   atomic.Int64
}

// groupKey identifies the design matrices of one dataset and pipeline.
type groupKey struct{ dataset, pipeline int }

type task struct {
	cell         *Cell
	repeat, fold int
	key          matrixKey
}

// Run cross-validates every cell of g. Results are returned in cell order;
// a failed cell carries its error, and never stops the others. Run returns
// an error only when ctx is cancelled (with the results finished so far).
func Run(ctx context.Context, g *Grid, opt Options) ([]*CellResult, Stats, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	dsIndex := map[*Dataset]int{}
	for i, d := range g.Datasets {
		dsIndex[d] = i
	}
	plIndex := map[*Pipeline]int{}
	for i, p := range g.Pipelines {
		plIndex[p] = i
	}
	// Tasks grouped by dataset and pipeline, so that each fold's design
	// matrix is built once and freed when the group's last task ends; within
	// a group cell by cell, so that cells finish (and are saved) early.
	var tasks []task
	matrices := map[matrixKey]*matrixEntry{}
	groups := map[groupKey]*atomic.Int64{}
	for di, d := range g.Datasets {
		for pi, p := range g.Pipelines {
			for _, c := range g.Cells {
				if c.Dataset != d || c.Pipeline != p || opt.Done[c.Index] != nil {
					continue
				}
				for rep := range d.Folds {
					for f := 0; f < d.NumFolds; f++ {
						key := matrixKey{di, pi, rep, f}
						tasks = append(tasks, task{cell: c, repeat: rep, fold: f, key: key})
						if matrices[key] == nil {
							matrices[key] = &matrixEntry{}
						}
						matrices[key].refs.Add(1)
						gk := groupKey{di, pi}
						if groups[gk] == nil {
							groups[gk] = &atomic.Int64{}
						}
						groups[gk].Add(1)
					}
				}
			}
		}
	}
	results := make([]*CellResult, len(g.Cells))
	remaining := make([]int, len(g.Cells))
	for i, c := range g.Cells {
		if done := opt.Done[i]; done != nil {
			results[i] = done
			continue
		}
		id := c.ID()
		results[i] = &CellResult{Index: i, ID: id, Classes: c.Dataset.Classes,
			Folds: make([]FoldResult, len(c.Dataset.Folds)*c.Dataset.NumFolds)}
		remaining[i] = len(results[i].Folds)
	}
	var (
		mu          sync.Mutex
		ls          leases
		stats       Stats
		done        int
		foldErrs    = make([]map[int]error, len(g.Cells))
		interrupted = make([]bool, len(g.Cells))
		writeErrs   []error
	)
	ch := make(chan task)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range ch {
				entry := matrices[t.key]
				mu.Lock()
				failed := foldErrs[t.cell.Index] != nil
				mu.Unlock()
				var fr FoldResult
				var err error
				if !failed {
					fr, err = runFold(ctx, g, t, entry, &ls, &stats, opt.Timeout, opt.KeepPredictions)
					// The process may have died in another cell's fold: try
					// again on a fresh one, a bounded number of times.
					for retry := 0; retry < maxRetries && errors.Is(err, errPluginDied) && ctx.Err() == nil; retry++ {
						mu.Lock()
						failed := foldErrs[t.cell.Index] != nil
						mu.Unlock()
						if failed {
							break // the cell failed anyway: no more restarts for it
						}
						fr, err = runFold(ctx, g, t, entry, &ls, &stats, opt.Timeout, opt.KeepPredictions)
					}
				} else {
					err = errSkipped
				}
				if entry.refs.Add(-1) == 0 {
					entry.m, entry.enc = sdk.Matrix{}, nil
				}
				if gk := (groupKey{t.key.dataset, t.key.pipeline}); groups[gk].Add(-1) == 0 {
					// The group's last task: its matrices (the same one for
					// every fold when nothing is fitted) are needed no more,
					// unless an unfinished group made an identical one.
					ls.forget(unused(gk, matrices, groups), func(free []string) { forget(ctx, g, free...) })
				}
				mu.Lock()
				i := t.cell.Index
				slot := t.repeat*t.cell.Dataset.NumFolds + t.fold
				if err != nil && ctx.Err() != nil {
					// Cut off by the interruption, not failed: the cell
					// stays unfinished and is neither written nor reported.
					interrupted[i] = true
				}
				if err != nil {
					if foldErrs[i] == nil {
						foldErrs[i] = map[int]error{}
					}
					foldErrs[i][slot] = err
				} else {
					results[i].Folds[slot] = fr
				}
				remaining[i]--
				done++
				if remaining[i] == 0 && !interrupted[i] {
					finishCell(results[i], foldErrs[i], t.cell)
					if results[i].Failed() && opt.Log != nil {
						fmt.Fprintf(opt.Log, "cell %d (%s) failed: %s\n", i, results[i].Key(), results[i].Error)
					}
					if opt.Sink != nil {
						if err := opt.Sink.CellFinished(results[i]); err != nil {
							writeErrs = append(writeErrs, err)
						}
					}
				}
				if opt.Progress != nil {
					opt.Progress(done, len(tasks))
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, t := range tasks {
		select {
		case ch <- t:
		case <-ctx.Done():
			break feed
		}
	}
	close(ch)
	wg.Wait()
	stats.Folds = int64(done)
	if err := ctx.Err(); err != nil {
		var finished []*CellResult
		for i, r := range results {
			if remaining[i] == 0 && !interrupted[i] {
				finished = append(finished, r)
			}
		}
		return finished, stats, errors.Join(fmt.Errorf("run interrupted after %d of %d folds: %w", done, len(tasks), err), errors.Join(writeErrs...))
	}
	return results, stats, errors.Join(writeErrs...)
}

var errSkipped = errors.New("skipped after an earlier fold failed")

// unused returns the digests of group gk's matrices that no unfinished
// group has also made (content addressing lets two pipelines share one).
func unused(gk groupKey, matrices map[matrixKey]*matrixEntry, groups map[groupKey]*atomic.Int64) []string {
	busy := map[string]bool{}
	var mine []string
	for k, e := range matrices {
		d := e.digest.Load()
		if d == nil {
			continue
		}
		switch own := (groupKey{k.dataset, k.pipeline}); {
		case own == gk:
			mine = append(mine, *d)
		case groups[own].Load() > 0:
			busy[*d] = true
		}
	}
	sort.Strings(mine)
	mine = slices.Compact(mine)
	return slices.DeleteFunc(mine, func(d string) bool { return busy[d] })
}

// forget tells every running learner plugin that no task needs the design
// matrices any more, so that their memory goes back before the cache's
// budget would evict them.
func forget(ctx context.Context, g *Grid, digests ...string) {
	if g.Host == nil || len(digests) == 0 || ctx.Err() != nil {
		return // an interrupted run's plugins are about to be stopped
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	for _, lp := range g.Plugins() {
		if lp.Learner == nil {
			continue
		}
		if p := g.Host.Running(lp.Name); p != nil {
			_ = p.Learner.Forget(ctx, digests...)
		}
	}
}

// maxRetries bounds how often a fold whose plugin process ended under it is
// run again on a fresh process.
const maxRetries = 2

// finishCell records the first failure in fold order (a fold's own failure
// before collateral ones), so the message does not depend on which worker
// failed first.
func finishCell(r *CellResult, errs map[int]error, c *Cell) {
	if len(errs) == 0 {
		return
	}
	// Prefer a fold's own failure to the collateral of a plugin that died
	// or was stopped in a sibling fold.
	slots := make([]int, 0, len(errs))
	for s, err := range errs {
		if !errors.Is(err, errSkipped) && !errors.Is(err, errPluginDied) {
			slots = append(slots, s)
		}
	}
	if len(slots) == 0 {
		for s, err := range errs {
			if !errors.Is(err, errSkipped) {
				slots = append(slots, s)
			}
		}
	}
	sort.Ints(slots)
	if len(slots) == 0 {
		r.Error = errSkipped.Error()
	} else {
		s := slots[0]
		r.Error = fmt.Sprintf("repeat %d fold %d: %v", s/c.Dataset.NumFolds, s%c.Dataset.NumFolds, errs[s])
	}
	r.Folds = nil
}

// design returns the encoded matrix of a task, building it on first use.
func design(g *Grid, t task, e *matrixEntry) (sdk.Matrix, *sdk.EncodedMatrix, error) {
	e.once.Do(func() {
		d, p := t.cell.Dataset, t.cell.Pipeline
		train, _ := cv.Split(d.Folds[t.repeat], t.fold)
		ctx := &encode.Context{Train: train, Labels: d.Labels, K: d.K(),
			Seed: cv.Seed(g.Experiment.Seed, "encode", d.Config.Name, p.Config.Name, strconv.Itoa(t.repeat), strconv.Itoa(t.fold))}
		f := d.Features
		for i, s := range p.Steps {
			var err error
			if f, err = s.FitTransform(f, ctx); err != nil {
				e.err = fmt.Errorf("pipeline %s step %d (%s): %w", p.Config.Name, i+1, p.Config.Steps[i], err)
				return
			}
		}
		m, _, err := f.Design()
		if err != nil {
			e.err = fmt.Errorf("dataset %s, pipeline %s: %w", d.Config.Name, p.Config.Name, err)
			return
		}
		e.m, e.enc = m, sdk.EncodeMatrix(m)
		e.digest.Store(&e.enc.Digest)
	})
	return e.m, e.enc, e.err
}
