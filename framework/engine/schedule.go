package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/polyclass/polyclass/framework/curves"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/safetext"
)

// foldFunc runs one task of a run: one fold of one cell on its design
// matrix entry.
type foldFunc func(ctx context.Context, t task, e *matrixEntry) (outcome.FoldResult, error)

// scheduler runs the folds of a grid's cells on a pool of workers. It owns
// the run's shared state: the task list, the design matrices and their
// reference counts, the leases, and the results with their bookkeeping
// (folds left per cell, fold errors, interrupted cells). Each finished
// cell goes to the Sink at once.
type scheduler struct {
	g   *Grid
	opt Options
	// fold runs one task; Run uses the engine's, tests their own.
	fold foldFunc

	tasks []task
	// cpus is the number of CPUs the folds share (GOMAXPROCS), workers
	// the number of folds run at once, and unfinished the number of tasks
	// not yet recorded (see fitThreads).
	cpus       int
	workers    int
	unfinished atomic.Int64
	matrices   map[matrixKey]*matrixEntry
	groups     map[groupKey]*atomic.Int64
	// fits holds the run's models by problem identity; shares counts the
	// unfinished tasks of each share group, whose models go with its last.
	fits   *fitTable
	shares map[shareKey]*atomic.Int64
	// shareTasks is the number of tasks of each share group: a group of
	// one has no fold to share its inner fits with (see innerScore).
	shareTasks map[shareKey]int
	// shareCells are the cells of each share group's tasks, in order.
	shareCells map[shareKey][]*Cell
	// plans holds the reducers' plans by request (see planCache).
	plans *planCache
	ls    leases
	stats Stats
	clock phaseClock

	// written carries finished cells to the writer (see writer), which
	// hands them to Options.Sink one at a time, so that a worker goes on to
	// its next fold while a cell file is made durable.
	written chan *outcome.CellResult
	// writeNs is the writer's time in the Sink (Stats.WriteSeconds).
	writeNs atomic.Int64

	mu        sync.Mutex // guards what follows
	results   []*outcome.CellResult
	remaining []int // folds not yet recorded, per cell
	foldErrs  []map[int]error
	// ownFail is, per cell, the lowest fold slot whose failure skips the
	// folds above it (see skipsAbove: a timeout, or a plugin that died on
	// every try), or math.MaxInt when none has: the folds above it are
	// skipped (failedBelow).
	ownFail     []int
	interrupted []bool
	done        int
	writeErrs   []error
	// worked and work are the Progress counts: the weights of the folds
	// recorded and of every fold (Options.Weight), by cell.
	worked, work int
	weights      map[*Cell]int

	// pooled holds the finished folds of each unfinished cell, by fold
	// slot, for its threshold views (see pool).
	pooledMu sync.Mutex
	pooled   map[int]map[int]*curves.Fold
}

// newScheduler plans the run of g: every fold of every cell not in
// opt.Done, grouped by dataset and pipeline so that each fold's design
// matrix is built once and freed when the group's last task ends. Within a
// group, the cells of one learner and parameters run side by side, fold
// by fold, so that their folds' shared fits (see fitTable) are made once
// and let go when the fold's last cell is done with them; a learner's
// cells are queued after the previous learner's, so that cells still
// finish (and are saved) early.
func newScheduler(g *Grid, opt Options) *scheduler {
	s := &scheduler{g: g, opt: opt, cpus: runtime.GOMAXPROCS(0),
		matrices: map[matrixKey]*matrixEntry{}, groups: map[groupKey]*atomic.Int64{},
		fits: newFitTable(), shares: map[shareKey]*atomic.Int64{}, shareTasks: map[shareKey]int{},
		shareCells: map[shareKey][]*Cell{}, plans: newPlanCache()}
	s.fold = s.runFold
	s.fits.batch, s.fits.stats = releaseBatch, &s.stats
	for di, d := range g.Datasets {
		for pi, p := range g.Pipelines {
			var cells []*Cell
			for _, c := range g.Cells {
				if c.Dataset != d || c.Pipeline != p || opt.Done[c.Index] != nil || !s.selected(c.Index) {
					continue
				}
				cells = append(cells, c)
			}
			for _, same := range byLearner(cells) {
				s.add(same, groupKey{di, pi})
			}
		}
	}
	s.weigh()
	n := len(g.Cells)
	s.results, s.remaining = make([]*outcome.CellResult, n), make([]int, n)
	s.foldErrs, s.interrupted = make([]map[int]error, n), make([]bool, n)
	s.ownFail = make([]int, n)
	for i := range s.ownFail {
		s.ownFail[i] = math.MaxInt
	}
	for i, c := range g.Cells {
		if !s.selected(i) {
			continue
		}
		if done := opt.Done[i]; done != nil {
			s.results[i] = done
			continue
		}
		s.results[i] = &outcome.CellResult{Index: i, ID: c.ID(), Classes: c.Dataset.Classes,
			Folds: make([]outcome.FoldResult, len(c.Dataset.Folds)*c.Dataset.NumFolds)}
		if l := c.Learner; l.Candidates != nil {
			s.results[i].TuneMetric = l.TuneMetric
			if t := l.Config.Tune; !t.IsGrid() {
				s.results[i].TuneStrategy, s.results[i].TuneFolds = t.Strategy, t.Folds
				if t.OverParam() {
					s.results[i].TuneResource, s.results[i].TuneMaxResource = t.Resource, l.MaxResource
				}
			}
			for _, cand := range l.Candidates {
				s.results[i].TuneCandidates = append(s.results[i].TuneCandidates, l.tunedName(cand))
			}
		}
		s.remaining[i] = len(s.results[i].Folds)
	}
	return s
}

