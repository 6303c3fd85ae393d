package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"time"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/metrics"
	"github.com/polyclass/polyclass/framework/outcome"
)

// hyperbandBracket is one bracket s of Hyperband: successive halving
// whose first round gives rounds[0].candidates candidates
// rounds[0].resources rows each.
type hyperbandBracket struct {
	s      int
	rounds []halvingRound
}

// hyperbandSchedule plans Hyperband as Li et al.'s Algorithm 1 (JMLR 18,
// 2018) with eta = factor and the maximum resource R = nSamples / minRes
// in units of minRes rows: s_max = floor(log_eta(R)), and bracket s =
// s_max … 0 starts n = ceil((s_max+1)·eta^s / (s+1)) candidates (at most
// pool, the candidates there are) on r = R·eta^-s units; its round i
// scores n_i = floor(n_{i-1} / eta) (at least 1) candidates on
// nSamples / eta^(s-i) rows, so every bracket's last round has every row.
// For nSamples = 81, minRes = 1 and eta = 3 the brackets are the paper's
// Table 1. It fails when minRes exceeds the rows.
func hyperbandSchedule(pool, nSamples, minRes, eta int) ([]hyperbandBracket, error) {
	if minRes > nSamples {
		return nil, fmt.Errorf("min_resources = %d is more than the %d rows of the outer training part", minRes, nSamples)
	}
	r := nSamples / minRes
	sMax := pyFloorLog(r, eta)
	for sMax > 0 && intPow(eta, sMax) > r {
		sMax--
	}
	out := make([]hyperbandBracket, 0, sMax+1)
	for s := sMax; s >= 0; s-- {
		n := ((sMax+1)*intPow(eta, s) + s) / (s + 1) // ceil((s_max+1)·eta^s / (s+1))
		b := hyperbandBracket{s: s}
		for i, cands := 0, min(n, pool); i <= s; i++ {
			b.rounds = append(b.rounds, halvingRound{resources: nSamples / intPow(eta, s-i), candidates: cands})
			cands = max(1, cands/eta)
		}
		out = append(out, b)
	}
	return out, nil
}

// hyperbandDraws picks each bracket's first candidates (indices into the
// pool, in candidate order): the brackets take, in turn, the next
// rounds[0].candidates of a permutation of the pool seeded by seed,
// going round it again when it runs out, so that the brackets together
// score as many distinct candidates as they can.
func hyperbandDraws(brackets []hyperbandBracket, pool int, seed uint64) [][]int {
	perm := rand.New(rand.NewPCG(seed, 0)).Perm(pool)
	out := make([][]int, len(brackets))
	next := 0
	for i, b := range brackets {
		for range b.rounds[0].candidates {
			out[i] = append(out[i], perm[next%pool])
			next++
		}
		slices.Sort(out[i])
	}
	return out
}

// hyperband runs Hyperband on the fold's training part: each bracket is
// successive halving over its candidates (drawn from the learner's
// candidates as hyperbandDraws says, seeded by the experiment's seed and
// the learner's name: the same in every cell and fold), each round
// scored as halvingRound scores one, keeping the next round's number of
// candidates. A candidate scored before on the same rows (in another
// bracket) keeps its score instead of being fitted again (the round's
// Reused). The winner is the best of the candidates scored on the most
// rows, every row when the budget let a bracket finish (ties to the
// first scored), not the paper's best loss at any resource: a score on
// fewer rows is a noisier one.
func (f *fold) hyperband(t task, m metrics.Metric, inner []int) (*tuning, error) {
	l := f.c.Learner
	tc := l.Config.Tune
	minRes := tc.MinResources
	if minRes <= 0 { // "exhaust" and "smallest": scikit-learn's smallest
		minRes = smallestResource(tc, tc.Folds, f.classCount())
	}
	if minRes > f.maxResource() {
		return nil, tooFewResources(tc, minRes, f.maxResource())
	}
	brackets, err := hyperbandSchedule(len(l.Candidates), f.maxResource(), minRes, tc.Factor)
	if err != nil {
		return nil, err
	}
	orders := f.subsampleOrders(inner, tc.Folds)
	draws := hyperbandDraws(brackets, len(l.Candidates), cv.Seed(f.g.Experiment.Seed, "tune", "hyperband", l.Config.Name))
	hb := &hyperbandRun{f: f, t: t, m: m, orders: orders, budget: newBudget(tc), seen: map[[2]int]float64{}, tr: &tuning{}}
	for i, b := range brackets {
		if err := hb.bracket(b, draws[i]); err != nil {
			return nil, err
		}
	}
	hb.tr.best = l.Candidates[hb.top]
	hb.tr.chosen = l.tunedName(hb.tr.best)
	return hb.tr, nil
}

