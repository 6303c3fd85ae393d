package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/encode"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/outcome"
)

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
	Done map[int]*outcome.CellResult
	// Select, when set, limits the run to the cells it accepts (a
	// shard's): the others are neither run nor returned.
	Select func(index int) bool
	// Progress is called after each fold with the work done and the
	// total: folds, or, with Weight set, the folds' weights summed.
	Progress func(done, total int)
	// Weight, when set, is the work of one fold of a cell (the models it
	// fits, say), so that Progress counts work rather than folds: a
	// one-vs-one fold on K classes fits K(K−1)/2 models where a
	// one-vs-all fold fits K. A weight below 1 counts as 1.
	Weight func(c *Cell) int
	// Log receives one line per failed cell.
	Log io.Writer
	// Timeout bounds one fold of one cell; 0 means no bound.
	Timeout time.Duration
	// KeepPredictions keeps every fold's per-row predictions in the results.
	KeepPredictions bool
	// DenseBudget bounds, in bytes, a sparse design matrix densified for a
	// learner without the sparse capability; a larger one fails the cell
	// with a *DenseBudgetError. 0 means DefaultDenseBudget.
	DenseBudget int64
	// DecodeBlock bounds, in bytes, the outputs (scores and probabilities)
	// of the test rows a fold predicts and decodes at once when its
	// reduction decodes row-wise; 0 means DefaultDecodeBlock. Results do
	// not depend on it.
	DecodeBlock int64
	// NoShare makes every fold fit all the problems it scores with
	// itself, as if no other cell of the run needed them (see fitTable):
	// the same models and numbers, more fits. It measures what sharing
	// saves.
	NoShare bool
}

// DefaultDecodeBlock is the default Options.DecodeBlock: 16 MiB, the
// scores of 105 test rows of a 200-class one-vs-one fold (19,900
// problems), of every test row of most folds (letter's 2,000 test rows of
// one-vs-one's 325 problems take 5 MiB). Each block's outputs pass
// through the learner's and the reducer's shared memory segments, whose
// pages both processes then hold.
const DefaultDecodeBlock = 16 << 20

// Sink receives finished cells.
type Sink interface {
	// CellFinished is called once per finished cell, never concurrently.
	// An error is reported by Run and does not stop the run.
	CellFinished(r *outcome.CellResult) error
}

// Stats counts what a run did.
type Stats struct {
	// Uploads counts datasets sent to learner plugins.
	Uploads int64
	// Folds counts the folds run.
	Folds int64
	// FitsRequested counts the models the folds used, FitsMade those the
	// learners trained: fewer where folds shared the fits of one problem
	// (see fitTable), more where a fit was made again (a plugin that
	// ended, a fold run again).
	FitsRequested, FitsMade int64
	// FitCalls counts the learners' Fit calls: fewer than the folds
	// where a fold fitted its share group's other cells' problems in its
	// own batch (see fold.siblingCandidates and fitTable.claimWith).
	FitCalls int64
	// PlansRequested counts the plans the folds used, PlansMade those the
	// reducers were asked for: fewer where folds asked the same (see
	// planCache).
	PlansRequested, PlansMade int64
	// PredictionsRequested counts the predictions of shared models (a
	// fold's final models, on its test rows or the training rows a
	// decoder reads) the folds used, PredictionsMade those the learners
	// were asked for: fewer where the cells of a share group decode the
	// same models (ovo and dag, the decoders of one code; see
	// fold.predictShared).
	PredictionsRequested, PredictionsMade int64
	// PredictCalls counts the learners' Predict calls: fewer where a fold
	// predicted its share group's other cells' outputs in its own call
	// (see fold.siblingOutputs).
	PredictCalls int64
	// ReleaseCalls counts the learners' Release calls for the models of
	// ended share groups, ModelsReleased the models they freed: the run's
	// table gathers the models of several small groups into one call (see
	// releaseBatch).
	ReleaseCalls, ModelsReleased int64
	// Workers is the number of folds the run ran at once.
	Workers int
	// Phases is the time the workers spent in each phase of their folds
	// (encode, upload, plan, fit, wait for shared fits, predict, decode,
	// score, views), summed over the workers, in that order.
	Phases []PhaseTime
	// WriteSeconds is the time the run's writer spent handing finished
	// cells to the Sink, beside the workers (not among their phases).
	WriteSeconds float64
}

