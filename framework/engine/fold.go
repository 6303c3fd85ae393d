package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/mat"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/metrics"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/problem"
	"github.com/polyclass/polyclass/framework/sparse"
)

// errPluginDied marks a fold that failed because its plugin process ended
// under it; the fold is run once more on a fresh process, since the
// process may have died in another cell's fold.
var errPluginDied = errors.New("plugin process ended")

// pluginErr explains a failed plugin call. A call that outlived the fold's
// timeout kills the plugin (a call that ignores its context would hold the
// plugin's workers forever); the host starts it again for later folds. A
// broken connection is reported before the process is seen to exit, so it
// waits a little for the exit and the last stderr lines, which it adds.
func pluginErr(ctx context.Context, err error, p *host.Plugin) error {
	if ctx.Err() == context.DeadlineExceeded || status.Code(err) == codes.DeadlineExceeded {
		if !p.KillFirst() {
			// Another fold's timeout stopped the process first: this one
			// may only have queued behind the stuck call.
			return fmt.Errorf("plugin %s: %w: stopped after another fold's timeout: %w", p.Name, errPluginDied, err)
		}
		waitExit(p)
		return withStderr(fmt.Errorf("plugin %s did not answer within the fold's timeout (cv.timeout); it was stopped and will be started again: %w", p.Name, err), p)
	}
	if status.Code(err) == codes.Unavailable || p.Killed() {
		waitExit(p)
	}
	if !p.Exited() && !p.Killed() {
		return err
	}
	// The process ended, or the host stopped it for another fold's
	// timeout (this call's connection closed under it): collateral damage,
	// run again on a fresh process.
	return withStderr(fmt.Errorf("plugin %s: %w (%s): %w", p.Name, errPluginDied, p.ExitReason(), err), p)
}

// waitExit waits up to 2 s for p's process to be seen ended, so that its
// last stderr lines have been read.
func waitExit(p *host.Plugin) {
	for deadline := time.Now().Add(2 * time.Second); !p.Exited() && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
}

// withStderr adds the last lines p's process wrote to stderr to err.
func withStderr(err error, p *host.Plugin) error {
	stderr := strings.TrimSpace(p.Stderr())
	if stderr == "" {
		return err
	}
	return fmt.Errorf("%w\nplugin stderr:\n%s", err, stderr)
}

// fold runs one fold of one cell.
type fold struct {
	ctx context.Context
	// base is ctx without the fold's timeout; timeout (cv.timeout, 0 for
	// none) bounds the fold's own calls from armTimeout on, and each
	// candidate of its tuning on its own (candidateContext); cancelTimeout
	// ends the armed bound.
	base          context.Context
	timeout       time.Duration
	cancelTimeout context.CancelFunc
	g             *Grid
	c             *Cell
	stats         *Stats
	train, test   []int
	seed          uint64 // the plan's seed
	solverSeed    uint64 // the seeds of inner fits' problems derive from it
	lp, rp        *host.Plugin
	// repeat and foldIndex place the fold in its dataset's folds.
	repeat, foldIndex int
	// share holds the run's models by problem identity, and group is the
	// fold's share group (see fitTable); a nil share fits every problem.
	// siblings are the cells of the group's tasks, whose problems the
	// fold may fit in its own batch (see siblingProblems).
	share    *fitTable
	group    shareKey
	siblings []*Cell
	// sibOutputs are the siblings' outputs on the test rows the fold
	// claimed with its fits, to predict in its own call (see
	// siblingOutputs); those left when it ends are given back.
	sibOutputs []claimedOutputs
	// idDigest, idBase and idBuild are identityBase's answer for design
	// matrix idDigest under the fold's params, kept for its next call.
	idDigest        string
	idBase, idBuild []byte
	// innerShare, when set, is the table that tuning's inner fits go
	// through (the run's, for a share group of several tasks); nil gives
	// each candidate's scoring a table of its own (see innerScore).
	innerShare *fitTable
	// plans holds the run's plans by request; nil asks the reducer for
	// every plan.
	plans *planCache
	// clock sums the run's time by phase; nil times nothing.
	clock *phaseClock

	// params are the learner's parameters for this fit (a candidate of a
	// tuned learner, else the cell's).
	params plugin.Params
	// threads returns the share of the CPUs a fit of the fold may keep
	// busy now (scheduler.fitThreads); nil leaves it to the plugin.
	threads func() int

	fitSeconds, predictSeconds float64
	// fits counts the models the fold trained, notConverged those the
	// learner said did not converge (outcome.FoldResult.NotConverged).
	fits, notConverged int
	models             [][]host.ModelRef // every batch trained, released at the end
	uploaded           map[string]*matrix.EncodedMatrix
	// reuploadMu keeps reuploaded's uploads (and uploaded) to one caller
	// at a time.
	reuploadMu sync.Mutex
	// denseBudget bounds the matrices densified for a learner without
	// the sparse capability (see forLearner).
	denseBudget int64
	// decodeBlock bounds the bytes of the test rows' outputs predicted and
	// decoded at once by a row-wise decoder (see predictDecode).
	decodeBlock int64

	// design is the digest of the task's design matrix, which the fold
	// lets go once uploaded for good (settle); redesign encodes it again
	// for a learner that lost it. Both are unset in inner folds (tuning,
	// calibration), which keep what they upload.
	design   string
	settle   func()
	redesign func() (*matrix.EncodedMatrix, error)

	// pred is the fold's predictions once scored.
	pred *outcome.Predictions
}

