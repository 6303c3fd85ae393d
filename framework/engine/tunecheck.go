package engine

import (
	"cmp"
	"maps"
	"math"
	"slices"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/cv"
)

// roundLeavesRows reports whether a halving round of res rows of an outer
// training part of n rows leaves each of k inner folds a training and a
// test row, as halvingRound cuts them (int(res/n × part) rows of each
// part). Every split's parts differ by at most one row (cv.KFold,
// cv.StratifiedKFold and scikit-learn's), so the smallest test part has
// ⌊n/k⌋ rows and the smallest training part n − ⌈n/k⌉.
func roundLeavesRows(res, n, k int) bool {
	frac := float64(res) / float64(n)
	return int(frac*float64(n/k)) >= 1 && int(frac*float64(n-(n+k-1)/k)) >= 1
}

// trainSizes returns the distinct row counts of d's outer training parts,
// each with the first fold that has it, smallest first.
func trainSizes(d *Dataset) (sizes, folds []int) {
	first := map[int]int{}
	for _, assign := range d.Folds {
		for f := 0; f < d.NumFolds; f++ {
			train, _ := cv.Split(assign, f)
			if _, ok := first[len(train)]; !ok {
				first[len(train)] = f
			}
		}
	}
	sizes = slices.Sorted(maps.Keys(first))
	for _, n := range sizes {
		folds = append(folds, first[n])
	}
	return sizes, folds
}

// emptyRound finds a round of the halving or hyperband search of cell c
// (min_resources minRes) on outer training parts of sizes rows that
// leaves an inner fold no training or test row: its index (from 1), its
// rows and the training part's; ok is false when there is none, or when
// the schedule fails (halvingRows reports that).
func (c *Cell) emptyRound(minRes int, sizes []int, classes int) (round, res, n int, ok bool) {
	t := *c.Learner.Config.Tune
	t.MinResources = minRes
	cc := &Cell{Learner: &Learner{Config: &config.Learner{Tune: &t}, Candidates: c.Learner.Candidates}, Dataset: c.Dataset}
	for _, n := range sizes {
		rounds, _, err := cc.tuneRounds(n, classes)
		if err != nil {
			continue
		}
		for i, r := range rounds {
			if !roundLeavesRows(r.resources, n, t.Folds) {
				return i + 1, r.resources, n, true
			}
		}
	}
	return 0, 0, 0, false
}

// leastMinResources is the least min_resources whose rounds leave every
// inner fold of every outer training part of sizes a training and a test
// row, 0 when none does.
func (c *Cell) leastMinResources(sizes []int, classes int) int {
	for m := 1; m <= sizes[len(sizes)-1]; m++ {
		if _, _, _, bad := c.emptyRound(m, sizes, classes); !bad {
			return m
		}
	}
	return 0
}

// halvingInnerRows checks that every round of a successive halving or
// hyperband search over rows (resource "n_samples") gives each inner fold
// of every outer training part of dataset d a training and a test row: a
// round that does not fails every fold at run time. The error, at
// min_resources, names the least value that works.
func (ck *checker) halvingInnerRows(l *Learner, d *Dataset, classes int) {
	t := l.Config.Tune
	if t.OverParam() {
		return // every round fits on every row
	}
	sizes, folds := trainSizes(d)
	if len(sizes) == 0 || sizes[0] < t.Folds {
		return // tuneFolds reports it
	}
	c := &Cell{Learner: l, Dataset: d}
	round, res, n, bad := c.emptyRound(t.MinResources, sizes, classes)
	if !bad {
		return
	}
	fold := folds[slices.Index(sizes, n)]
	least := c.leastMinResources(sizes, classes)
	ck.errorf(cmp.Or(t.MinResourcesRange, t.DeclRange), "Too few rows per round",
		"Learner %q: on dataset %q (fold %d) round %d's %d row(s) of the %d rows of the outer training part leave the smallest of the %d inner test parts (%d rows) no row: the fold would fail; set min_resources = %d or more.",
		l.Config.Name, d.Config.Name, fold, round, res, n, t.Folds, n/t.Folds, least)
}

// spaceSize is the number of distinct candidates learner l's search space
// holds (the product of its tuned lists' and choices' lengths and its
// randint ranges), +Inf when a parameter is drawn from a continuous
// distribution.
func spaceSize(l *Learner) float64 {
	n := 1.0
	for name, p := range l.Config.Params {
		switch {
		case p.Dist == nil && l.Tuned[name]:
			n *= float64(len(p.Value.Elems()))
		case p.Dist == nil:
		case p.Dist.Kind == config.Choice:
			n *= float64(len(p.Dist.Choices))
		case p.Dist.Kind == config.RandInt:
			n *= p.Dist.High - p.Dist.Low
		default:
			return math.Inf(1)
		}
	}
	return n
}

// nIter checks n_iter against the search space and the data (the
// candidates are drawn before the first fit, and each costs tune folds
// fits per outer fold): more than the distinct candidates a finite space
// holds is warned about (a space of lists is searched whole, as
// scikit-learn's ParameterSampler; one with choices or randint ranges
// draws some candidates again), and so is a random search with more
// candidates than the rows of an outer training part its inner scores
// could tell apart.
func (ck *checker) nIter(g *Grid, l *Learner) {
	t := l.Config.Tune
	if t.NIter <= 0 {
		return
	}
	at := cmp.Or(t.NIterRange, t.DeclRange)
	if size := spaceSize(l); float64(t.NIter) > size {
		what := "the search scores each of them once, as scikit-learn's ParameterSampler"
		if len(l.Candidates) == t.NIter {
			what = "some candidates are drawn more than once"
		}
		ck.warnf(at, "More candidates than the search space holds",
			"Learner %q: n_iter = %d is more than the %.0f distinct candidates of its search space: %s; lower n_iter.", l.Config.Name, t.NIter, size, what)
	}
	if t.Strategy != config.StrategyRandom {
		return
	}
	for _, d := range g.Datasets {
		n, fold := fewestTrainRows(d)
		if !g.hasCells(d, l) || n < 0 || t.NIter <= n {
			continue
		}
		folds := len(d.Folds) * d.NumFolds
		ck.warnf(at, "More candidates than rows",
			"Learner %q: n_iter = %d is more than the %d rows of the outer training part of fold %d of dataset %q, which the inner scores of so many candidates cannot tell apart; the search fits each of the %d candidates on %d inner folds of each of the %d outer folds (%d candidate fits); lower n_iter.",
			l.Config.Name, t.NIter, n, fold, d.Config.Name, t.NIter, t.Folds, folds, t.NIter*t.Folds*folds)
	}
}