// hyperbandRun is the state of one fold's Hyperband: the scores so far
// by (candidate, rows), the budget and the best on the most rows.
type hyperbandRun struct {
	f       *fold
	t       task
	m       metrics.Metric
	orders  [][2][]int
	budget  *budget
	seen    map[[2]int]float64
	tr      *tuning
	top     int // the best candidate on topRows rows
	topRows int
	topVal  float64
	// perCandidate is the fits one candidate's scoring requests (its
	// problems on every inner fold), for the count of a reused score's.
	perCandidate int64
}

// bracket runs bracket b over candidates alive, round by round while the
// budget lasts.
func (h *hyperbandRun) bracket(b hyperbandBracket, alive []int) error {
	for r, plan := range b.rounds {
		if len(h.tr.rounds) > 0 && !h.budget.open() {
			return nil
		}
		s := b.s
		round := outcome.TuneRound{Resources: plan.resources, Candidates: alive, Bracket: &s}
		var fresh []int
		for _, ci := range alive {
			if _, ok := h.seen[[2]int{ci, plan.resources}]; !ok {
				fresh = append(fresh, ci)
			}
		}
		if len(fresh) > 0 {
			scores, requested, err := h.scoreRound(len(h.tr.rounds), plan.resources, fresh)
			if err != nil {
				return err
			}
			// Every candidate fits the same problems on the inner folds.
			h.perCandidate = requested / int64(len(fresh))
			for i, ci := range fresh {
				h.seen[[2]int{ci, plan.resources}] = scores[i]
			}
		}
		h.budget.spend(len(fresh))
		round.Reused = len(alive) - len(fresh)
		// A reused score's fits are requested and not made again: the
		// run's summary counts them so (fits: N requested, M made).
		atomic.AddInt64(&h.f.stats.FitsRequested, int64(round.Reused)*h.perCandidate)
		for _, ci := range alive {
			v := h.seen[[2]int{ci, plan.resources}]
			round.Scores = append(round.Scores, v)
			if plan.resources > h.topRows || (plan.resources == h.topRows && better(v, h.topVal, h.m.HigherIsBetter)) {
				h.top, h.topRows, h.topVal = ci, plan.resources, v
			}
		}
		h.tr.rounds = append(h.tr.rounds, round)
		if r < len(b.rounds)-1 {
			alive = survivors(alive, round.Scores, b.rounds[r+1].candidates, h.m.HigherIsBetter)
		}
	}
	return nil
}

// scoreRound scores candidates fresh on the round's resources (see
// halvingRound) and returns their scores and the fits they requested,
// counted apart from the other folds running at the same time (the fold's
// stats for the round are its own, then added to the run's).
func (h *hyperbandRun) scoreRound(r, resources int, fresh []int) ([]float64, int64, error) {
	run := h.f.stats
	own := &Stats{}
	h.f.stats = own
	scores, err := h.f.halvingRound(h.t, h.m, r, resources, fresh, h.orders)
	h.f.stats = run
	atomic.AddInt64(&run.Uploads, own.Uploads)
	atomic.AddInt64(&run.FitsRequested, own.FitsRequested)
	atomic.AddInt64(&run.FitsMade, own.FitsMade)
	return scores, own.FitsRequested, err
}

// better reports whether score a beats b (a tie: no).
func better(a, b float64, higherIsBetter bool) bool {
	if higherIsBetter {
		return a > b
	}
	return a < b
}

// budget is a search's max_evals and max_time on one outer fold, checked
// between rounds (a random search's candidates) as mlr3's terminators
// are between batches: a round starts while fewer than max_evals
// candidate evaluations were made and less than max_time has passed
// since the search began, so the last round may go beyond max_evals.
type budget struct {
	maxEvals int
	maxTime  time.Duration
	start    time.Time
	evals    int
}

// newBudget starts tune block t's budget now.
func newBudget(t *config.Tune) *budget {
	return &budget{maxEvals: t.MaxEvals, maxTime: t.MaxTime, start: time.Now()}
}

// open reports whether another round may start.
func (b *budget) open() bool {
	if b.maxEvals > 0 && b.evals >= b.maxEvals {
		return false
	}
	return b.maxTime <= 0 || time.Since(b.start) < b.maxTime
}

// spend counts n candidate evaluations made.
func (b *budget) spend(n int) { b.evals += n }
