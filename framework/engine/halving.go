package engine

import (
	"fmt"
	"maps"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/metrics"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/param"
)

// halvingRound is one planned round of successive halving: the rows each
// candidate gets (n_resources) and the number of candidates.
type halvingRound struct {
	resources, candidates int
}

// halvingSchedule plans successive halving as scikit-learn's
// BaseSuccessiveHalving._run_search with resource = "n_samples": for
// nCandidates candidates, nSamples rows (max_resources), k inner folds
// and nClasses classes, each round's n_resources and n_candidates; with
// a budget parameter as the resource, nSamples is its largest value and
// "smallest" and "exhaust" start from 1, as scikit-learn's. It fails when
// min_resources exceeds the rows.
func halvingSchedule(nCandidates, nSamples, nClasses, k int, t *config.Tune) ([]halvingRound, error) {
	factor := t.Factor
	minRes := t.MinResources
	if minRes <= 0 { // "exhaust" and "smallest" start from the smallest
		minRes = smallestResource(t, k, nClasses)
	}
	required := 1 + pyFloorLog(nCandidates, factor)
	if t.MinResources == config.MinExhaust {
		minRes = max(minRes, nSamples/intPow(factor, required-1))
	}
	if minRes > nSamples {
		return nil, tooFewResources(t, minRes, nSamples)
	}
	possible := 1 + pyFloorLog(nSamples/minRes, factor)
	n := min(possible, required)
	if t.AggressiveElimination {
		n = required
	}
	out := make([]halvingRound, n)
	cands := nCandidates
	for itr := range out {
		power := itr
		if t.AggressiveElimination {
			power = max(0, itr-required+possible)
		}
		out[itr] = halvingRound{resources: min(intPow(factor, power)*minRes, nSamples), candidates: cands}
		cands = (cands + factor - 1) / factor
	}
	return out, nil
}

// smallestResource is min_resources "smallest": folds × 2 × classes
// rows, or 1 of a budget parameter (scikit-learn's).
func smallestResource(t *config.Tune, folds, classes int) int {
	if t.OverParam() {
		return 1
	}
	return folds * 2 * classes
}

// tooFewResources is the error of min_resources above the most there
// are: the rows of the outer training part, or the budget parameter's
// largest value.
func tooFewResources(t *config.Tune, minRes, most int) error {
	if t.OverParam() {
		return fmt.Errorf("min_resources = %d is more than the largest %s, %d", minRes, t.Resource, most)
	}
	return fmt.Errorf("min_resources = %d is more than the %d rows of the outer training part", minRes, most)
}

// maxResource is what the search's last round gives each candidate: the
// fold's training rows, or the budget parameter's largest value.
func (f *fold) maxResource() int {
	if l := f.c.Learner; l.Config.Tune.OverParam() {
		return l.MaxResource
	}
	return len(f.train)
}

// pyFloorLog is floor(math.log(x, base)) as Python computes it: the
// float64 quotient of the two natural logarithms, each correctly rounded
// as the C library's log rounds them, so that log(243, 3) is
// 4.999999999999999 here as there (Go's math.Log(3) is one ulp below).
func pyFloorLog(x, base int) int {
	return int(math.Floor(roundedLog(x) / roundedLog(base)))
}

// roundedLog is ln(x) for x ≥ 1 rounded to the nearest float64: computed
// with 128-bit floats as e·ln 2 + ln m, x = m·2^e with m in [1, 2), each
// logarithm by the series ln m = 2·atanh((m−1)/(m+1)).
func roundedLog(x int) float64 {
	const prec = 128
	m := new(big.Float).SetPrec(prec).SetInt64(int64(x))
	e := m.MantExp(m) // m in [0.5, 1)
	m.SetMantExp(m, 1)
	e--
	ln2 := bigLog(new(big.Float).SetPrec(prec).SetInt64(2))
	y := new(big.Float).SetPrec(prec).Mul(ln2, new(big.Float).SetPrec(prec).SetInt64(int64(e)))
	y.Add(y, bigLog(m))
	f, _ := y.Float64()
	return f
}

// bigLog is ln(m) for m in [1, 2] at m's precision:
// 2·(z + z³/3 + z⁵/5 + …), z = (m−1)/(m+1) ≤ 1/3.
func bigLog(m *big.Float) *big.Float {
	prec := m.Prec()
	one := new(big.Float).SetPrec(prec).SetInt64(1)
	z := new(big.Float).SetPrec(prec).Sub(m, one)
	z.Quo(z, new(big.Float).SetPrec(prec).Add(m, one))
	z2 := new(big.Float).SetPrec(prec).Mul(z, z)
	sum := new(big.Float).SetPrec(prec)
	term := new(big.Float).SetPrec(prec).Set(z)
	for k := int64(1); k < 200; k += 2 {
		t := new(big.Float).SetPrec(prec).Quo(term, new(big.Float).SetPrec(prec).SetInt64(k))
		sum.Add(sum, t)
		if t.Sign() == 0 || t.MantExp(nil)-sum.MantExp(nil) < -int(prec) {
			break
		}
		term.Mul(term, z2)
	}
	return sum.Mul(sum, new(big.Float).SetPrec(prec).SetInt64(2))
}