func (f *fold) lerr(err error) error { return pluginErr(f.ctx, err, f.lp) }
func (f *fold) rerr(err error) error { return pluginErr(f.ctx, err, f.rp) }

// plan asks the reducer for a stage's problems and gives every problem a
// solver seed from the cell's identity, the repeat, the fold, the stage and
// the problem's index, and the cell's class weights (see ClassWeights).
func (f *fold) plan(req plugin.PlanRequest) (plugin.Plan, error) {
	start := time.Now()
	plan, err := f.askPlan(req)
	f.clock.since(phasePlan, start)
	if err != nil {
		return plugin.Plan{}, err
	}
	for j := range plan.Problems {
		plan.Problems[j].Seed = cv.Seed(f.solverSeed, strconv.Itoa(req.Stage), strconv.Itoa(j))
		plan.Problems[j] = f.c.Weights.Weigh(plan.Problems[j], req.Labels)
	}
	return plan, nil
}

// askPlan returns the reducer's plan for req: from the run's plans when
// a fold asked the same (see planCache), else from the reducer.
func (f *fold) askPlan(req plugin.PlanRequest) (plugin.Plan, error) {
	atomic.AddInt64(&f.stats.PlansRequested, 1)
	plan, made, err := f.plans.plan(f.ctx, f.rp.Name, req, func() (plugin.Plan, error) {
		plan, err := f.rp.Reducer.Plan(f.ctx, req)
		if err != nil {
			return plugin.Plan{}, f.rerr(err)
		}
		return plan, nil
	})
	if made && err == nil {
		atomic.AddInt64(&f.stats.PlansMade, 1)
	}
	return plan, err
}

// upload sends a design matrix to the learner unless it holds it.
func (f *fold) upload(enc *matrix.EncodedMatrix) error {
	if f.uploaded == nil {
		f.uploaded = map[string]*matrix.EncodedMatrix{}
	}
	if enc.Sparse && !f.c.Learner.Info.Capabilities.Sparse {
		return fmt.Errorf("internal error: a CSR matrix about to go to learner %s, which takes dense input only", f.c.Learner.Config.Name)
	}
	f.uploaded[enc.Digest] = enc
	start := time.Now()
	uploaded, err := f.lp.EnsureDataset(f.ctx, enc)
	f.clock.since(phaseUpload, start)
	if err != nil {
		return f.lerr(err)
	}
	if uploaded {
		atomic.AddInt64(&f.stats.Uploads, 1)
		freeIfBig(enc.Size()) // the upload's chunks are garbage
	}
	return nil
}

// fit trains problems on rows, a fit of the fold's own (an inner fit,
// not shared), and keeps the models for release.
func (f *fold) fit(digest string, rows []int, problems []plugin.Problem) ([]host.ModelRef, error) {
	atomic.AddInt64(&f.stats.FitsRequested, int64(len(problems)))
	models, took, err := f.fitBatch(digest, rows, problems)
	f.fitSeconds += took
	if err != nil {
		return nil, err
	}
	f.models = append(f.models, models)
	f.countConvergence(models)
	return models, nil
}

// fitBatch trains problems on rows in one call, and returns the models and
// the seconds the call took; the models made count in the run's Stats.
func (f *fold) fitBatch(digest string, rows []int, problems []plugin.Problem) ([]host.ModelRef, float64, error) {
	start := time.Now()
	threads := 0 // the plugin's choice
	if f.threads != nil {
		threads = f.threads()
	}
	atomic.AddInt64(&f.stats.FitCalls, 1)
	models, err := f.lp.Learner.Fit(f.ctx, digest, rows, f.params, problems, threads)
	if f.reuploaded(digest, &err) {
		models, err = f.lp.Learner.Fit(f.ctx, digest, rows, f.params, problems, threads)
	}
	took := time.Since(start).Seconds()
	f.clock.since(phaseFit, start)
	if err != nil {
		return nil, took, f.lerr(err)
	}
	atomic.AddInt64(&f.stats.FitsMade, int64(len(models)))
	return models, took, nil
}