// matrixKey identifies one encoded design matrix.
type matrixKey struct{ dataset, pipeline, repeat, fold int }

// matrixEntry is one design matrix of a run and the tasks that use it. It
// is built on first use; once each of its tasks has uploaded it for good
// (see settle), or the last has ended, the entry drops it, and a task that
// needs it again (a learner that lost it, a fold run again) has it encoded
// again, to the same digest.
type matrixEntry struct {
	mu  sync.Mutex // guards what follows up to refs
	m   matrix.Matrix
	enc *matrix.EncodedMatrix
	err error
	// The matrix densified, for learners without the sparse capability
	// (made on first use, when m is CSR); content addressing lets every
	// such learner's plugin share the one upload.
	dm   matrix.Matrix
	denc *matrix.EncodedMatrix
	// tasks is the number of the entry's tasks; settled holds the cells
	// of those that have settled.
	tasks   int
	settled map[int]bool

	digest      atomic.Pointer[string] // kept after m and enc are dropped
	denseDigest atomic.Pointer[string]
	refs        atomic.Int64
}

// bigMatrix is the wire size from which the engine gives the memory of an
// encoded matrix, and of what encoding it left behind, back to the
// operating system as soon as it is garbage (debug.FreeOSMemory): a
// collection costs little next to the fold of such a matrix.
const bigMatrix = 16 << 20

// freeIfBig gives the process's free memory back to the operating system
// when a matrix of size wire bytes (or what was made on its way) has just
// become garbage.
func freeIfBig(size int) {
	if size >= bigMatrix {
		debug.FreeOSMemory()
	}
}

// size returns the wire size of the entry's matrices held. The caller
// holds e.mu.
func (e *matrixEntry) size() int {
	n := 0
	for _, enc := range []*matrix.EncodedMatrix{e.enc, e.denc} {
		if enc != nil {
			n += enc.Size()
		}
	}
	return n
}

// drop lets the entry's matrices go (their digests stay) and gives their
// memory back when they are big.
func (e *matrixEntry) drop() {
	e.mu.Lock()
	size := e.size()
	e.m, e.enc, e.dm, e.denc = matrix.Matrix{}, nil, matrix.Matrix{}, nil
	e.mu.Unlock()
	freeIfBig(size)
}

// settle records that cell's task has uploaded the matrix for good: it
// needs the matrix no more, unless its learner loses it. When every task
// of the entry has settled, the entry drops the matrix, so that bench does
// not hold a copy of what the learner plugins hold through the long fits.
// A task that settles twice (a fold run again) counts once.
func (e *matrixEntry) settle(cell int) {
	e.mu.Lock()
	if e.settled == nil {
		e.settled = map[int]bool{}
	}
	e.settled[cell] = true
	all := len(e.settled) == e.tasks
	e.mu.Unlock()
	if all {
		e.drop()
	}
}

// digests returns the digests of the entry's matrices made so far.
func (e *matrixEntry) digests() []string {
	var out []string
	for _, d := range []*string{e.digest.Load(), e.denseDigest.Load()} {
		if d != nil {
			out = append(out, *d)
		}
	}
	return out
}

// groupKey identifies the design matrices of one dataset and pipeline.
type groupKey struct{ dataset, pipeline int }

type task struct {
	cell         *Cell
	repeat, fold int
	key          matrixKey
	share        shareKey
}

// Run cross-validates every cell of g. Results are returned in cell order;
// a failed cell carries its error, and never stops the others. Run returns
// an error only when ctx is cancelled (with the results finished so far).
func Run(ctx context.Context, g *Grid, opt Options) ([]*outcome.CellResult, Stats, error) {
	return newScheduler(g, opt).run(ctx)
}