// intPow is b**e for e ≥ 0.
func intPow(b, e int) int {
	p := 1
	for range e {
		p *= b
	}
	return p
}

// halve runs successive halving on the fold's training part: each round
// scores its candidates by the k inner folds of inner, each inner fold's
// training and test rows subsampled to the round's share of the rows
// (scikit-learn's _SubsampleMetaSplitter counts, int(fraction × len)),
// and keeps the best ceil(n / factor) for the next round. The subsample
// is a stratified prefix of a seeded order of each inner part (see
// subsampleOrder), so a round's rows hold the previous round's. The
// winner is the best of the last round; ties go to the first candidate
// in candidate order. A round on the rows of the round before (aggressive
// elimination's replays) fits nothing: its candidates keep their scores,
// as scikit-learn's refits on its same seeded subsample would give. A
// round starts only while the budget (max_evals, max_time) lasts; the
// winner is then the best of the last round run.
func (f *fold) halve(t task, m metrics.Metric, inner []int) (*tuning, error) {
	l := f.c.Learner
	tc := l.Config.Tune
	schedule, err := halvingSchedule(len(l.Candidates), f.maxResource(), f.classCount(), tc.Folds, tc)
	if err != nil {
		return nil, err
	}
	orders := f.subsampleOrders(inner, tc.Folds)
	tr := &tuning{scores: make([]float64, len(l.Candidates))}
	alive := make([]int, len(l.Candidates))
	for i := range alive {
		alive[i] = i
	}
	bud := newBudget(tc)
	for r, plan := range schedule {
		if r > 0 && !bud.open() {
			break
		}
		round := outcome.TuneRound{Resources: plan.resources, Candidates: alive}
		if r > 0 && plan.resources == schedule[r-1].resources {
			// Aggressive elimination replays a round's rows: the same
			// rows and design give the same scores, so the survivors
			// keep theirs instead of being fitted again.
			for _, ci := range alive {
				round.Scores = append(round.Scores, tr.scores[ci])
			}
		} else if round.Scores, err = f.halvingRound(t, m, r, plan.resources, alive, orders); err != nil {
			return nil, err
		} else {
			bud.spend(len(alive))
		}
		for i, ci := range alive {
			tr.scores[ci] = round.Scores[i]
		}
		tr.rounds = append(tr.rounds, round)
		if r < len(schedule)-1 {
			alive = survivors(alive, round.Scores, (len(alive)+tc.Factor-1)/tc.Factor, m.HigherIsBetter)
		}
	}
	last := tr.rounds[len(tr.rounds)-1]
	tr.best = l.Candidates[last.Candidates[best(last.Scores, m.HigherIsBetter)]]
	tr.chosen = l.tunedName(tr.best)
	return tr, nil
}

// halvingRound scores candidates alive (indices into the learner's
// candidates) on the k inner folds, each part cut to its share of
// resources of the fold's training rows, and returns their mean scores.
// When the resource is a budget parameter, every row is used and each
// candidate fits with the parameter set to resources.
func (f *fold) halvingRound(t task, m metrics.Metric, r, resources int, alive []int, orders [][2][]int) ([]float64, error) {
	l, d := f.c.Learner, f.c.Dataset
	tc := l.Config.Tune
	frac := float64(resources) / float64(len(f.train))
	if tc.OverParam() {
		frac = 1
	}
	sums := make([]float64, len(alive))
	for j, o := range orders {
		train := pick(f.train, o[0][:int(frac*float64(len(o[0])))])
		test := pick(f.train, o[1][:int(frac*float64(len(o[1])))])
		if len(train) == 0 || len(test) == 0 {
			return nil, fmt.Errorf("tune round %d: %d rows leave inner fold %d no training or test row; raise min_resources", r+1, resources, j)
		}
		seed := cv.Seed(f.g.Experiment.Seed, "encode", d.Config.Name, f.c.Pipeline.Config.Name,
			strconv.Itoa(t.repeat), strconv.Itoa(t.fold), "tune", strconv.Itoa(j), "rows", strconv.Itoa(len(train)))
		x, err := f.innerDesign(train, seed)
		if err != nil {
			return nil, fmt.Errorf("tune round %d, inner fold %d: %w", r+1, j, err)
		}
		enc := matrixStream(x)
		for i, ci := range alive {
			cand := l.Candidates[ci]
			if tc.OverParam() {
				cand = maps.Clone(cand)
				cand[tc.Resource] = param.Number(float64(resources))
			}
			v, err := f.innerScore(train, test, cand, x, enc, m)
			if err != nil {
				return nil, fmt.Errorf("tune round %d, inner fold %d, %s: %w", r+1, j, l.Candidates[ci], err)
			}
			sums[i] += v
		}
	}
	for i := range sums {
		sums[i] /= float64(len(orders))
	}
	return sums, nil
}

