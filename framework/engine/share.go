package engine

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"math"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/problem"
	"gonum.org/v1/gonum/mat"
)

// One fit per distinct binary problem.
//
// A cell is the unit of work, but the unit of cost is the problem a learner
// trains: ovo and dag cells of one fold train the same K(K−1)/2 pairwise
// problems, each decoder of a `decode = [...]` list is a cell that trains
// the same code columns, and an ECOC matrix holding one-vs-all columns
// trains ova's problems again. The engine therefore gives every problem a
// fold scores with an identity (fold.identities), derived like a cell's
// spec from what determines the model: the learner (its plugin's name,
// version, binary digest and runtime, and its parameters with their
// defaults), the dataset, repeat and fold, the design matrix (the
// pipeline's encoding of that fold, by digest), the training rows, and the
// problem itself (kind, targets, which encode the +1, −1 and left-out
// classes, and row weights). The problem's solver seed is derived from its
// identity less the plugin's build (problemSeed), not from the cell, so
// that a model depends on its identity alone: every cell that needs the problem gets the same model
// and the same scores, bit for bit, as it would in a run of its own, and
// the table may hand it any cell's model.
//
// Where the models live: in the learner plugin's process, as every model
// does; the engine keeps a table (fitTable) of their handles by identity.
// A fold claims the identities nobody has fitted, fits those in one batch,
// and waits for the others to be fitted by the folds that claimed them; it
// never waits before fitting what it claimed, so two folds cannot wait for
// each other. A model made by a process that has since ended (a crash, a
// timeout that stopped it) is fitted again by the next fold that needs it.
// A fit the learner refused (its answer: not a timeout, nor a process
// that ended) stays in the table, refused (fitTable.refuse), and is
// never fitted again by the group: every fold that needs it, the one that
// met the refusal among them, fits its problems alone, one call a part
// as in a run of its cell alone (fold.fitAlone), and reports that call's
// error, as it would have alone. So the calls a group makes after a
// refusal are the same whichever fold meets it first. A fit that ended
// otherwise (a timeout, a process that ended) is given back, and the
// next fold that needs it fits it again.
//
// Which folds share, and memory: identities of one share group (dataset,
// pipeline, learner plugin and parameters, repeat, fold; shareKey) are the
// only ones that can coincide. The scheduler queues a share group's tasks
// together and releases the group's models when its last task ends, so
// that a run holds the models of the few groups its workers are on, never
// those of a whole grid (and at most releaseBatch models of ended groups,
// whose release it makes in one call). A resumed run or a shard queues only the tasks of
// the cells it computes: it fits what those need, nothing more.
//
// Determinism: a model depends on its problem, rows, parameters and seed
// alone, never on which cell asked first, on the other problems of its Fit
// call (plugin.Learner fits one problem; the batch fitters, logreg's FitBatch
// say, are bound to give each problem's model bit for bit) or on the
// threads it was given; so every -j, every order of the workers, a shard,
// a resumed run and --no-share (Options.NoShare) give the same cell files.
// A learner that reads the seed draws other numbers than when the seed
// came from the cell (before fits were shared), once: sharing a seeded fit
// between cells that drew different seeds could not keep both cells'
// numbers.
//
// A fold that waits for another's fit waits under its own timeout
// (cv.timeout): when the fitting fold's plugin is stopped, the waiting
// fold fits the problem again itself.
//
// Calls, not only fits: small cells (iris: fits of well under a
// millisecond) cost their plugin round trips. So the outputs of shared
// models on a fold's rows are shared too (fold.predictShared: ovo and dag
// predict once); the first fold of a share group to fit claims the
// problems of the group's other cells nobody has claimed, from their
// plans (the run's plan cache), and fits them in its own Fit call
// (fold.siblingCandidates: ova's columns with ovo's pairs; claimed with
// its own under one lock, fitTable.claimWith, so whichever fold comes
// first makes the same call), then predicts their outputs on the test
// rows in its own Predict call (fold.siblingOutputs); a Fit batch the
// learner refuses sends every fold of the group to fit alone (see above),
// and a Predict batch that fails is made again without the siblings'
// part, so that every cell fails of its own problems alone. The models of ended groups are released a
// batch at a time (releaseBatch). Each model depends on its identity
// alone and scores each row alone, so no number changes.
//
// Tuning's inner fits (a candidate's last-stage fit on an inner fold's
// rows) go through the table too, seeded by their identity as the final
// fits are: the fold's, when its share group has other tasks, so that a
// candidate fitted on the same rows with the same parameters by another
// cell of the group (ovo and dag, the decoders of a decode list) is
// fitted once; else a table of the candidate's own, let go once it is
// scored (see innerScore). Their rows coincide across cells only where
// the inner split does (inner_seed; without it the split is seeded from
// the cell). A shared inner model is held until the group's last task
// ends, as a final one is. Other inner fits (a reduction's earlier
// stages, calibration) are not shared and keep the seeds of their cell.