var errSkipped = errors.New("skipped after an earlier fold failed")

// unused returns the digests of group gk's matrices that no unfinished
// group has also made (content addressing lets two pipelines share one).
func unused(gk groupKey, matrices map[matrixKey]*matrixEntry, groups map[groupKey]*atomic.Int64) []string {
	busy := map[string]bool{}
	var mine []string
	for k, e := range matrices {
		for _, d := range e.digests() {
			switch own := (groupKey{k.dataset, k.pipeline}); {
			case own == gk:
				mine = append(mine, d)
			case groups[own].Load() > 0:
				busy[d] = true
			}
		}
	}
	sort.Strings(mine)
	mine = slices.Compact(mine)
	return slices.DeleteFunc(mine, func(d string) bool { return busy[d] })
}

// done returns the digests of entry k's matrices, whose tasks have all
// ended, that no other entry still in use has made, provided that k's
// group has made matrices of different digests: its pipeline fits on each
// fold's rows, so a later fold (whose digest is not known before it is
// encoded) will not make k's again. Forgetting these at once keeps a
// learner plugin from holding every fold's matrix of a group until the
// group's end; a pipeline that fits nothing makes one matrix for all its
// folds, which stays until then.
func done(k matrixKey, matrices map[matrixKey]*matrixEntry) []string {
	mine := matrices[k].digests()
	if len(mine) == 0 {
		return nil
	}
	busy := map[string]bool{}
	differ := false
	for k2, e := range matrices {
		if k2 == k {
			continue
		}
		ds := e.digests()
		if k2.dataset == k.dataset && k2.pipeline == k.pipeline && len(ds) > 0 && !slices.Contains(mine, ds[0]) {
			differ = true
		}
		if e.refs.Load() > 0 {
			for _, d := range ds {
				busy[d] = true
			}
		}
	}
	if !differ {
		return nil
	}
	return slices.DeleteFunc(mine, func(d string) bool { return busy[d] })
}

// forget tells every running learner plugin that no task needs the design
// matrices any more, so that their memory goes back before the cache's
// budget would evict them.
func forget(ctx context.Context, g *Grid, digests ...string) {
	if g.Host == nil || len(digests) == 0 || ctx.Err() != nil {
		return // an interrupted run's plugins are about to be stopped
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), forgetTimeout)
	defer cancel()
	var wg sync.WaitGroup
	for _, lp := range g.Plugins() {
		if lp.Learner == nil {
			continue
		}
		if p := g.Host.Running(lp.Name); p != nil {
			wg.Add(1)
			go func() { // a plugin slow to answer holds up no other
				defer wg.Done()
				_ = p.Forget(ctx, digests...)
			}()
		}
	}
	wg.Wait()
}

// forgetTimeout bounds a Forget call: the plugin answers at once unless it
// is stuck, and forgetting is only a saving of memory.
const forgetTimeout = 5 * time.Second

// maxRetries bounds how often a fold whose plugin process ended under it is
// run again on a fresh process.
const maxRetries = 2