// weigh sets the weight of every cell with a task and the total work
// (see Options.Weight).
func (s *scheduler) weigh() {
	s.weights = map[*Cell]int{}
	for _, t := range s.tasks {
		w, ok := s.weights[t.cell]
		if !ok {
			w = 1
			if s.opt.Weight != nil {
				w = max(s.opt.Weight(t.cell), 1)
			}
			s.weights[t.cell] = w
		}
		s.work += w
	}
}

// selected reports whether the run includes cell i (Options.Select).
func (s *scheduler) selected(i int) bool { return s.opt.Select == nil || s.opt.Select(i) }

// byLearner splits cells (of one dataset and pipeline) into runs of the
// same learner plugin and parameters (see sharedLearner), in the order
// each first appears.
func byLearner(cells []*Cell) [][]*Cell {
	var order []string
	same := map[string][]*Cell{}
	for _, c := range cells {
		k := sharedLearner(c)
		if same[k] == nil {
			order = append(order, k)
		}
		same[k] = append(same[k], c)
	}
	out := make([][]*Cell, len(order))
	for i, k := range order {
		out[i] = same[k]
	}
	return out
}

// add queues every fold of cells, which share their dataset, learner and
// parameters and whose design matrices belong to group gk: fold by fold,
// each fold's cells side by side (one share group).
func (s *scheduler) add(cells []*Cell, gk groupKey) {
	d := cells[0].Dataset
	for rep := range d.Folds {
		for f := 0; f < d.NumFolds; f++ {
			for _, c := range cells {
				s.addTask(c, gk, rep, f)
			}
		}
	}
}

// addTask queues fold f of repeat rep of cell c, whose design matrices
// belong to group gk.
func (s *scheduler) addTask(c *Cell, gk groupKey, rep, f int) {
	key := matrixKey{gk.dataset, gk.pipeline, rep, f}
	sk := shareKey{dataset: gk.dataset, pipeline: gk.pipeline, learner: sharedLearner(c), repeat: rep, fold: f}
	s.tasks = append(s.tasks, task{cell: c, repeat: rep, fold: f, key: key, share: sk})
	if s.matrices[key] == nil {
		s.matrices[key] = &matrixEntry{}
	}
	s.matrices[key].refs.Add(1)
	s.matrices[key].tasks++
	if s.groups[gk] == nil {
		s.groups[gk] = &atomic.Int64{}
	}
	s.groups[gk].Add(1)
	if s.shares[sk] == nil {
		s.shares[sk] = &atomic.Int64{}
	}
	s.shares[sk].Add(1)
	s.shareTasks[sk]++
	s.shareCells[sk] = append(s.shareCells[sk], c)
}