// shareKey is a share group: the tasks whose problems may be the same.
type shareKey struct {
	dataset, pipeline int
	learner           string // sharedLearner
	repeat, fold      int
}

// sharedFit is one problem's model in the table. done is closed once the
// fit has ended: model (with proc, the process that holds it, and its fit
// time) is then set, or err. refused marks an err the learner answered
// (see fitTable.refuse): the entry stays in the table, and is never
// claimed again.
type sharedFit struct {
	done    chan struct{}
	model   host.ModelRef
	proc    *host.Plugin
	seconds float64
	err     error
	refused bool
}

// sharedOutputs is the learner's outputs of one set of shared models on
// one set of rows (see fold.predictShared). done is closed once the
// prediction has ended: scores and probs (read-only from then on, for
// every fold that takes them), with the seconds the call took, are then
// set, or err.
type sharedOutputs struct {
	done          chan struct{}
	scores, probs *mat.Dense
	seconds       float64
	err           error
}

// fitTable holds the models of a run's problems by identity, and the
// identities of each share group for their release. The zero value is not
// ready: use newFitTable. Its counts are the run's fits requested (models
// the folds used) and made (models the learners trained).
//
// It holds as well the outputs the shared models gave on a fold's rows,
// by the identities of the models, the rows and whether probabilities
// were asked for (outputsKey): the cells of a share group that decode
// the same models (ovo and dag, the decoders of one code) ask the
// learner once. They go with their share group, as its models do.
//
// The models of an ended group are released in one Release call per
// process, once batch of that process's have gathered (see release);
// stats, when set, counts the calls and the models.
type fitTable struct {
	mu           sync.Mutex
	entries      map[string]*sharedFit
	groups       map[shareKey][]string
	outputs      map[string]*sharedOutputs
	outputGroups map[shareKey][]string

	batch   int
	stats   *Stats
	pending map[*host.Plugin][]host.ModelRef
	procs   []*host.Plugin // of pending, in the order they came
}

// releaseBatch is the number of models of ended share groups the run's
// table gathers before it asks their learners to release them (fitTable's
// batch): a grid of small cells (iris: 6 models a group of ovo, dag and
// ova) makes one Release call every ten or so groups rather than one a
// group, while the learner holds at most this many models it no longer
// needs; a group of more models is released as soon as it ends, as
// before.
const releaseBatch = 64

// newFitTable returns an empty table.
func newFitTable() *fitTable {
	return &fitTable{entries: map[string]*sharedFit{}, groups: map[shareKey][]string{},
		outputs: map[string]*sharedOutputs{}, outputGroups: map[shareKey][]string{},
		pending: map[*host.Plugin][]host.ModelRef{}}
}

// claimOutputs returns the entry of outputs key in share group gk, and
// whether the caller claimed it (it then predicts them and publishes
// them with publishOutputs); otherwise the entry is another fold's, done
// or in flight.
func (t *fitTable) claimOutputs(gk shareKey, key string) (e *sharedOutputs, mine bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.claimOutputsLocked(gk, key)
}

// claimOutputsLocked is claimOutputs with t.mu held.
func (t *fitTable) claimOutputsLocked(gk shareKey, key string) (e *sharedOutputs, mine bool) {
	if e := t.outputs[key]; e != nil {
		return e, false
	}
	e = &sharedOutputs{done: make(chan struct{})}
	t.outputs[key] = e
	t.outputGroups[gk] = append(t.outputGroups[gk], key)
	return e, true
}

// publishOutputs ends the prediction of claimed entry e: its outputs,
// predicted in seconds, or err (the entry is then given back, so that
// the folds that wait for it predict themselves).
func (t *fitTable) publishOutputs(key string, e *sharedOutputs, scores, probs *mat.Dense, seconds float64, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err != nil {
		e.err = err
		if t.outputs[key] == e {
			delete(t.outputs, key)
		}
	} else {
		e.scores, e.probs, e.seconds = scores, probs, seconds
	}
	close(e.done)
}

// usable reports whether e's model can serve a fold whose learner process
// is lp: fitted without error by that very process, which still runs.
func (e *sharedFit) usable(lp *host.Plugin) bool {
	return e.err == nil && e.proc == lp && !lp.Exited() && !lp.Killed()
}