// fitShared trains the problems of the fold's final fit on its training
// rows, where no other fold of the run has (see fitTable), each problem
// seeded by its identity: it claims the
// problems nobody fitted, fits them in one batch, then takes the others'
// models, waiting for those in flight. The fold's fit time is that of
// its models, whoever made them (each model of a batch counts its share of
// the batch's time). The shared models are released with their share
// group, not with the fold. It returns the models' identities beside
// them (nil for models of the fold's own), by which their outputs are
// shared too (predictShared).
func (f *fold) fitShared(digest string, problems []plugin.Problem) ([]host.ModelRef, []string, error) {
	if f.share == nil {
		// An inner fold (tuning, calibration): a fit of its own, with its
		// cell's seeds.
		models, err := f.fit(digest, f.train, problems)
		return models, nil, err
	}
	keys, err := f.identities(digest, problems)
	if err != nil {
		return nil, nil, err
	}
	atomic.AddInt64(&f.stats.FitsRequested, int64(len(problems)))
	n := len(problems)
	models, seconds, have := make([]host.ModelRef, n), make([]float64, n), make([]bool, n)
	first := true
	for {
		var cand siblingCandidates
		if first {
			cand = f.siblingCandidates(digest)
		}
		c := f.share.claimWith(f.group, keys, cand, f.lp, have, models, seconds)
		if c.refused {
			return f.fitAlone(digest, problems)
		}
		mine, fits, wait := c.mine, c.fits, c.wait
		f.sibOutputs = append(f.sibOutputs, c.outputs...)
		if len(mine) > 0 {
			sib := cand.claimed(c.sibMine, c.sibFits)
			err := f.fitClaimed(digest, problems, keys, mine, fits, sib, models, seconds, have)
			if errors.Is(err, errFitRefused) {
				return f.fitAlone(digest, problems)
			}
			if err != nil {
				return nil, nil, err
			}
		}
		first = false
		if len(wait) == 0 {
			break
		}
		err := f.await(wait, models, seconds, have)
		if errors.Is(err, errFitRefused) {
			return f.fitAlone(digest, problems)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	for _, s := range seconds {
		f.fitSeconds += s
	}
	f.countConvergence(models)
	return models, keys, nil
}

// errFitRefused tells fitShared that the learner refused a problem the
// fold needs, in another fold's call or in a call with other folds'
// problems (see fitTable.refuse): the fold fits its problems alone.
var errFitRefused = errors.New("a shared fit was refused")

// fitAlone fits problems, the fold's final fit, as the fold's own (one
// call a part, as a run of the cell alone makes them) once the learner has
// refused one of them in a call of the share group's (see
// fitTable.refuse): its error is then the one its cell records alone,
// and the calls are the same whichever fold met the refusal first. The
// models are the fold's, released with it, and their outputs its own
// (no identities). It gives back the siblings' outputs it claimed.
func (f *fold) fitAlone(digest string, problems []plugin.Problem) ([]host.ModelRef, []string, error) {
	f.giveBackOutputs()
	var models []host.ModelRef
	lo := 0
	for _, hi := range fitParts(len(problems)) {
		part, took, err := f.fitBatch(digest, f.train, problems[lo:hi])
		f.fitSeconds += took
		if err != nil {
			return nil, nil, err
		}
		f.models = append(f.models, part)
		models = append(models, part...)
		lo = hi
	}
	f.countConvergence(models)
	return models, nil, nil
}

// endFits ends the fold's claimed fits of keys: their models, made in
// took seconds, or err: refused (kept in the table, see fitTable.refuse)
// when it is the learner's answer, else given back for the next fold to
// fit (the fold's timeout, a process that ended).
func (f *fold) endFits(keys []string, fits []*sharedFit, models []host.ModelRef, took float64, err error) {
	if err != nil && f.ctx.Err() == nil && !f.lp.Exited() && !f.lp.Killed() {
		f.share.refuse(fits, err)
		return
	}
	f.share.publish(keys, fits, models, f.lp, took, err)
}

// errFitAbandoned ends the claims of a fold that stopped before its fit
// ended (a panic): the folds that waited for them fit them themselves.
var errFitAbandoned = errors.New("the fold that claimed the fit stopped")

// fitClaimed fits the problems at positions mine, which the fold claimed
// in the table as fits, with its siblings' problems sib (see
// fitWithSiblings), or else in the parts fitParts gives, one call each,
// and publishes each part's models (or the error) to the folds that wait
// for them as soon as it has them. A refused part of a fold that claimed
// only some of its problems sends it to fitAlone (errFitRefused); one
// that claimed them all made the calls of a run alone, whose error it
// returns.
func (f *fold) fitClaimed(digest string, problems []plugin.Problem, keys []string, mine []int, fits []*sharedFit, sib siblingFits, models []host.ModelRef, seconds []float64, have []bool) error {
	if len(sib.fits) > 0 {
		return f.fitWithSiblings(digest, problems, keys, mine, fits, sib, models, seconds, have)
	}
	claimed := pick(keys, mine)
	published := 0
	defer func() {
		if published < len(mine) {
			f.share.publish(claimed[published:], fits[published:], nil, f.lp, 0, errFitAbandoned)
		}
	}()
	for _, hi := range fitParts(len(mine)) {
		part := mine[published:hi]
		fitted, took, err := f.fitBatch(digest, f.train, pick(problems, part))
		f.endFits(claimed[published:hi], fits[published:hi], fitted, took, err)
		published = hi
		if err != nil && len(mine) < len(problems) && fits[hi-1].refused {
			return errFitRefused // a call of some of its problems: fit alone
		}
		if err != nil {
			return err // the calls of a run alone: its error
		}
		each := took / float64(len(part))
		for n, i := range part {
			models[i], seconds[i], have[i] = fitted[n], each, true
		}
	}
	return nil
}

// fitWithSiblings fits the problems at positions mine, which the fold
// claimed in the table as fits, with its siblings' problems sib in the
// same batch (one call: the siblings' problems are few, a share group's
// other cells'), and publishes the models (or the error) to the folds
// that wait for them. A batch the learner refuses is refused for every
// problem in it (fitTable.refuse): the fold, and each sibling's fold,
// then fits its own problems alone (fitAlone), so that a cell fails of
// its own problems alone, with the error of a run of its own, and the
// calls do not depend on which fold of the group came first.
func (f *fold) fitWithSiblings(digest string, problems []plugin.Problem, keys []string, mine []int, fits []*sharedFit, sib siblingFits, models []host.ModelRef, seconds []float64, have []bool) error {
	own, ownKeys := pick(problems, mine), pick(keys, mine)
	at := sib.before
	batch := slices.Concat(sib.problems[:at], own, sib.problems[at:])
	claimed := slices.Concat(sib.keys[:at], ownKeys, sib.keys[at:])
	claimedFits := slices.Concat(sib.fits[:at], fits, sib.fits[at:])
	published := false
	defer func() {
		if !published {
			f.share.publish(claimed, claimedFits, nil, f.lp, 0, errFitAbandoned)
		}
	}()
	fitted, took, err := f.fitBatch(digest, f.train, batch)
	f.endFits(claimed, claimedFits, fitted, took, err)
	published = true
	if err != nil && claimedFits[0].refused {
		return errFitRefused // the fold fits alone, its siblings' folds too
	}
	if err != nil {
		return err
	}
	each := took / float64(len(batch))
	for n, i := range mine {
		models[i], seconds[i], have[i] = fitted[at+n], each, true
	}
	return nil
}

// minFitPart is the fewest problems fitParts puts in a part, and
// fitPartsMax the most parts it makes.
const (
	minFitPart  = 512
	fitPartsMax = 16
)

// fitParts splits n problems of a fold's fit into parts of consecutive
// problems, each sent in a call of its own, and returns the ends of the
// parts. A call's threads are the fold's share of the CPUs when it is
// sent (scheduler.fitThreads): a fit of one-vs-one's 19,900 problems sent
// in one call while another fold ran kept its one thread to the end,
// though the other fold ended at once and left its core idle; in parts,
// the fit takes the freed cores from its next part on. A fit of fewer than
// 2 × minFitPart problems stays one call, so that a batch fitted together
// (one-vs-all's, in one pass over the rows, see plugin.ParallelBatchFitter)
// stays whole; the models are the same either way, each that of its
// problem alone.
func fitParts(n int) []int {
	if n < 2*minFitPart {
		return []int{n}
	}
	size := max(minFitPart, (n+fitPartsMax-1)/fitPartsMax)
	var ends []int
	for hi := size; hi < n; hi += size {
		ends = append(ends, hi)
	}
	return append(ends, n)
}

// await waits for the fits of other folds at the positions of wait and
// takes their models where they can serve the fold; the others (a fit
// given back, a process that ended) are left for the fold to claim again,
// but for a refused one (fitTable.refuse), which returns errFitRefused:
// the fold fits alone.
func (f *fold) await(wait map[int]*sharedFit, models []host.ModelRef, seconds []float64, have []bool) error {
	defer f.clock.since(phaseWait, time.Now())
	for i, e := range wait {
		select {
		case <-e.done:
		case <-f.ctx.Done():
			return f.lerr(f.ctx.Err())
		}
		if e.usable(f.lp) {
			models[i], seconds[i], have[i] = e.model, e.seconds, true
		}
		if e.refused {
			return errFitRefused
		}
	}
	return nil
}

// countConvergence counts the fits of models and those that did not
// converge.
func (f *fold) countConvergence(models []host.ModelRef) {
	f.fits += len(models)
	for _, m := range models {
		if m.NotConverged {
			f.notConverged++
		}
	}
}

// predict scores rows; probabilities come along when wanted and the
// learner has them.
func (f *fold) predict(digest string, rows []int, models []host.ModelRef, wantProbs bool) (scores, probs *mat.Dense, err error) {
	scores, probs, took, err := f.predictTimed(digest, rows, models, wantProbs)
	f.predictSeconds += took
	return scores, probs, err
}

// predictTimed is predict, which returns the seconds the call took rather
// than adding them to the fold's: the lanes of decodeBlocks call it at
// once.
func (f *fold) predictTimed(digest string, rows []int, models []host.ModelRef, wantProbs bool) (scores, probs *mat.Dense, took float64, err error) {
	start := time.Now()
	wantProbs = wantProbs && f.c.Learner.Info.Capabilities.Probabilities
	atomic.AddInt64(&f.stats.PredictCalls, 1)
	scores, probs, err = f.lp.Learner.Predict(f.ctx, digest, rows, models, wantProbs)
	if f.reuploaded(digest, &err) {
		scores, probs, err = f.lp.Learner.Predict(f.ctx, digest, rows, models, wantProbs)
	}
	took = time.Since(start).Seconds()
	f.clock.since(phasePredict, start)
	if err != nil {
		return nil, nil, took, f.lerr(err)
	}
	return scores, probs, took, nil
}

// reuploaded is the second line of defence behind the leases: when the
// learner answered that it does not hold the fold's matrix (its cache may
// have evicted it), the matrix is uploaded again and the caller retries
// once. err points to the call's error; when the matrix cannot be encoded
// again, why is joined to it.
func (f *fold) reuploaded(digest string, err *error) bool {
	if *err == nil || !notLoaded(*err) {
		return false
	}
	// One at a time: the lanes of decodeBlocks may lose the matrix at once.
	f.reuploadMu.Lock()
	defer f.reuploadMu.Unlock()
	f.lp.Lost(digest)
	enc := f.uploaded[digest]
	if enc == nil && digest == f.design && f.redesign != nil {
		var rerr error
		if enc, rerr = f.redesign(); rerr != nil {
			*err = errors.Join(*err, fmt.Errorf("encoding the design matrix again: %w", rerr))
			return false
		}
	}
	return enc != nil && f.upload(enc) == nil
}

// settled lets the task's design matrix go once the fold's stages have
// uploaded what its fits and predictions use (see matrixEntry.settle).
func (f *fold) settled() {
	if f.settle != nil {
		delete(f.uploaded, f.design)
		f.settle()
		f.settle = nil
	}
}

// release frees every model of a fold that ran to its end.
// Stage matrices are left to the plugin's cache: being content-addressed,
// the same one may serve another fold at this very moment.
func (f *fold) release() {
	if f.ctx.Err() != nil {
		// The fold timed out (the host killed the plugin) or the run was
		// interrupted (the host is about to stop every plugin): the models
		// go with the process, and a hung plugin must not hold us here.
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(f.ctx), 10*time.Second)
	defer cancel()
	for _, m := range f.models {
		_ = f.lp.Learner.Release(ctx, m)
	}
}

// runFold runs task t: it builds (or reuses) the fold's design matrix,
// holds a lease on it, and runs the fold's steps: plan, fit and predict,
// decode, score. A panic fails the fold's cell, not the run.
func (s *scheduler) runFold(ctx context.Context, t task, e *matrixEntry) (fr outcome.FoldResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error: %v\n%s", p, debug.Stack())
		}
	}()
	start := time.Now()
	x, enc, err := design(s.g, t, e, s.opt.denseBudget())
	s.clock.since(phaseEncode, start)
	if err != nil {
		return outcome.FoldResult{}, err
	}
	// Held until the fold's last Predict: Forget cannot drop the matrix
	// between the upload check and its use.
	digest := enc.Digest
	s.ls.acquire(digest)
	defer s.ls.release(digest)
	// Getting the fold's plugins may wait for a process to start (the
	// background start of Resolve, or a new process after a crash or a
	// timeout), which the host bounds on its own (host.StartTimeout).
	f, err := newFold(ctx, s.g, t, &s.stats)
	if err != nil {
		return outcome.FoldResult{}, err
	}
	// The fold's timeout runs from here: waiting for the matrix (while a
	// forget of it is under way) and for a plugin's start are not the
	// plugin's time. (It is disarmed after f.release, deferred below.)
	f.base, f.timeout = ctx, s.opt.Timeout
	f.armTimeout()
	defer f.disarmTimeout()
	f.denseBudget = s.opt.denseBudget()
	f.decodeBlock = s.opt.DecodeBlock
	f.threads = s.fitThreads
	f.share, f.group, f.clock, f.plans = s.fits, t.share, &s.clock, s.plans
	if s.opt.NoShare {
		// A table of the fold's own, whose models go with the fold.
		own := newFitTable()
		own.stats = &s.stats
		f.share = own
		defer own.release(f.base, t.share)
	} else if s.shareTasks[t.share] > 1 {
		f.innerShare = s.fits
		f.siblings = s.shareCells[t.share]
	}
	defer f.release()
	defer f.giveBackOutputs()
	calibrating := t.cell.Reduction.Config.Calibrate != ""
	f.design = digest
	f.redesign = func() (*matrix.EncodedMatrix, error) {
		_, enc, err := design(s.g, t, e, f.denseBudget)
		return enc, err
	}
	if !calibrating {
		f.settle = func() { e.settle(t.cell.Index) }
	}
	tuned, tuneSeconds, out, err := f.tunedOutcome(t, e, x, enc, calibrating)
	if err != nil {
		return outcome.FoldResult{}, err
	}
	start = time.Now()
	fr, err = f.score(t, out, s.opt.KeepPredictions)
	s.clock.since(phaseScore, start)
	if err == nil && tuned != nil {
		fr.Chosen, fr.TuneScores, fr.TuneRounds = tuned.chosen, tuned.scores, tuned.rounds
		if !t.cell.Learner.Config.Tune.IsGrid() {
			fr.TuneSeconds, fr.TuneRows = tuneSeconds, len(f.train)
		}
	}
	fr.SoftmaxScores = softmaxScores(t.cell, out)
	if err == nil {
		s.pool(t, f.pred)
	}
	return fr, err
}

