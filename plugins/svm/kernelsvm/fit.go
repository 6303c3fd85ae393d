package kernelsvm

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// Train fits the binary problems on rows of x with the options, on up to
// workers goroutines (at least one), and returns one model per problem.
// Each model is the one LIBSVM's svm-train gives for its problem's rows
// alone (see the package documentation for the orientation and the
// random stream of the probability fits), whatever workers.
func Train(ctx context.Context, x *Data, problems []Problem, opt Options, workers int) ([]*Model, error) {
	if err := opt.check(); err != nil {
		return nil, err
	}
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
	lays := make([]*layout, len(problems))
	for i := range problems {
		lays[i] = newLayout(&problems[i], opt.C)
	}
	var streams [][]int
	if opt.Probability {
		streams = randStreams(lays)
	}
	eval := newEvaluator(opt.Kernel, x)
	groups := newRowGroups(n, problems)
	pred := predictKernel{k: opt.Kernel, x: x}
	fits := make([]binaryFit, len(problems))
	plat := make([][2]float64, len(problems))
	workers = max(1, min(workers, len(problems)))
	// Half the cache holds the shared blocks when some are shared, the
	// rest the columns of the problems being solved.
	per := opt
	var shared *sharedCache
	if sharesAny(groups) {
		shared = newSharedCache(eval, groups, opt.cacheBytes()/2)
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
		if ctx.Err() != nil || next == len(problems) {
			return -1
		}
		next++
		return next - 1
	}
	errs := make([]error, len(problems))
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := &solver{ctx: ctx}
			for i := take(); i >= 0; i = take() {
				lay := lays[i]
				src := newProblemSource(eval, shared, groups.used[i])
				if oneSided(lay) {
					fits[i] = binaryFit{coef: make([]float64, len(lay.rows)), sol: solution{rho: -1}}
					continue
				}
				if opt.Probability {
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
		return nil, err
	}
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("problem %d: %w", i, err)
		}
	}
	return buildModels(x, opt, lays, fits, plat, groups), nil
}

// sharesAny reports whether two problems use rows of the same pair of
// groups.
func sharesAny(g *rowGroups) bool {
	for _, c := range g.cross {
		if c >= 2 {
			return true
		}
	}
	return false
}

// oneSided reports whether every row of lay has the same label: the
// model then predicts that label (f = +1 internally), as LIBSVM does with
// one class.
func oneSided(lay *layout) bool {
	return lay.y[len(lay.y)-1] == lay.y[0]
}

// buildModels collects the support vectors of the fits into one set,
// group by group, and returns the models.
func buildModels(x *Data, opt Options, lays []*layout, fits []binaryFit, plat [][2]float64, groups *rowGroups) []*Model {
	ng := len(groups.members)
	isSV := make([]bool, len(groups.of))
	for i, f := range fits {
		for k, c := range f.coef {
			if c != 0 {
				isSV[lays[i].rows[k]] = true
			}
		}
	}
	set := &svSet{kern: opt.Kernel, start: make([]int, ng+1), users: make([][]int, ng), coef: make([]*mat.Dense, ng), models: len(fits)}
	at := make([]int, len(groups.of)) // position of each support vector in set.rows
	for g, rows := range groups.members {
		set.start[g] = len(set.rows)
		for _, r := range rows {
			if isSV[r] {
				at[r] = len(set.rows)
				set.rows = append(set.rows, r)
			}
		}
	}
	set.start[ng] = len(set.rows)
	set.x = x.rowsOf(set.rows)
	if opt.Kernel.Type == RBF && !set.x.Sparse() {
		set.sq = make([]float64, len(set.rows))
		for p := range set.sq {
			_, v := set.x.row(p)
			set.sq[p] = dotRows(nil, v, nil, v)
		}
	}
	for i := range fits {
		for _, g := range groups.used[i] {
			set.users[g] = append(set.users[g], i)
		}
	}
	for g, users := range set.users {
		if len(users) > 0 && set.start[g+1] > set.start[g] {
			set.coef[g] = mat.NewDense(set.start[g+1]-set.start[g], len(users), nil)
		}
	}
	models := make([]*Model, len(fits))
	for i, f := range fits {
		m := &Model{set: set, id: i, rho: f.sol.rho, flip: lays[i].flip, obj: f.sol.obj, iter: f.sol.iter}
		for k, c := range f.coef {
			if c == 0 {
				continue
			}
			r := lays[i].rows[k]
			p := at[r]
			m.sv, m.coef = append(m.sv, p), append(m.coef, c)
			g := int(groups.of[r])
			j := indexOf(set.users[g], i)
			set.coef[g].Set(p-set.start[g], j, c)
		}
		if opt.Probability {
			m.prob, m.probA, m.probB = true, plat[i][0], plat[i][1]
		}
		models[i] = m
	}
	return models
}

// indexOf returns the position of v in the ascending slice s.
func indexOf(s []int, v int) int {
	p, _ := slices.BinarySearch(s, v)
	return p
}

// randStreams returns the rand() values each problem's probability fit
// draws: svm-train fits its one-vs-one problems in the order of their
// classes' first appearance, each drawing one value per row from one
// unseeded stream. The problems are taken in that order here, by the
// first row of their internal +1 side, then of their −1 side, so that
// the problems of a one-vs-one plan draw what svm-train's draw.
func randStreams(lays []*layout) [][]int {
	order := make([]int, len(lays))
	for i := range order {
		order[i] = i
	}
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
	out := make([][]int, len(lays))
	for _, i := range order {
		if oneSided(lays[i]) {
			continue // svm-train fits no probability for one class
		}
		out[i] = make([]int, len(lays[i].rows))
		for k := range out[i] {
			out[i][k] = g.next()
		}
	}
	return out
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