// claim sorts the problems of keys the fold lacks (have false) into
// those the caller must fit (mine, now claimed in the table) and those it
// must wait for (others' fits in flight); it fills models with the usable
// ones fitted already.
func (t *fitTable) claim(gk shareKey, keys []string, lp *host.Plugin, have []bool, models []host.ModelRef, seconds []float64) (mine []int, mineFits []*sharedFit, wait map[int]*sharedFit) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.claimLocked(gk, keys, lp, have, models, seconds)
}

// claims are what a fold claimed in the table at once (see claimWith):
// the positions of its own problems it must fit (mine, with their
// entries fits), and those others fit (wait); the positions of its
// siblings' candidates it fits too (sibMine, sibFits); and the outputs
// on its test rows of the siblings' models it fits all of (outputs,
// their models unset until they are fitted). refused is set, and nothing
// claimed, when a problem the fold lacks was refused (see refuse): the
// fold fits its problems alone (fold.fitAlone).
type claims struct {
	refused bool
	mine    []int
	fits    []*sharedFit
	wait    map[int]*sharedFit
	sibMine []int
	sibFits []*sharedFit
	outputs []claimedOutputs
}

// claimWith is claim, and, when the caller claims any of keys, the
// siblings' candidates cand nobody has claimed (claimFreeLocked) and the
// outputs of each sibling's models it then fits all of (its own among
// them, where a sibling decodes the same models: see
// fold.claimedOutputs), under one lock:
// the first fold of a share group to fit claims every fit and every
// prediction of the group nobody has claimed, whichever fold comes
// first, so the calls the group makes do not depend on the folds'
// timing.
func (t *fitTable) claimWith(gk shareKey, keys []string, cand siblingCandidates, lp *host.Plugin, have []bool, models []host.ModelRef, seconds []float64) claims {
	t.mu.Lock()
	defer t.mu.Unlock()
	var c claims
	if t.refusedLocked(keys, have) {
		return claims{refused: true}
	}
	c.mine, c.fits, c.wait = t.claimLocked(gk, keys, lp, have, models, seconds)
	if len(c.mine) == 0 || len(cand.keys) == 0 {
		return c
	}
	c.sibMine, c.sibFits = t.claimFreeLocked(gk, cand.keys)
	fitting := map[string]bool{}
	for _, i := range c.mine {
		fitting[keys[i]] = true
	}
	for _, i := range c.sibMine {
		fitting[cand.keys[i]] = true
	}
	for n, s := range cand.models {
		if cand.outputs[n] == "" || !allIn(s.keys, fitting) {
			continue // no test rows, or models it does not fit
		}
		if e, mine := t.claimOutputsLocked(gk, cand.outputs[n]); mine {
			c.outputs = append(c.outputs, claimedOutputs{key: cand.outputs[n], e: e, of: s})
		}
	}
	return c
}

// refusedLocked reports whether a problem of keys the fold lacks (have
// false) was refused (see refuse). t.mu is held.
func (t *fitTable) refusedLocked(keys []string, have []bool) bool {
	for i, k := range keys {
		if e := t.entries[k]; !have[i] && e != nil && e.refusedNow() {
			return true
		}
	}
	return false
}

// refusedNow reports whether e's fit has ended, refused.
func (e *sharedFit) refusedNow() bool {
	select {
	case <-e.done:
		return e.refused
	default:
		return false
	}
}

// allIn reports whether every one of keys is in set.
func allIn(keys []string, set map[string]bool) bool {
	for _, k := range keys {
		if !set[k] {
			return false
		}
	}
	return true
}

// claimLocked is claim with t.mu held.
func (t *fitTable) claimLocked(gk shareKey, keys []string, lp *host.Plugin, have []bool, models []host.ModelRef, seconds []float64) (mine []int, mineFits []*sharedFit, wait map[int]*sharedFit) {
	wait = map[int]*sharedFit{}
	for i, k := range keys {
		if have[i] {
			continue
		}
		e := t.entries[k]
		if e != nil {
			select {
			case <-e.done:
				if e.usable(lp) {
					models[i], seconds[i], have[i] = e.model, e.seconds, true
					continue
				}
				if e.refused {
					wait[i] = e // ended: the fold's await finds it refused
					continue
				}
				e = nil // given back, or its process is gone: fit again
			default:
				wait[i] = e
				continue
			}
		}
		e = &sharedFit{done: make(chan struct{})}
		if _, known := t.entries[k]; !known {
			t.groups[gk] = append(t.groups[gk], k)
		}
		t.entries[k] = e
		mine, mineFits = append(mine, i), append(mineFits, e)
	}
	return mine, mineFits, wait
}