// tunedOutcome tunes the fold's learner when its cell has candidates (the
// chosen parameters then fit the fold), and evaluates the fold: through
// its calibration split when calibrating, else on the whole training part.
// It returns the tuning (nil when there was none) and the seconds it spent
// fitting.
func (f *fold) tunedOutcome(t task, e *matrixEntry, x plugin.Matrix, enc *matrix.EncodedMatrix, calibrating bool) (*tuning, float64, foldOutcome, error) {
	var tuned *tuning
	var tuneSeconds float64
	if t.cell.Learner.Candidates != nil {
		before := f.fitSeconds
		var err error
		// The search is bounded candidate by candidate (innerScore), not
		// as a whole: 225 pairs × 5 inner folds may rightly take hours.
		f.disarmTimeout()
		if tuned, err = f.tune(t); err != nil {
			return nil, 0, foldOutcome{}, err
		}
		f.armTimeout()
		f.params, tuneSeconds = tuned.best, f.fitSeconds-before
		f.idBase = nil // digested with the cell's parameters, if at all
	}
	if calibrating {
		out, err := f.calibratedOutcome(x, enc)
		if err != nil {
			return nil, 0, foldOutcome{}, err
		}
		e.settle(t.cell.Index)
		return tuned, tuneSeconds, out, nil
	}
	// From here on the fold holds the matrix only through the entry, so
	// that it can go once uploaded (f.settled).
	out, err := f.evaluate(x, enc)
	return tuned, tuneSeconds, out, err
}

