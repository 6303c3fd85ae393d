package kernelsvm

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
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
	src := newEvaluator(opt.Kernel, x)
	pred := predictKernel{k: opt.Kernel, x: x}
	fits := make([]binaryFit, len(problems))
	plat := make([][2]float64, len(problems))
	workers = max(1, min(workers, len(problems)))
	per := opt
	per.CacheBytes = opt.cacheBytes() / int64(workers)
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
	return buildModels(x, opt, lays, fits, plat), nil
}

// oneSided reports whether every row of lay has the same label: the
// model then predicts that label (f = +1 internally), as LIBSVM does with
// one class.
func oneSided(lay *layout) bool {
	return lay.y[len(lay.y)-1] == lay.y[0]
}

// buildModels collects the support vectors of the fits into one set and
// returns the models.
func buildModels(x *Data, opt Options, lays []*layout, fits []binaryFit, plat [][2]float64) []*Model {
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
	set := &svSet{kern: opt.Kernel, rows: rows, x: x.rowsOf(rows)}
	models := make([]*Model, len(fits))
	for i, f := range fits {
		m := &Model{set: set, rho: f.sol.rho, flip: lays[i].flip, obj: f.sol.obj, iter: f.sol.iter}
		for k, c := range f.coef {
			if c != 0 {
				p, _ := slices.BinarySearch(rows, lays[i].rows[k])
				m.sv, m.coef = append(m.sv, p), append(m.coef, c)
			}
		}
		if opt.Probability {
			m.prob, m.probA, m.probB = true, plat[i][0], plat[i][1]
		}
		models[i] = m
	}
	return models
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
