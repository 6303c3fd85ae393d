package kernelsvm

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
)

// Train fits the problems on rows of x with the options, on up to workers
// goroutines (at least one), and returns one model per problem. A
// multiclass problem is split into its one-vs-one pairs, as svm-train
// splits a training set. All the binary problems so made are solved
// together, sharing kernel values (see rowGroups and sharedCache), and
// each model is the one svm-train gives for its problem's rows alone (see
// the package documentation for the orientation and the random stream of
// the probability fits), whatever the other problems and workers.
func Train(ctx context.Context, x *Data, problems []Problem, opt Options, workers int) ([]*Model, error) {
	if err := opt.check(); err != nil {
		return nil, err
	}
	x = x.forKernels()
	n, _ := x.Dims()
	for i := range problems {
		p := &problems[i]
		if err := p.check(); err != nil {
			return nil, fmt.Errorf("problem %d: %w", i, err)
		}
		for _, r := range p.Rows {
			if r < 0 || r >= n {
				return nil, fmt.Errorf("problem %d: row %d outside the design's 0..%d", i, r, n-1)
			}
		}
	}
	// The binary problems: each binary problem, the pairs of each
	// multiclass one.
	var subs []Problem
	units := make([][]int, len(problems)) // subs of each problem
	pairs := make([][][2]int, len(problems))
	for i := range problems {
		p := &problems[i]
		if p.Classes == nil {
			units[i] = []int{len(subs)}
			subs = append(subs, *p)
			continue
		}
		ps, ab := p.pairs()
		pairs[i] = ab
		for _, q := range ps {
			units[i] = append(units[i], len(subs))
			subs = append(subs, q)
		}
	}
	lays := make([]*layout, len(subs))
	for i := range subs {
		lays[i] = newLayout(&subs[i], opt.C)
	}
	var streams [][]int
	if opt.Probability {
		streams = make([][]int, len(subs))
		for _, unit := range units {
			randStreams(lays, unit, streams)
		}
	}
	fits, plat, err := solveAll(ctx, x, subs, lays, streams, opt, workers)
	if err != nil {
		return nil, err
	}
	bins := buildBinaries(x, opt, lays, fits, plat)
	models := make([]*Model, len(problems))
	for i := range problems {
		p := &problems[i]
		if p.Classes == nil {
			models[i] = &Model{bin: bins[units[i][0]]}
			continue
		}
		m := &Model{k: p.NumClasses, ab: pairs[i]}
		m.order, m.rank = p.classOrder()
		for _, s := range units[i] {
			m.pairs = append(m.pairs, bins[s])
		}
		models[i] = m
	}
	markDegenerate(x, problems, models, &opt.Kernel)
	return models, nil
}

// markDegenerate sets the degenerate flag of each model whose problem's
// rows give k a degenerate kernel matrix (see degenerate), reading the
// matrix once for problems that share their rows (the binary problems of
// one-vs-rest, say).
func markDegenerate(x *Data, problems []Problem, models []*Model, k *Kernel) {
	type rowsKey struct {
		first *int
		n     int
	}
	seen := make(map[rowsKey]bool)
	for i, p := range problems {
		key := rowsKey{&p.Rows[0], len(p.Rows)}
		d, ok := seen[key]
		if !ok {
			d = degenerate(k, x, p.Rows)
			seen[key] = d
		}
		models[i].degenerate = d
	}
}