// softmaxScores tells whether a multiclass cell's class probabilities
// (what log_loss and brier read) are a softmax of the decoder's class
// scores rather than probabilities: the decoder says which
// (plugin.Decoding.ClassScoresAreProbabilities; a calibrated fold's are
// probabilities). Multi-label folds have no such metric.
func softmaxScores(c *Cell, out foldOutcome) bool {
	return !c.Dataset.MultiLabel && !out.dec.ClassScoresAreProbabilities
}

// newFold prepares task t's fold: its rows, its seeds, and the current
// process of each of its plugins (a plugin that died in an earlier fold
// has been started again).
func newFold(ctx context.Context, g *Grid, t task, stats *Stats) (*fold, error) {
	c, d := t.cell, t.cell.Dataset
	train, test := cv.Split(d.Folds[t.repeat], t.fold)
	f := &fold{
		ctx: ctx, g: g, c: c, stats: stats, train: train, test: test,
		// One plan seed per dataset and reduction block: a random code is
		// the same matrix in every fold, for every learner and decoder.
		seed:       cv.Seed(g.Experiment.Seed, "plan", d.Config.Name, c.Reduction.Config.Name),
		solverSeed: cv.Seed(g.Experiment.Seed, "solver", c.ID().Key(), strconv.Itoa(t.repeat), strconv.Itoa(t.fold)),
		lp:         c.Learner.Plugin, rp: c.Reduction.Plugin, params: c.Params,
		repeat: t.repeat, foldIndex: t.fold,
		denseBudget: DefaultDenseBudget,
	}
	if g.Host != nil {
		var err error
		if f.lp, err = g.Host.Get(ctx, c.Learner.Plugin.Name); err != nil {
			return nil, err
		}
		if f.rp, err = g.Host.Get(ctx, c.Reduction.Plugin.Name); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// foldOutcome is what a fold's models and decoder made of its test rows.
type foldOutcome struct {
	plan plugin.Plan
	dec  plugin.Decoding
}

// evaluate trains the cell on the fold's training rows of x and decodes
// its predictions for the test rows: the plan (every stage of it), the
// fit, the predictions, the decoding.
func (f *fold) evaluate(x plugin.Matrix, enc *matrix.EncodedMatrix) (foldOutcome, error) {
	if err := f.upload(enc); err != nil {
		return foldOutcome{}, err
	}
	plan, digest, err := f.stages(f.planRequest(), x, enc)
	if err != nil {
		return foldOutcome{}, err
	}
	f.settled()
	models, keys, err := f.fitShared(digest, plan.Problems)
	if err != nil {
		return foldOutcome{}, err
	}
	req := plugin.DecodeRequest{Scheme: f.c.Reduction.Scheme.Name, Params: f.c.RedParams, State: plan.State}
	if plan.NeedsTrainingScores {
		// The decoder reads the training rows' scores alone, all of them
		// for every block of test rows.
		if req.TrainingScores, _, err = f.predictShared(digest, keys, f.train, models, false); err != nil {
			return foldOutcome{}, err
		}
	}
	dec, err := f.predictDecode(digest, keys, models, !plan.IgnoresProbabilities, req)
	if err != nil {
		return foldOutcome{}, err
	}
	return foldOutcome{plan: plan, dec: dec}, nil
}

// blockRows is the number of test rows whose outputs (scores and, when
// probs, as many probabilities) of the models take at most budget bytes
// (DefaultDecodeBlock when budget is 0), at least one.
func blockRows(models []host.ModelRef, probs bool, budget int64) int {
	if budget <= 0 {
		budget = DefaultDecodeBlock
	}
	outputs := 0
	for _, m := range models {
		outputs += m.Outputs
	}
	row := 8 * int64(max(outputs, 1))
	if probs {
		row *= 2
	}
	return int(max(budget/row, 1))
}

// planRequest describes the fold's training part to the reducer.
func (f *fold) planRequest() plugin.PlanRequest { return f.planRequestOf(f.c, f.seed) }

// planRequestOf describes the fold's training part to cell c's reducer,
// with plan seed seed.
func (f *fold) planRequestOf(c *Cell, seed uint64) plugin.PlanRequest {
	d := c.Dataset
	req := plugin.PlanRequest{
		Scheme: c.Reduction.Scheme.Name, Params: c.RedParams, NumClasses: d.K(),
		ClassNames: d.Classes, Seed: seed,
	}
	if d.MultiLabel {
		req.LabelMatrix = rowsOf(d.LabelMatrix, f.train)
		return req
	}
	req.Labels = make([]int, len(f.train))
	for i, r := range f.train {
		req.Labels[i] = d.Labels[r]
	}
	return req
}

// stages asks the reducer for its plan. A reduction may run in stages:
// each stage but the last adds its outputs to the features of the next,
// so stages returns the last stage's plan with the digest of its design
// matrix, uploaded.
func (f *fold) stages(req plugin.PlanRequest, x plugin.Matrix, enc *matrix.EncodedMatrix) (plugin.Plan, string, error) {
	for {
		plan, err := f.plan(req)
		if err != nil {
			return plugin.Plan{}, "", err
		}
		if plan.NextStage == nil {
			return plan, enc.Digest, nil
		}
		if req.Stage >= maxStages {
			return plugin.Plan{}, "", fmt.Errorf("reducer %s asks for more than %d stages", f.rp.Name, maxStages)
		}
		if x, enc, err = f.stage(x, enc, plan); err != nil {
			return plugin.Plan{}, "", err
		}
		if err := f.upload(enc); err != nil {
			return plugin.Plan{}, "", err
		}
		req.Stage++
		req.State = plan.State
	}
}

// score checks the decoder's answer against the fold's test rows and
// evaluates the grid's metrics on it.
func (f *fold) score(t task, out foldOutcome, keep bool) (outcome.FoldResult, error) {
	d, dec := f.c.Dataset, out.dec
	if err := checkDecoding(dec, d, len(f.test), f.rp.Name); err != nil {
		return outcome.FoldResult{}, err
	}
	fr := outcome.FoldResult{
		Repeat: t.repeat, Fold: t.fold, NTrain: len(f.train), NTest: len(f.test),
		Ties: dec.Ties, FitSeconds: f.fitSeconds, PredictSeconds: f.predictSeconds,
		Diagnostics: out.plan.Diagnostics, PlanWarnings: out.plan.Warnings,
	}
	if f.notConverged > 0 {
		fr.NotConverged, fr.Fits = f.notConverged, f.fits
	}
	in := f.metricsInput(dec)
	// The fold's predictions: kept in the results when asked, and pooled
	// with the cell's other folds for its threshold views either way
	// (scheduler.pool).
	if d.MultiLabel {
		f.pred = &outcome.Predictions{Rows: f.test, TrueSet: in.TrueSet, PredSet: in.PredSet, Scores: dec.ClassScores}
	} else {
		fr.Confusion = confusion(in.True, dec.Predicted, d.K())
		f.pred = &outcome.Predictions{Rows: f.test, True: in.True, Predicted: dec.Predicted, Scores: dec.ClassScores}
	}
	if keep {
		fr.Predictions = f.pred
	}
	var err error
	fr.Metrics, fr.Warnings, err = evaluateMetrics(f.g.Metrics, d, in)
	if err != nil {
		return outcome.FoldResult{}, err
	}
	return fr, nil
}

// metricsInput pairs the decoder's answer with the truth of the test rows.
func (f *fold) metricsInput(dec plugin.Decoding) *metrics.Input {
	d := f.c.Dataset
	in := &metrics.Input{K: d.K(), FitSeconds: f.fitSeconds, PredictSeconds: f.predictSeconds}
	if d.MultiLabel {
		in.TrueSet, in.PredSet = rowsOf(d.LabelMatrix, f.test), dec.LabelMatrix
		return in
	}
	truth := make([]int, len(f.test))
	for i, r := range f.test {
		truth[i] = d.Labels[r]
	}
	in.True, in.Pred, in.Prob = truth, dec.Predicted, dec.ClassScores
	return in
}

// checkDecoding checks that a decoding fits n test rows of dataset d: a
// label matrix of n × K for multi-label data, else n predictions in 0..K−1
// and, when given, n × K class scores. reducer names the culprit.
func checkDecoding(dec plugin.Decoding, d *Dataset, n int, reducer string) error {
	if d.MultiLabel {
		if dec.LabelMatrix == nil {
			return fmt.Errorf("reducer %s returned no label matrix for multi-label data", reducer)
		}
		if r, k := dec.LabelMatrix.Dims(); r != n || k != d.K() {
			return fmt.Errorf("reducer %s returned a %d×%d label matrix for %d test rows and %d labels", reducer, r, k, n, d.K())
		}
		return nil
	}
	if len(dec.Predicted) != n {
		return fmt.Errorf("reducer %s returned %d predictions for %d test rows", reducer, len(dec.Predicted), n)
	}
	for i, k := range dec.Predicted {
		if k < 0 || k >= d.K() {
			return fmt.Errorf("reducer %s predicted class %d for test row %d; classes are 0..%d", reducer, k, i, d.K()-1)
		}
	}
	if dec.ClassScores != nil {
		if r, k := dec.ClassScores.Dims(); r != n || k != d.K() {
			return fmt.Errorf("reducer %s returned %d×%d class scores for %d test rows and %d classes", reducer, r, k, n, d.K())
		}
	}
	return nil
}

// confusion returns the k×k confusion matrix of predictions (rows = actual).
func confusion(truth, pred []int, k int) [][]int {
	m := make([][]int, k)
	for i := range m {
		m[i] = make([]int, k)
	}
	for i := range truth {
		m[truth[i]][pred[i]]++
	}
	return m
}

// evaluateMetrics evaluates the named metrics that apply to dataset d on
// in, with the number of values each set by a convention (0/0 → 0).
func evaluateMetrics(names []string, d *Dataset, in *metrics.Input) (map[string]float64, map[string]int, error) {
	values := map[string]float64{}
	var warnings map[string]int
	for _, name := range names {
		m, err := metrics.Lookup(name)
		if err != nil {
			return nil, nil, err
		}
		if !applies(m, d) {
			continue
		}
		v, warn, err := m.Eval(in)
		if err != nil {
			return nil, nil, fmt.Errorf("metric %s: %w", name, err)
		}
		values[name] = v
		if warn > 0 {
			if warnings == nil {
				warnings = map[string]int{}
			}
			warnings[name] = warn
		}
	}
	return values, warnings, nil
}

// applies reports whether metric m is defined for dataset d's task.
func applies(m metrics.Metric, d *Dataset) bool {
	if m.Kind.Has(metrics.Timing) {
		return true
	}
	if d.MultiLabel {
		return m.Kind.Has(metrics.MultiLabel)
	}
	return m.Kind.Has(metrics.Multiclass)
}

// stage runs a non-final stage of a reduction: its problems are trained
// on the training part by an inner cross-validation, whose out-of-fold
// outputs become the training rows' new features (never outputs of a model
// that saw the row), while models refitted on the whole training part give
// the test rows' new features. It returns the augmented design matrix.
func (f *fold) stage(x plugin.Matrix, enc *matrix.EncodedMatrix, plan plugin.Plan) (plugin.Matrix, *matrix.EncodedMatrix, error) {
	spec := plan.NextStage
	k := spec.InnerFolds
	if k < 2 || k > len(f.train) {
		return plugin.Matrix{}, nil, fmt.Errorf("reducer %s asks for %d inner folds on %d training rows", f.rp.Name, k, len(f.train))
	}
	inner, err := cv.SklearnKFold(len(f.train), k, spec.InnerSeed)
	if err != nil {
		return plugin.Matrix{}, nil, err
	}
	n, _ := x.Dims()
	var extra *mat.Dense // n × outputs, filled for train and test rows
	put := func(rows []int, out *mat.Dense) {
		_, w := out.Dims()
		if extra == nil {
			extra = mat.NewDense(n, w, nil)
		}
		for i, r := range rows {
			extra.SetRow(r, out.RawRowView(i))
		}
	}
	output := func(rows []int, models []host.ModelRef) (*mat.Dense, error) {
		scores, probs, err := f.predict(enc.Digest, rows, models, true)
		if err != nil {
			return nil, err
		}
		if probs != nil {
			return probs, nil
		}
		return scores, nil
	}
	for j := 0; j < k; j++ {
		var fitIdx, outIdx []int // positions in f.train
		for i, v := range inner {
			if v == j {
				outIdx = append(outIdx, i)
			} else {
				fitIdx = append(fitIdx, i)
			}
		}
		models, err := f.fit(enc.Digest, pick(f.train, fitIdx), subsetProblems(plan.Problems, fitIdx))
		if err != nil {
			return plugin.Matrix{}, nil, fmt.Errorf("stage inner fold %d: %w", j, err)
		}
		out, err := output(pick(f.train, outIdx), models)
		if err != nil {
			return plugin.Matrix{}, nil, fmt.Errorf("stage inner fold %d: %w", j, err)
		}
		put(pick(f.train, outIdx), out)
	}
	models, err := f.fit(enc.Digest, f.train, plan.Problems)
	if err != nil {
		return plugin.Matrix{}, nil, err
	}
	out, err := output(f.test, models)
	if err != nil {
		return plugin.Matrix{}, nil, err
	}
	put(f.test, out)
	if !spec.AppendOutputs {
		return x, enc, nil
	}
	aug := appendColumns(x, extra)
	return aug, matrix.StreamMatrix(aug), nil
}

// pick returns the elements of s at positions idx.
func pick[T any](s []T, idx []int) []T {
	out := make([]T, len(idx))
	for i, j := range idx {
		out[i] = s[j]
	}
	return out
}

// subsetProblems keeps the targets (and weights) at positions idx.
// Compact targets stay compact, and problems that shared their groups
// share the groups' subset (so that they still go to the learner as they
// are, see convert.CompactProblemsToPB).
func subsetProblems(ps []plugin.Problem, idx []int) []plugin.Problem {
	out := make([]plugin.Problem, len(ps))
	subsets := map[problem.GroupsID][]int32{}
	for i, p := range ps {
		q := p
		if c := p.Compact; c == nil {
			q.Targets = pick(p.Targets, idx)
		} else {
			key := c.GroupsID()
			sub, ok := subsets[key]
			if !ok {
				sub = pick(c.Groups, idx)
				subsets[key] = sub
			}
			q.Compact = &plugin.CompactTargets{Groups: sub, Code: c.Code}
		}
		if p.Weights != nil {
			q.Weights = pick(p.Weights, idx)
		}
		out[i] = q
	}
	return out
}

// rowsOf returns the given rows of m.
func rowsOf(m *mat.Dense, rows []int) *mat.Dense {
	_, c := m.Dims()
	out := mat.NewDense(len(rows), c, nil)
	for i, r := range rows {
		out.SetRow(i, m.RawRowView(r))
	}
	return out
}

// appendColumns returns [x, extra].
func appendColumns(x plugin.Matrix, extra *mat.Dense) plugin.Matrix {
	n, w := extra.Dims()
	if x.Dense != nil {
		_, c := x.Dense.Dims()
		out := mat.NewDense(n, c+w, nil)
		for i := 0; i < n; i++ {
			row := out.RawRowView(i)
			copy(row, x.Dense.RawRowView(i))
			copy(row[c:], extra.RawRowView(i))
		}
		return plugin.Matrix{Dense: out}
	}
	src := x.CSR
	out := &sparse.CSR{Rows: n, Cols: src.Cols + w, Indptr: make([]int64, n+1)}
	for i := 0; i < n; i++ {
		idx, val := src.Row(i)
		out.Indices = append(out.Indices, idx...)
		out.Values = append(out.Values, val...)
		for j, v := range extra.RawRowView(i) {
			if v != 0 {
				out.Indices = append(out.Indices, int32(src.Cols+j))
				out.Values = append(out.Values, v)
			}
		}
		out.Indptr[i+1] = int64(len(out.Values))
	}
	return plugin.Matrix{CSR: out}
}

// armTimeout bounds the fold's calls from now on by its timeout (none
// when it is 0), ending any bound armed before.
func (f *fold) armTimeout() {
	f.disarmTimeout()
	if f.timeout > 0 {
		f.ctx, f.cancelTimeout = context.WithTimeout(f.base, f.timeout)
	}
}

// disarmTimeout ends the bound armTimeout set: the fold's calls run under
// base again.
func (f *fold) disarmTimeout() {
	if f.cancelTimeout != nil {
		f.cancelTimeout()
		f.cancelTimeout = nil
	}
	if f.base != nil {
		f.ctx = f.base
	}
}

// candidateContext is the context of one candidate's inner fits and
// scoring: base bounded by the fold's timeout on its own, so that a hung
// plugin fails the cell while a long search does not.
func (f *fold) candidateContext() (context.Context, context.CancelFunc) {
	if f.timeout > 0 && f.base != nil {
		return context.WithTimeout(f.base, f.timeout)
	}
	return context.WithCancel(f.ctx)
}