// publish ends the fits of claimed entries: their models, made by process
// lp in seconds in all, or err for every one (then given back, so that the
// next fold that needs them fits them again).
func (t *fitTable) publish(keys []string, fits []*sharedFit, models []host.ModelRef, lp *host.Plugin, seconds float64, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	each := seconds / float64(max(len(fits), 1))
	for i, e := range fits {
		if err != nil {
			e.err = err
			if t.entries[keys[i]] == e {
				delete(t.entries, keys[i])
			}
		} else {
			e.model, e.proc, e.seconds = models[i], lp, each
		}
		close(e.done)
	}
}

// refuse ends the fits of claimed entries with err, the learner's answer
// to the call that fitted them (not a timeout, nor a process that ended):
// unlike publish's, the entries stay in the table, refused, and are never
// claimed again, so that the calls a group makes after a refusal do not
// depend on which of its folds comes next. A fold that needs one fits
// its problems alone (fold.fitAlone), and its error is the one its cell
// records in a run of its own.
func (t *fitTable) refuse(fits []*sharedFit, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, e := range fits {
		e.err, e.refused = err, true
		close(e.done)
	}
}

// release frees the models of share group gk, whose last task has ended,
// in the processes that made them (those still running), and forgets them:
// at once when the table's batch is 0, else once batch models of ended
// groups have gathered in their process (flush releases the rest). The
// count is a process's own, so that when one learner's groups end, and
// so its Release calls, does not depend on when another's do.
func (t *fitTable) release(ctx context.Context, gk shareKey) {
	t.mu.Lock()
	for _, k := range t.groups[gk] {
		e := t.entries[k]
		delete(t.entries, k)
		if e == nil {
			continue
		}
		select {
		case <-e.done:
		default:
			continue // cannot happen: the group's tasks have all ended
		}
		if e.err != nil || e.proc == nil || e.proc.Exited() || e.proc.Killed() {
			continue
		}
		if t.pending[e.proc] == nil {
			t.procs = append(t.procs, e.proc)
		}
		t.pending[e.proc] = append(t.pending[e.proc], e.model)
	}
	delete(t.groups, gk)
	for _, k := range t.outputGroups[gk] {
		delete(t.outputs, k)
	}
	delete(t.outputGroups, gk)
	procs, due := t.takePending(t.batch)
	t.mu.Unlock()
	t.releaseModels(ctx, procs, due)
}

// flush releases the models of ended groups that release has gathered.
func (t *fitTable) flush(ctx context.Context) {
	t.mu.Lock()
	procs, due := t.takePending(0)
	t.mu.Unlock()
	t.releaseModels(ctx, procs, due)
}

// takePending returns the gathered models of the processes that have
// gathered at least least of them, by process, and those processes in
// order, and leaves the others gathering (t.mu held).
func (t *fitTable) takePending(least int) ([]*host.Plugin, map[*host.Plugin][]host.ModelRef) {
	var procs, keep []*host.Plugin
	due := map[*host.Plugin][]host.ModelRef{}
	for _, p := range t.procs {
		if len(t.pending[p]) < least {
			keep = append(keep, p)
			continue
		}
		procs, due[p] = append(procs, p), t.pending[p]
		delete(t.pending, p)
	}
	t.procs = keep
	return procs, due
}