// run feeds the tasks to the workers until they are done or ctx ends.
func (s *scheduler) run(ctx context.Context) ([]*outcome.CellResult, Stats, error) {
	workers := poolSize(s.opt.Workers, len(s.tasks))
	s.workers, s.stats.Workers = workers, workers
	s.unfinished.Store(int64(len(s.tasks)))
	ch := make(chan task)
	writerDone := s.startWriter(workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range ch {
				fr, err := s.execute(ctx, t)
				s.unfinished.Add(-1) // done fitting: its share goes to the others
				s.free(ctx, t)
				s.record(t, fr, err, ctx.Err() != nil)
			}
		}()
	}
feed:
	for _, t := range s.tasks {
		select {
		case ch <- t:
		case <-ctx.Done():
			break feed
		}
	}
	close(ch)
	wg.Wait()
	close(s.written)
	<-writerDone      // every finished cell handed to the Sink
	s.fits.flush(ctx) // the models of the last share groups
	s.ls.wait()       // the plugins' Forget calls, before the caller closes them
	var cause error
	if ctx.Err() != nil {
		cause = context.Cause(ctx) // the signal that stopped the run, say
	}
	return s.outcome(cause)
}

// poolSize returns the number of workers that run tasks folds when
// asked for workers (≤ 0: the number of CPUs): never more than the folds,
// since a worker with no fold to run would only hold memory (-j 100000000
// starts one goroutine per fold, not 10⁸).
func poolSize(workers, tasks int) int {
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	return min(workers, tasks)
}

// fitThreads returns the share of the CPUs a fit may keep busy now
// (FitRequest.threads), by shareCPUs.
func (s *scheduler) fitThreads() int {
	return shareCPUs(s.cpus, s.workers, int(s.unfinished.Load()))
}

// shareCPUs returns each fold's share of cpus when workers run folds at
// once and unfinished tasks are left (running or waiting): cpus over the
// folds that keep running, min(workers, unfinished), rounded down, and at
// least 1. It is joblib's rule for the threads of each of its workers:
// folds fitted side by side each use their share, not every CPU, so that
// plugin processes do not oversubscribe the CPUs (threads beyond the cores
// cost context switches and caches), while the last folds of a run, with
// idle workers beside them, use the CPUs those leave.
func shareCPUs(cpus, workers, unfinished int) int {
	busy := max(min(workers, unfinished), 1)
	return max(cpus/busy, 1)
}

// failedBelow reports whether a fold of t's cell in a lower slot than t's
// has failed in a way that skips the folds above it (see skipsAbove: it
// timed out, or its plugin died on every try), which makes t's fold not
// worth its cost: the cell fails either way. Any other failure, a
// learner's or reducer's answer, and a plugin that died under a fold
// once (in a sibling fold, perhaps), skips nothing.
//
// Only folds above such a failure are skipped, never those below it, so
// that the error a cell records is the same whatever the workers and
// their timing: a skip needs a lower skipping failure, which is an own
// failure (ownFailure), so every fold up to the lowest own failure runs
// and that fold is always the one finishCell names. Skipping every fold
// once any had failed made it depend on scheduling: with -j 4, fold 1
// could fail before fold 0's worker looked, and fold 0 was skipped and
// fold 1 named. A running fold is never cut short.
func (s *scheduler) failedBelow(t task) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ownFail[t.cell.Index] < slotOf(t)
}

// slotOf returns the index of t's fold among its cell's folds
// (CellResult.Folds): repeat-major.
func slotOf(t task) int { return t.repeat*t.cell.Dataset.NumFolds + t.fold }

// ownFailure reports whether a fold's error is its own failure, which
// finishCell names before any other, rather than a skip or the
// collateral of a plugin process that ended under it. Only some own
// failures skip the folds above them (see skipsAbove).
func ownFailure(err error) bool {
	var every diedOnEveryTry
	if errors.As(err, &every) {
		return true
	}
	return err != nil && !errors.Is(err, errSkipped) && !errors.Is(err, errPluginDied)
}

// skipsAbove reports whether a fold's error skips its cell's folds above
// it (see failedBelow): a fold's own failure that each fold above would
// cost as much again, a timeout (cv.timeout each) or a plugin that died
// on every try (maxRetries restarts each). Any other failure, a
// learner's or reducer's answer say, skips nothing: whether a fold above
// it had started when it failed is a matter of timing, so a skip made
// the calls a run makes (Fit, Predict, Decode, the fits requested and
// made) differ between runs and between -j; the cell records the lowest
// failure either way (finishCell).
func skipsAbove(err error) bool {
	if !ownFailure(err) {
		return false
	}
	var every diedOnEveryTry
	return errors.As(err, &every) || errors.Is(err, context.DeadlineExceeded) || status.Code(err) == codes.DeadlineExceeded
}

