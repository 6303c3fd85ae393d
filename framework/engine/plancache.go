package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"sync"

	"github.com/polyclass/polyclass/framework/plugin"
)

// planCacheBytes bounds the bytes of the plans a run keeps (see
// planCache): beyond it, the cache starts again empty.
const planCacheBytes = 64 << 20

// planCache holds the reducers' plans of a run by what they were asked: a
// plan is a function of its request (the scheme, its parameters, the
// classes, the training rows' labels, the seed, the stage and its state)
// and of the reducer plugin, as every number of a run is, so the cells
// of one reduction, dataset and fold that differ only in their learner,
// parameters or pipeline (225 (C, γ) pairs of a grid) ask the reducer
// once, not once a cell. A fold that asks for a plan another fold is
// asking for waits for its answer. A cached plan is handed out as a copy
// whose problems the fold may set (seeds, weights); the targets, codes
// and state they point to are only read. A nil cache asks every time.
type planCache struct {
	mu    sync.Mutex
	plans map[string]*cachedPlan
	bytes int64
}

// cachedPlan is a plan asked for once: done is closed when plan (or err)
// is set.
type cachedPlan struct {
	done chan struct{}
	plan plugin.Plan
	err  error
}

// newPlanCache returns an empty cache.
func newPlanCache() *planCache { return &planCache{plans: map[string]*cachedPlan{}} }

// plan returns the plan of reducer for req: the cached one, else the one
// ask returns, which it keeps; made reports whether ask was called. A
// failed ask is not kept: the folds that waited for it ask themselves.
func (c *planCache) plan(ctx context.Context, reducer string, req plugin.PlanRequest, ask func() (plugin.Plan, error)) (p plugin.Plan, made bool, err error) {
	key, kerr := planKey(reducer, req)
	if c == nil || kerr != nil {
		p, err = ask()
		return p, true, err
	}
	c.mu.Lock()
	e := c.plans[key]
	if e == nil {
		e = &cachedPlan{done: make(chan struct{})}
		c.plans[key] = e
		c.mu.Unlock()
		return c.fill(key, e, ask)
	}
	c.mu.Unlock()
	select {
	case <-e.done:
	case <-ctx.Done():
		return plugin.Plan{}, false, ctx.Err()
	}
	if e.err != nil {
		p, err = ask()
		return p, true, err
	}
	p = e.plan
	p.Problems = slices.Clone(p.Problems)
	return p, false, nil
}

// fill asks for the plan of entry e, under key, and publishes it; it
// returns a copy the caller may change.
func (c *planCache) fill(key string, e *cachedPlan, ask func() (plugin.Plan, error)) (plugin.Plan, bool, error) {
	defer close(e.done)
	e.err = errPlanAbandoned // until ask returns (a panic leaves it)
	defer func() {
		if e.err != nil {
			c.mu.Lock()
			if c.plans[key] == e {
				delete(c.plans, key)
			}
			c.mu.Unlock()
		}
	}()
	e.plan, e.err = ask()
	if e.err == nil {
		e.err = c.account(key, e)
	}
	if e.err != nil {
		if errors.Is(e.err, errPlanTooBig) {
			e.err = errPlanTooBig // the waiters ask themselves; the caller has its plan
			return e.plan, true, nil
		}
		return plugin.Plan{}, true, e.err
	}
	p := e.plan
	p.Problems = slices.Clone(p.Problems)
	return p, true, nil
}

// errPlanAbandoned is the error of a plan whose fold stopped while asking
// for it (a panic): the folds that waited for it ask themselves.
var errPlanAbandoned = errors.New("the fold that asked for the plan stopped")

// errPlanTooBig marks a plan larger than the cache's bound, which it does
// not keep.
var errPlanTooBig = errors.New("plan larger than the plan cache")

// account adds the size of e's plan to the cache's, which starts again
// empty (but for e) when it would pass planCacheBytes; a plan larger than
// that is not kept (errPlanTooBig).
func (c *planCache) account(key string, e *cachedPlan) error {
	size := planSize(e.plan)
	if size > planCacheBytes {
		return errPlanTooBig
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bytes+size > planCacheBytes {
		for k, o := range c.plans {
			if o != e && o.isDone() {
				delete(c.plans, k)
			}
		}
		c.bytes = 0
	}
	c.bytes += size
	return nil
}

// isDone reports whether e's plan has been asked for.
func (e *cachedPlan) isDone() bool {
	select {
	case <-e.done:
		return true
	default:
		return false
	}
}

// planSize estimates the bytes a plan holds: its problems' targets and
// weights, compact groups counted once per problem (an over-estimate where
// they share them), and its state.
func planSize(p plugin.Plan) int64 {
	n := int64(len(p.State)) + 256
	for _, q := range p.Problems {
		n += 64 + 8*int64(len(q.Targets)+len(q.Weights))
		if q.Compact != nil {
			n += 4*int64(len(q.Compact.Groups)) + int64(len(q.Compact.Code))
		}
	}
	if p.Code != nil {
		n += int64(len(p.Code.Entries))
	}
	return n
}

// planKey digests what decides a plan: the reducer plugin's name and the
// whole request.
func planKey(reducer string, req plugin.PlanRequest) (string, error) {
	params, err := json.Marshal(paramsJSON(req.Params))
	if err != nil {
		return "", err
	}
	h := sha256.New()
	writeString(h, reducer)
	writeString(h, req.Scheme)
	writeString(h, string(params))
	writeInts(h, []int{req.NumClasses, req.Stage, len(req.ClassNames)})
	writeFloats(h, []float64{math.Float64frombits(req.Seed)})
	for _, n := range req.ClassNames {
		writeString(h, n)
	}
	writeString(h, string(req.State))
	writeInts(h, req.Labels)
	if m := req.LabelMatrix; m != nil {
		r, k := m.Dims()
		writeInts(h, []int{1, r, k})
		for i := range r {
			writeFloats(h, m.RawRowView(i))
		}
	} else {
		writeInts(h, []int{0})
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