// releaseModels asks each process of procs still running to release its
// models in due, in one call, bounded by 10 s.
func (t *fitTable) releaseModels(ctx context.Context, procs []*host.Plugin, due map[*host.Plugin][]host.ModelRef) {
	if ctx.Err() != nil || len(procs) == 0 {
		return // an interrupted run's plugins are about to be stopped
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	for _, p := range procs {
		if p.Exited() || p.Killed() {
			continue // its models went with it
		}
		err := p.Learner.Release(ctx, due[p])
		if t.stats != nil {
			atomic.AddInt64(&t.stats.ReleaseCalls, 1)
			if err == nil {
				atomic.AddInt64(&t.stats.ModelsReleased, int64(len(due[p])))
			}
		}
	}
}

// identities returns the identity of each problem of the fold's final fit
// on the rows of design matrix digest (see the package's account above),
// as hex digests, and sets each problem's seed from its identity less the
// plugin's build (problemSeed).
func (f *fold) identities(digest string, problems []plugin.Problem) ([]string, error) {
	base, build, err := f.identityBase(digest)
	if err != nil {
		return nil, err
	}
	groups := map[problem.GroupsID][]byte{}
	keys := make([]string, len(problems))
	for j := range problems {
		p := &problems[j]
		h := sha256.New()
		h.Write(base)
		writeProblem(h, p, groups)
		seedKey := h.Sum(nil)
		p.Seed = problemSeed(f.g.Experiment.Seed, hex.EncodeToString(seedKey))
		h.Write(build)
		// The table's key holds the share group too: a model is let go
		// with the group that made it, so no other group may hold it (a
		// tuning candidate's inner fit could otherwise coincide with
		// another learner block's).
		writeString(h, fmt.Sprintf("%d %d %q %d %d", f.group.dataset, f.group.pipeline, f.group.learner, f.group.repeat, f.group.fold))
		keys[j] = hex.EncodeToString(h.Sum(nil))
	}
	return keys, nil
}

// problemSeed is the solver seed of the problem whose identity, less the
// learner plugin's build, has digest key: the plugin's name and parameters
// count, not its binary's digest, version or runtime, so that the same
// code built again, or linked into a process rather than run as one, draws
// the same numbers (while a model made by one build never serves another).
func problemSeed(seed uint64, key string) uint64 { return cv.Seed(seed, "solver", key) }

// identityBase digests what the problems of the fold's final fit share
// (base): the learner's plugin name and parameters, the dataset, repeat,
// fold and pipeline, the design matrix's digest, and the training rows;
// build is the learner plugin's build (name, version, binary digest and
// runtime), which the identity adds last (see problemSeed).
//
// The fold keeps them for digest: its siblings' problems (see
// siblingProblems) share them with its own.
func (f *fold) identityBase(digest string) (base, build []byte, err error) {
	if f.idBase != nil && f.idDigest == digest {
		return f.idBase, f.idBuild, nil
	}
	defer func() {
		if err == nil {
			f.idDigest, f.idBase, f.idBuild = digest, base, build
		}
	}()
	spec := learnerSpec(f.c.Learner, f.params)
	if build, err = json.Marshal(spec.Plugin); err != nil {
		return nil, nil, err
	}
	params, err := json.Marshal(spec.Params)
	if err != nil {
		return nil, nil, err
	}
	d := f.c.Dataset
	h := sha256.New()
	for _, s := range []string{"polyclass problem 1", spec.Plugin.Name, string(params), d.Config.Name, d.SHA256, d.TestSHA256,
		f.c.Pipeline.Config.Name, strconv.Itoa(f.repeat), strconv.Itoa(f.foldIndex), digest} {
		writeString(h, s)
	}
	writeInts(h, f.train)
	return h.Sum(nil), build, nil
}

// writeProblem digests problem p into h: its kind, number of classes,
// targets (compact ones as the digest of their groups, digested once per
// groups slice in groups, and their code) and weights.
func writeProblem(h hash.Hash, p *plugin.Problem, groups map[problem.GroupsID][]byte) {
	var buf [binary.MaxVarintLen64]byte
	h.Write(buf[:binary.PutUvarint(buf[:], uint64(p.Kind))])
	h.Write(buf[:binary.PutUvarint(buf[:], uint64(p.NumClasses))])
	if c := p.Compact; c != nil {
		id := c.GroupsID()
		g, ok := groups[id]
		if !ok {
			gh := sha256.New()
			writeInts(gh, c.Groups)
			g = gh.Sum(nil)
			groups[id] = g
		}
		writeString(h, "compact")
		h.Write(g)
		writeInts(h, c.Code)
	} else {
		writeString(h, "targets")
		writeFloats(h, p.Targets)
	}
	writeString(h, "weights")
	writeFloats(h, p.Weights)
}

// writeString digests s with its length.
func writeString(h hash.Hash, s string) {
	var buf [binary.MaxVarintLen64]byte
	h.Write(buf[:binary.PutUvarint(buf[:], uint64(len(s)))])
	h.Write([]byte(s))
}

// writeInts digests a slice of integers with its length.
func writeInts[T int | int8 | int32](h hash.Hash, s []T) {
	buf := binary.AppendUvarint(make([]byte, 0, 2*len(s)+binary.MaxVarintLen64), uint64(len(s)))
	for _, v := range s {
		buf = binary.AppendVarint(buf, int64(v))
	}
	h.Write(buf)
}

// writeFloats digests a slice of float64s (their bits) with its length (a
// nil slice as an empty one).
func writeFloats(h hash.Hash, s []float64) {
	buf := binary.AppendUvarint(make([]byte, 0, 8*len(s)+binary.MaxVarintLen64), uint64(len(s)))
	for _, v := range s {
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
	}
	h.Write(buf)
}

// errPredictAbandoned ends the claim of a fold that stopped before its
// prediction ended (a panic): the folds that waited for it predict
// themselves.
var errPredictAbandoned = errors.New("the fold that claimed the prediction stopped")

// errPredictGivenBack ends the claim of a sibling's outputs that the
// claiming fold's call cannot predict (see fold.siblingOutputs): the
// sibling's own fold predicts them.
var errPredictGivenBack = errors.New("the fold that claimed the prediction gave it back")

// predictShared predicts rows of design matrix digest with models, the
// fold's final models whose identities are keys (see identities), as
// predict does, once per share group: the first fold to ask claims the
// prediction, the others of its group that ask the same (the same
// models' identities, rows and wantProbs; ovo and dag, the decoders of
// one code) wait for it and take its outputs, which are the same bit for
// bit, as a model depends on its identity alone. Each fold's predict time
// is the call's. Models of the fold's own (keys nil, or no table) are
// predicted by predict.
func (f *fold) predictShared(digest string, keys []string, rows []int, models []host.ModelRef, wantProbs bool) (scores, probs *mat.Dense, err error) {
	return f.predictSharedWith(digest, keys, rows, models, wantProbs, false)
}

// predictTest is predictShared on the fold's test rows, whose call also
// predicts the outputs of siblings' models nobody has claimed (see
// siblingOutputs): ova's outputs with ovo's, one Predict call where each
// made its own.
func (f *fold) predictTest(digest string, keys []string, models []host.ModelRef, wantProbs bool) (scores, probs *mat.Dense, err error) {
	return f.predictSharedWith(digest, keys, f.test, models, wantProbs, true)
}

// predictSharedWith is predictShared, with the siblings' outputs in the
// fold's call when withSiblings.
func (f *fold) predictSharedWith(digest string, keys []string, rows []int, models []host.ModelRef, wantProbs, withSiblings bool) (scores, probs *mat.Dense, err error) {
	if keys == nil || f.share == nil {
		return f.predict(digest, rows, models, wantProbs)
	}
	wantProbs = wantProbs && f.c.Learner.Info.Capabilities.Probabilities
	atomic.AddInt64(&f.stats.PredictionsRequested, 1)
	key := outputsKey(digest, keys, rows, wantProbs)
	for {
		e, mine := f.claimedOutputs(key)
		if !mine {
			e, mine = f.share.claimOutputs(f.group, key)
		}
		if mine {
			var sibs []claimedOutputs
			if withSiblings && outputsOf(models) > 0 {
				sibs = f.siblingOutputs(wantProbs)
			}
			return f.predictClaimed(digest, key, e, rows, models, wantProbs, sibs)
		}
		start := time.Now()
		select {
		case <-e.done:
		case <-f.ctx.Done():
			return nil, nil, f.lerr(f.ctx.Err())
		}
		f.clock.since(phaseWait, start)
		if e.err == nil {
			f.predictSeconds += e.seconds
			return e.scores, e.probs, nil
		}
		// Its prediction failed, and was given back: claim it again.
	}
}

// predictClaimed predicts the outputs of entry e, claimed by the fold,
// with the siblings' outputs sibs (also claimed) in the same call, and
// publishes them (or the error) to the folds that wait for them. Each
// model scores each row alone, so the columns of a model's outputs are
// the same in any call. A call with siblings' models that fails is made
// again without them (theirs are given back), so that the fold's error
// names its own models alone.
func (f *fold) predictClaimed(digest, key string, e *sharedOutputs, rows []int, models []host.ModelRef, wantProbs bool, sibs []claimedOutputs) (scores, probs *mat.Dense, err error) {
	published := false
	defer func() {
		if !published {
			f.share.publishOutputs(key, e, nil, nil, 0, errPredictAbandoned)
			for _, s := range sibs {
				f.share.publishOutputs(s.key, s.e, nil, nil, 0, errPredictAbandoned)
			}
		}
	}()
	before := f.predictSeconds
	all := models
	for _, s := range sibs {
		all = append(slices.Clip(all), s.models...)
	}
	scores, probs, err = f.predict(digest, rows, all, wantProbs)
	if err != nil && len(sibs) > 0 {
		for _, s := range sibs {
			f.share.publishOutputs(s.key, s.e, nil, nil, 0, err)
		}
		sibs = nil
		scores, probs, err = f.predict(digest, rows, models, wantProbs)
	}
	seconds := f.predictSeconds - before
	if err == nil && len(sibs) > 0 {
		lo := outputsOf(models)
		for _, s := range sibs {
			hi := lo + outputsOf(s.models)
			f.share.publishOutputs(s.key, s.e, columns(scores, lo, hi), columns(probs, lo, hi), seconds, nil)
			atomic.AddInt64(&f.stats.PredictionsMade, 1)
			lo = hi
		}
		scores, probs = columns(scores, 0, outputsOf(models)), columns(probs, 0, outputsOf(models))
	}
	f.share.publishOutputs(key, e, scores, probs, seconds, err)
	published = true
	if err == nil {
		atomic.AddInt64(&f.stats.PredictionsMade, 1)
	}
	return scores, probs, err
}

// outputsOf is the number of columns of the models' outputs.
func outputsOf(models []host.ModelRef) int {
	n := 0
	for _, m := range models {
		n += m.Outputs
	}
	return n
}

// columns returns a copy of columns lo..hi−1 (lo < hi) of m, which has
// rows (nil for nil).
func columns(m *mat.Dense, lo, hi int) *mat.Dense {
	if m == nil {
		return nil
	}
	r, _ := m.Dims()
	return mat.DenseCopyOf(m.Slice(0, r, lo, hi))
}

// siblingModels are the final models of another cell of the fold's share
// group (see siblingCandidates): their identities, whether its decoder wants
// probabilities, and whether it decodes row-wise (in blocks).
type siblingModels struct {
	keys      []string
	wantProbs bool
	rowWise   bool
}

// claimedOutputs is a sibling's outputs the fold claimed to predict in its
// own call: the entry, its key, and the models.
type claimedOutputs struct {
	key    string
	e      *sharedOutputs
	models []host.ModelRef
	of     siblingModels
}

// siblingOutputs returns the outputs on the fold's test rows of the
// siblings' models the fold claimed with its fits (sibOutputs) that its
// call can predict: models all fitted by the fold's learner process, a
// decoder that wants probabilities as the fold's does (wantProbs) and
// takes the test rows in one block, as the fold's. It gives the others
// back, for their own folds to predict.
func (f *fold) siblingOutputs(wantProbs bool) []claimedOutputs {
	var out []claimedOutputs
	for _, c := range f.sibOutputs {
		s := c.of
		models, ok := f.share.fitted(s.keys, f.lp)
		if !ok || s.wantProbs != wantProbs || len(f.test) == 0 || outputsOf(models) == 0 ||
			(s.rowWise && blockRows(models, wantProbs, f.decodeBlock) < len(f.test)) {
			f.share.publishOutputs(c.key, c.e, nil, nil, 0, errPredictGivenBack)
			continue
		}
		c.models = models
		out = append(out, c)
	}
	f.sibOutputs = nil
	return out
}

// claimedOutputs takes from the siblings' outputs the fold claimed with
// its fits (sibOutputs) those of key, which a sibling that decodes the
// fold's own models shares with it: the fold predicts them as its own.
func (f *fold) claimedOutputs(key string) (*sharedOutputs, bool) {
	for i, c := range f.sibOutputs {
		if c.key == key {
			f.sibOutputs = slices.Delete(f.sibOutputs, i, i+1)
			return c.e, true
		}
	}
	return nil, false
}

// giveBackOutputs gives back the siblings' outputs the fold claimed and
// will not predict (it decodes in blocks, or it ended first), for their
// own folds to predict.
func (f *fold) giveBackOutputs() {
	for _, c := range f.sibOutputs {
		f.share.publishOutputs(c.key, c.e, nil, nil, 0, errPredictAbandoned)
	}
	f.sibOutputs = nil
}

// fitted returns the models of keys when every one has been fitted
// without error by process lp, which still runs.
func (t *fitTable) fitted(keys []string, lp *host.Plugin) ([]host.ModelRef, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	models := make([]host.ModelRef, len(keys))
	for i, k := range keys {
		e := t.entries[k]
		if e == nil {
			return nil, false
		}
		select {
		case <-e.done:
		default:
			return nil, false
		}
		if !e.usable(lp) {
			return nil, false
		}
		models[i] = e.model
	}
	return models, true
}

// outputsKey is the identity of the outputs of the models whose
// identities are keys on rows of design matrix digest, with probabilities
// when wantProbs.
func outputsKey(digest string, keys []string, rows []int, wantProbs bool) string {
	h := sha256.New()
	writeString(h, "polyclass outputs 1")
	writeString(h, digest)
	writeString(h, strconv.FormatBool(wantProbs))
	writeInts(h, rows)
	var buf [binary.MaxVarintLen64]byte
	h.Write(buf[:binary.PutUvarint(buf[:], uint64(len(keys)))])
	for _, k := range keys {
		writeString(h, k)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// siblingFits are problems of other cells of a fold's share group that
// the fold claimed in the table, to fit in its own batch: their
// identities, their fits in the table, and before, how many of them
// belong to cells ahead of the fold's own in the group. The batch puts
// those first, its own problems next and the rest last: the group's
// order, the same whichever of its folds makes the batch.
type siblingFits struct {
	problems []plugin.Problem
	keys     []string
	fits     []*sharedFit
	before   int
}

// siblingCandidates are the problems of the final fits of the other cells
// of a fold's share group that can go in its batch (see
// siblingProblems), each with its identity; ownAt is how many come from
// cells ahead of the fold's own, models the cells' models, whose
// outputs the fold may predict (see siblingOutputs), and outputs the
// identities of those outputs on the fold's test rows ("" for none).
type siblingCandidates struct {
	problems []plugin.Problem
	keys     []string
	ownAt    int
	models   []siblingModels
	outputs  []string
}

// claimed returns the candidates at positions mine, claimed as fits.
func (c siblingCandidates) claimed(mine []int, fits []*sharedFit) siblingFits {
	before := 0
	for _, i := range mine {
		if i < c.ownAt {
			before++
		}
	}
	return siblingFits{problems: pick(c.problems, mine), keys: pick(c.keys, mine), fits: fits, before: before}
}

// siblingCandidates returns the problems of the other cells of the fold's
// share group that its batch may take: ova's problems with ovo's, one
// Fit call where each cell made its own. There are none for a fold that
// is tuned, or that has no plan cache (the siblings' plans would be asked
// for twice).
func (f *fold) siblingCandidates(digest string) siblingCandidates {
	if len(f.siblings) < 2 || f.plans == nil || f.c.Learner.Candidates != nil {
		return siblingCandidates{}
	}
	return f.siblingProblems(digest)
}

// siblingProblems returns the problems of the final fits of the other
// cells of the fold's share group that can go in the fold's batch, each
// with its identity: cells of the fold's learner, untuned and not
// calibrated, whose reduction, on the fold's reducer plugin, plans in one
// stage. Their plans come from the run's plans (asked for once, as their
// own folds will ask); a plan that fails leaves its cell out, for its own
// fold to report.
func (f *fold) siblingProblems(digest string) siblingCandidates {
	var out siblingCandidates
	for _, c := range f.siblings {
		if c == f.c {
			out.ownAt = len(out.keys)
		}
		if c == f.c || !f.batchesWith(c) {
			continue
		}
		seed := cv.Seed(f.g.Experiment.Seed, "plan", c.Dataset.Config.Name, c.Reduction.Config.Name)
		req := f.planRequestOf(c, seed)
		plan, made, err := f.plans.plan(f.ctx, f.rp.Name, req, func() (plugin.Plan, error) {
			return f.rp.Reducer.Plan(f.ctx, req)
		})
		if made && err == nil {
			atomic.AddInt64(&f.stats.PlansMade, 1)
		}
		if err != nil || plan.NextStage != nil {
			continue
		}
		for j := range plan.Problems {
			plan.Problems[j] = c.Weights.Weigh(plan.Problems[j], req.Labels)
		}
		k, err := f.identities(digest, plan.Problems)
		if err != nil {
			continue
		}
		out.problems, out.keys = append(out.problems, plan.Problems...), append(out.keys, k...)
		m := siblingModels{keys: k,
			wantProbs: !plan.IgnoresProbabilities && c.Learner.Info.Capabilities.Probabilities,
			rowWise:   c.Reduction.Scheme.RowWiseDecode}
		out.models = append(out.models, m)
		key := ""
		if len(f.test) > 0 {
			key = outputsKey(digest, k, f.test, m.wantProbs)
		}
		out.outputs = append(out.outputs, key)
	}
	return out
}

// batchesWith reports whether cell c's final fit may go in the fold's
// batch: c has the fold's learner and no candidates, no calibration,
// and its reduction runs on the fold's reducer plugin.
func (f *fold) batchesWith(c *Cell) bool {
	r := c.Reduction
	return c.Learner == f.c.Learner && c.Learner.Candidates == nil && r.Config.Calibrate == "" &&
		r.Plugin != nil && f.c.Reduction.Plugin != nil && r.Plugin.Name == f.c.Reduction.Plugin.Name
}

// claimFreeLocked claims, in share group gk, the identities of keys that
// nobody has claimed (or whose fit was given back, or whose process has
// ended), and returns their positions and entries; it never waits, and
// leaves the others alone (a refused one among them: its cell's fold
// fits alone). t.mu is held.
func (t *fitTable) claimFreeLocked(gk shareKey, keys []string) (mine []int, fits []*sharedFit) {
	seen := map[string]bool{}
	for i, k := range keys {
		if seen[k] {
			continue // a column two sibling codes share
		}
		seen[k] = true
		if e := t.entries[k]; e != nil {
			select {
			case <-e.done:
				if e.refused || e.err == nil && e.proc != nil && !e.proc.Exited() && !e.proc.Killed() {
					continue
				}
			default:
				continue
			}
		}
		e := &sharedFit{done: make(chan struct{})}
		if _, known := t.entries[k]; !known {
			t.groups[gk] = append(t.groups[gk], k)
		}
		t.entries[k] = e
		mine, fits = append(mine, i), append(fits, e)
	}
	return mine, fits
}