// survivors returns the keep best of alive by score (ties to the earlier
// candidate), in candidate order.
func survivors(alive []int, scores []float64, keep int, higherIsBetter bool) []int {
	rank := make([]int, len(alive))
	for i := range rank {
		rank[i] = i
	}
	sort.SliceStable(rank, func(a, b int) bool {
		sa, sb := scores[rank[a]], scores[rank[b]]
		if higherIsBetter {
			return sa > sb
		}
		return sa < sb
	})
	out := make([]int, 0, keep)
	for _, i := range rank[:keep] {
		out = append(out, alive[i])
	}
	sort.Ints(out)
	return out
}

// classCount is the number of classes scikit-learn's min_resources
// "smallest" multiplies by: the dataset's classes, 2 for multi-label
// data (its 0/1 label values).
func (f *fold) classCount() int {
	if f.c.Dataset.MultiLabel {
		return 2
	}
	return f.c.Dataset.K()
}

// subsampleOrders returns, for each inner fold, a seeded order of its
// training and test positions (into the fold's training rows) whose
// prefixes are stratified subsamples (see subsampleOrder); seeded from
// the cell and the outer fold.
func (f *fold) subsampleOrders(inner []int, k int) [][2][]int {
	out := make([][2][]int, k)
	for j := range k {
		fitIdx, scoreIdx := cv.Split(inner, j)
		for p, idx := range [][]int{fitIdx, scoreIdx} {
			seed := cv.Seed(f.solverSeed, "halving", strconv.Itoa(j), strconv.Itoa(p))
			out[j][p] = subsampleOrder(idx, f.labelOf, seed)
		}
	}
	return out
}

// labelOf is the class of the fold's training row at position i, 0 for
// multi-label data (one stratum).
func (f *fold) labelOf(i int) int {
	if f.c.Dataset.MultiLabel {
		return 0
	}
	return f.c.Dataset.Labels[f.train[i]]
}

// subsampleOrder orders positions so that each prefix is a stratified
// sample: shuffled by seed, then each position keyed by (its rank within
// its class + 0.5) / the class's count, sorted by key (stable), which
// interleaves the classes in proportion.
func subsampleOrder(idx []int, label func(int) int, seed uint64) []int {
	r := rand.New(rand.NewPCG(seed, 0))
	order := append([]int(nil), idx...)
	r.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
	count := map[int]int{}
	for _, i := range order {
		count[label(i)]++
	}
	seen := map[int]int{}
	key := make(map[int]float64, len(order))
	for _, i := range order {
		c := label(i)
		key[i] = (float64(seen[c]) + 0.5) / float64(count[c])
		seen[c]++
	}
	sort.SliceStable(order, func(a, b int) bool { return key[order[a]] < key[order[b]] })
	return order
}

// sampleCandidates draws the n candidates of a tune block with n_iter,
// with a PCG generator seeded by seed (from the experiment's seed and the
// learner's name, so every cell and fold of the learner searches the same
// candidates). When no parameter has a distribution, they are n distinct
// combinations of grid (the whole grid, in grid order, when n is not
// less), in draw order, as scikit-learn's ParameterSampler samples a grid
// of lists without replacement; otherwise each candidate draws each
// parameter in name order: a distribution by its Sample, a tuned list
// (tuned, see config.Expand) by choice, every other parameter as given.
func sampleCandidates(params map[string]config.Param, tuned map[string]bool, grid []param.Params, n int, seed uint64) []param.Params {
	r := rand.New(rand.NewPCG(seed, 0))
	names := slices.Sorted(maps.Keys(params))
	sampled := slices.ContainsFunc(names, func(name string) bool { return params[name].Dist != nil })
	if !sampled {
		if n >= len(grid) {
			return grid
		}
		out := make([]param.Params, n)
		for i, j := range r.Perm(len(grid))[:n] {
			out[i] = grid[j]
		}
		return out
	}
	out := make([]param.Params, n)
	for i := range out {
		c := param.Params{}
		for _, name := range names {
			p := params[name]
			switch {
			case p.Dist != nil:
				c[name] = p.Dist.Sample(r)
			case tuned[name]:
				elems := p.Value.Elems()
				c[name] = elems[r.IntN(len(elems))]
			default:
				c[name] = p.Value
			}
		}
		out[i] = c
	}
	return out
}