// execute runs task t unless a lower fold of its cell has already failed
// in a way that skips it (see failedBelow). A fold whose plugin process ended under it (perhaps
// in another cell's fold) runs again on a fresh process, at most
// maxRetries times, while no lower fold of its cell has failed in a way
// that skips it. A fold of a cell whose plugin did not start
// (Cell.startErr) fails at once with the start's error.
func (s *scheduler) execute(ctx context.Context, t task) (outcome.FoldResult, error) {
	if s.failedBelow(t) {
		return outcome.FoldResult{}, errSkipped
	}
	if err := t.cell.startErr(); err != nil {
		// A plugin did not start when the run began (Resolve kept its
		// learner or reduction): the fold fails as one whose plugin
		// cannot be started again after a crash, with the same error,
		// and nothing is encoded for it.
		return outcome.FoldResult{}, err
	}
	e := s.matrices[t.key]
	fr, err := s.fold(ctx, t, e)
	for retry := 0; retry < maxRetries && errors.Is(err, errPluginDied) && ctx.Err() == nil; retry++ {
		if s.failedBelow(t) {
			break // a lower fold's skipping failure fails the cell: no more restarts
		}
		fr, err = s.fold(ctx, t, e)
		if retry == maxRetries-1 && errors.Is(err, errPluginDied) && ctx.Err() == nil {
			err = diedOnEveryTry{err}
		}
	}
	return fr, err
}

// diedOnEveryTry is the error of a fold whose plugin process ended under
// it on its first try and on each of its maxRetries retries: the fold
// itself, most likely, kills the plugin (a learner that crashes on these
// parameters), so it counts as the fold's own failure (ownFailure), one
// that skips the cell's folds above it (skipsAbove) rather than let each
// crash the process, shared with other cells, three times more.
type diedOnEveryTry struct{ err error }

func (e diedOnEveryTry) Error() string { return e.err.Error() }
func (e diedOnEveryTry) Unwrap() error { return e.err }

// free drops task t's hold on its design matrix and, when t is its share
// group's last task, releases the group's models. When t is the matrix's
// last task, the matrix is dropped, and the learner plugins are told to
// forget it unless it may serve another task (see done). When t is its
// group's last task, the group's matrices (the same one for every fold
// when nothing is fitted) are needed no more, unless an unfinished group
// made an identical one: the learner plugins are told to forget them.
// They are told on a goroutine of its own (leases.forgetAsync), so that a
// plugin slow to answer holds up no worker.
func (s *scheduler) free(ctx context.Context, t task) {
	if s.shares[t.share].Add(-1) == 0 {
		s.fits.release(ctx, t.share)
	}
	e := s.matrices[t.key]
	// A task that failed or was skipped before it settled has ended all
	// the same: it must not keep the matrix for the entry's other tasks.
	e.settle(t.cell.Index)
	last := e.refs.Add(-1) == 0
	if last {
		e.drop()
	}
	drop := func(free []string) { forget(ctx, s.g, free...) }
	gk := groupKey{t.key.dataset, t.key.pipeline}
	switch {
	case s.groups[gk].Add(-1) == 0:
		s.ls.forgetAsync(unused(gk, s.matrices, s.groups), drop)
	case last:
		s.ls.forgetAsync(done(t.key, s.matrices), drop)
	}
}