// solveAll solves the binary problems subs (laid out as lays) on up to
// workers goroutines, with the Platt fits when streams is not nil.
func solveAll(ctx context.Context, x *Data, subs []Problem, lays []*layout, streams [][]int, opt Options, workers int) ([]binaryFit, [][2]float64, error) {
	n, _ := x.Dims()
	groups := newRowGroups(n, subs)
	eval := newEvaluator(opt.Kernel, x, groups)
	pred := predictKernel{k: opt.Kernel, x: x}
	fits := make([]binaryFit, len(subs))
	plat := make([][2]float64, len(subs))
	workers = max(1, min(workers, len(subs)))
	// Half the cache holds the shared blocks when some are shared, the
	// rest the columns of the problems being solved.
	per := opt
	var shared *sharedCache
	if s := newSharedCache(eval, groups, opt.cacheBytes()/2); slices.Contains(s.enabled, true) {
		shared = s
		per.CacheBytes = opt.cacheBytes() / 2 / int64(workers)
	} else {
		per.CacheBytes = opt.cacheBytes() / int64(workers)
	}
	var (
		mu   sync.Mutex
		next int
		wg   sync.WaitGroup
	)
	take := func() int {
		mu.Lock()
		defer mu.Unlock()
		if ctx.Err() != nil || next == len(subs) {
			return -1
		}
		next++
		return next - 1
	}
	errs := make([]error, len(subs))
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := &solver{ctx: ctx}
			for i := take(); i >= 0; i = take() {
				lay := lays[i]
				if oneSided(lay) {
					fits[i] = binaryFit{coef: make([]float64, len(lay.rows)), sol: solution{rho: -1}}
					continue
				}
				src := newProblemSource(eval, shared, groups.used[i])
				if streams != nil {
					rng := &streamRand{vals: streams[i]}
					plat[i][0], plat[i][1] = plattCV(src, pred, lay, per, rng, s)
				}
				fits[i] = solveLayout(src, lay, per, s)
				errs[i] = fits[i].sol.err
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	for i, err := range errs {
		if err != nil {
			return nil, nil, fmt.Errorf("binary problem %d: %w", i, err)
		}
	}
	return fits, plat, nil
}

// oneSided reports whether every row of lay has the same label: the
// model then predicts that label (f = +1 internally), as LIBSVM does with
// one class.
func oneSided(lay *layout) bool {
	return lay.y[len(lay.y)-1] == lay.y[0]
}

// buildBinaries collects the support vectors of the fits into one set and
// returns the binary models.
func buildBinaries(x *Data, opt Options, lays []*layout, fits []binaryFit, plat [][2]float64) []*binary {
	var rows []int
	for i, f := range fits {
		for k, c := range f.coef {
			if c != 0 {
				rows = append(rows, lays[i].rows[k])
			}
		}
	}
	slices.Sort(rows)
	rows = slices.Compact(rows)
	set := newSVSet(opt.Kernel, x, rows)
	bins := make([]*binary, len(fits))
	for i, f := range fits {
		b := &binary{set: set, rho: f.sol.rho, flip: lays[i].flip, obj: f.sol.obj, iter: f.sol.iter}
		for k, c := range f.coef {
			if c != 0 {
				p, _ := slices.BinarySearch(rows, lays[i].rows[k])
				b.sv, b.coef = append(b.sv, p), append(b.coef, c)
			}
		}
		if opt.Probability {
			b.prob, b.probA, b.probB = true, plat[i][0], plat[i][1]
		}
		bins[i] = b
	}
	return bins
}

// randStreams sets the rand() values the probability fit of each binary
// problem of a unit draws (a binary problem, or the pairs of a multiclass
// one): svm-train fits its one-vs-one problems in the order of their
// classes' first appearance, each drawing one value per row from one
// unseeded stream. The problems are taken in that order here, by the
// first row of their internal +1 side, then of their −1 side.
func randStreams(lays []*layout, unit []int, streams [][]int) {
	order := slices.Clone(unit)
	firstNeg := func(l *layout) int {
		for k, y := range l.y {
			if y < 0 {
				return l.rows[k]
			}
		}
		return -1
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(lays[a].rows[0], lays[b].rows[0]), cmp.Compare(firstNeg(lays[a]), firstNeg(lays[b])))
	})
	g := newGlibcRand(1)
	for _, i := range order {
		if oneSided(lays[i]) {
			continue // svm-train fits no probability for one class
		}
		streams[i] = make([]int, len(lays[i].rows))
		for k := range streams[i] {
			streams[i][k] = g.next()
		}
	}
}

// streamRand hands out precomputed rand() values.
type streamRand struct {
	vals []int
	k    int
}

func (s *streamRand) next() int {
	v := s.vals[s.k]
	s.k++
	return v
}