// finishCell records the first failure in fold order (a fold's own failure
// before collateral ones), so the message does not depend on which worker
// failed first; the scheduler runs every fold up to the lowest own failure
// (it skips only the folds above a timeout or a plugin that died on every
// try: see scheduler.failedBelow), so that the lowest is there to be named.
func finishCell(r *outcome.CellResult, errs map[int]error, c *Cell) {
	if len(errs) == 0 {
		return
	}
	// Prefer a fold's own failure to the collateral of a plugin that died
	// or was stopped in a sibling fold.
	slots := make([]int, 0, len(errs))
	for s, err := range errs {
		if ownFailure(err) {
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

// design returns the encoded matrix of a task as its cell's learner takes
// it: built on first use (and again after the entry dropped it), and
// densified (also once, within budget bytes) for a learner without the
// sparse capability.
func design(g *Grid, t task, e *matrixEntry, budget int64) (matrix.Matrix, *matrix.EncodedMatrix, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.build(g, t); err != nil || !needsDense(t.cell, e.m) {
		return e.m, e.enc, err
	}
	if err := checkDense(t.cell, e.m, budget); err != nil {
		return matrix.Matrix{}, nil, err
	}
	if e.denc == nil {
		dm := e.m.AsDense()
		denc := matrix.StreamMatrix(dm)
		if err := sameDigest(&e.denseDigest, denc.Digest); err != nil {
			return matrix.Matrix{}, nil, err
		}
		e.dm, e.denc = dm, denc
	}
	return e.dm, e.denc, nil
}

// build encodes the entry's matrix unless it holds it. A failure is kept:
// the entry's other tasks fail alike. The caller holds e.mu.
func (e *matrixEntry) build(g *Grid, t task) error {
	if e.err != nil || e.enc != nil {
		return e.err
	}
	m, err := encodeFold(g, t.cell.Dataset, t.cell.Pipeline, t.repeat, t.fold)
	if err != nil {
		e.err = err
		return err
	}
	enc := matrix.StreamMatrix(m)
	if err := sameDigest(&e.digest, enc.Digest); err != nil {
		e.err = err
		return err
	}
	e.m, e.enc = m, enc
	// What the pipeline's steps made on the way is garbage now: its
	// pages go back before the fold's long fit, rather than stay with
	// the process until the next collection's scavenger gets to them.
	freeIfBig(enc.Size())
	return nil
}

// sameDigest stores digest d in p on the first encoding of a matrix and
// checks it on the next: an encoding made again must be the same matrix.
func sameDigest(p *atomic.Pointer[string], d string) error {
	if old := p.Load(); old != nil && *old != d {
		return fmt.Errorf("internal error: a design matrix encoded again has digest %s, not %s", d, *old)
	}
	p.Store(&d)
	return nil
}

// encodeFold returns the design matrix of dataset d under pipeline p
// fitted on the training rows of fold fold of repeat repeat, with the
// fold's encoding seed.
func encodeFold(g *Grid, d *Dataset, p *Pipeline, repeat, fold int) (matrix.Matrix, error) {
	train, _ := cv.Split(d.Folds[repeat], fold)
	return encodeRows(d, p, train, encodeSeed(g.Experiment.Seed, d, p, repeat, fold))
}

// encodeSeed is the encoding seed of dataset d under pipeline p in fold
// fold of repeat repeat, for the experiment's seed.
func encodeSeed(seed uint64, d *Dataset, p *Pipeline, repeat, fold int) uint64 {
	return cv.Seed(seed, "encode", d.Config.Name, p.Config.Name, strconv.Itoa(repeat), strconv.Itoa(fold))
}

// encodeRows fits pipeline p's steps on the train rows of dataset d and
// returns the design matrix of every row.
func encodeRows(d *Dataset, p *Pipeline, train []int, seed uint64) (matrix.Matrix, error) {
	f, i, err := fitSteps(d, p, train, seed)
	if err != nil {
		return matrix.Matrix{}, fmt.Errorf("pipeline %s step %d (%s): %w", p.Config.Name, i+1, p.Config.Steps[i], err)
	}
	m, _, err := f.Design()
	if err != nil {
		return matrix.Matrix{}, fmt.Errorf("dataset %s, pipeline %s: %w", d.Config.Name, p.Config.Name, err)
	}
	return m, nil
}

// fitSteps fits pipeline p's steps on the train rows of dataset d, with
// the encoding seed seed, and returns the frame they make of every row;
// on an error, the index of the step that failed.
func fitSteps(d *Dataset, p *Pipeline, train []int, seed uint64) (*encode.Frame, int, error) {
	ctx := &encode.Context{Train: train, Labels: d.Labels, K: d.K(), Seed: seed}
	f := d.Features
	for i, s := range p.Steps {
		var err error
		ctx.Last = i == len(p.Steps)-1
		if f, err = s.FitTransform(f, ctx); err != nil {
			return nil, i, err
		}
	}
	return f, 0, nil
}