// record stores a fold's outcome. A fold cut off by an interruption leaves
// its cell unfinished: neither written nor reported. The cell's last fold
// finishes the cell and hands it to the Sink.
func (s *scheduler) record(t task, fr outcome.FoldResult, err error, interrupted bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := t.cell.Index
	slot := slotOf(t)
	switch {
	case err != nil:
		if interrupted {
			s.interrupted[i] = true
		}
		if s.foldErrs[i] == nil {
			s.foldErrs[i] = map[int]error{}
		}
		s.foldErrs[i][slot] = err
		if skipsAbove(err) {
			s.ownFail[i] = min(s.ownFail[i], slot)
		}
	default:
		s.results[i].Folds[slot] = fr
	}
	s.remaining[i]--
	s.done++
	s.worked += s.weights[t.cell]
	// Reported now, under the lock: the views below release it, and a
	// fold recorded meanwhile would otherwise report this one's count
	// with its own, once for both.
	if s.opt.Progress != nil {
		s.opt.Progress(s.worked, s.work)
	}
	if s.remaining[i] == 0 && !s.interrupted[i] {
		// The views pool every fold's rows: computed outside the lock,
		// which the other workers' folds need meanwhile. Nothing else
		// touches a cell whose folds are all recorded.
		ok := s.foldErrs[i] == nil
		s.mu.Unlock()
		var views *curves.Set
		if ok {
			start := time.Now()
			views = s.views(i, t.cell)
			s.clock.since(phaseViews, start)
		}
		s.dropPooled(i)
		s.mu.Lock()
		s.results[i].Curves = views
		s.finish(i, t.cell)
		// Handed to the writer outside s.mu, which the other workers'
		// folds need meanwhile: nothing changes a finished cell.
		s.mu.Unlock()
		s.written <- s.results[i]
		s.mu.Lock()
	}
}

// startWriter starts the writer of finished cells: it hands each cell sent
// on s.written to Options.Sink, in the order sent, and records the Sink's
// errors; the returned channel is closed once s.written is closed and
// every cell sent was handed over. The buffer holds one cell per worker,
// so that a worker that finishes a cell while the previous one is being
// written does not wait, while at most that many finished cells are in
// memory only (an interrupted run writes them before it returns; a killed
// one computes them again when resumed, as it would a cell whose last
// fold had not ended).
func (s *scheduler) startWriter(workers int) <-chan struct{} {
	s.written = make(chan *outcome.CellResult, workers)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for r := range s.written {
			if err := s.write(r); err != nil {
				s.mu.Lock()
				s.writeErrs = append(s.writeErrs, err)
				s.mu.Unlock()
			}
		}
	}()
	return done
}

// finish closes cell i (s.mu held): its error, its log line. The error
// holds what a plugin wrote (its error's text, its stderr), shown on the
// terminal and in run.log escaped (safetext.Text); the cell file keeps
// the error as the engine got it (a plugin's stderr in it was escaped
// already, as the host captured it).
func (s *scheduler) finish(i int, c *Cell) {
	r := s.results[i]
	finishCell(r, s.foldErrs[i], c)
	if r.Failed() && s.opt.Log != nil {
		fmt.Fprintf(s.opt.Log, "cell %d (%s) failed: %s\n", i, r.Key(), safetext.Text(r.Error))
	}
}

// write hands a finished cell to the Sink (called by the writer alone).
func (s *scheduler) write(r *outcome.CellResult) error {
	if s.opt.Sink == nil {
		return nil
	}
	start := time.Now()
	defer func() { s.writeNs.Add(int64(time.Since(start))) }()
	return s.opt.Sink.CellFinished(r)
}

// outcome returns the results once the workers have stopped: every cell
// in order, or after an interruption (cause not nil) the finished ones.
func (s *scheduler) outcome(cause error) ([]*outcome.CellResult, Stats, error) {
	s.stats.Folds = int64(s.done)
	s.stats.Phases = s.clock.phases()
	s.stats.WriteSeconds = time.Duration(s.writeNs.Load()).Seconds()
	if cause != nil {
		var finished []*outcome.CellResult
		for i, r := range s.results {
			if r != nil && s.remaining[i] == 0 && !s.interrupted[i] {
				finished = append(finished, r)
			}
		}
		return finished, s.stats, errors.Join(fmt.Errorf("run interrupted after %d of %d folds: %w", s.done, len(s.tasks), cause), errors.Join(s.writeErrs...))
	}
	results := s.results
	if s.opt.Select != nil {
		results = slices.DeleteFunc(slices.Clone(results), func(r *outcome.CellResult) bool { return r == nil })
	}
	return results, s.stats, errors.Join(s.writeErrs...)
}

// sharedLearner names what decides whether two cells' learners may fit
// alike: the learner's plugin and the cell's parameters. Two learner
// blocks of one plugin and parameters (under different names, or
// class weights, which go into the problems) are one for sharing.
func sharedLearner(c *Cell) string {
	name := c.Learner.Config.Name
	if c.Learner.Plugin != nil {
		name = c.Learner.Plugin.Name
	}
	return name + "\x00" + c.Params.String()
}
