package kernelsvm

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
)

// Methods of TogetherOptions.Method: the "all-together" multiclass SVMs
// that Hsu & Lin (2002) compare with one-vs-one and one-vs-all.
const (
	// CrammerSinger is the multiclass SVM of Crammer & Singer (2001).
	CrammerSinger = "crammer_singer"
	// WestonWatkins is the multiclass SVM of Weston & Watkins (1999).
	WestonWatkins = "weston_watkins"
)

// TogetherOptions configure TrainTogether.
//
// Options.Kernel, C (> 0, finite; a row's bound is C times its weight),
// Eps (the stopping tolerance on the maximal KKT violation, > 0; 0 means
// DefaultEps), NoShrinking and CacheBytes (the kernel column cache, in
// bytes; 0 means DefaultCacheBytes) mean what they mean for Train;
// Probability must be false.
type TogetherOptions struct {
	Options
	// Method is CrammerSinger or WestonWatkins.
	Method string
	// Bias ≥ 0 is the value of a constant feature appended to every row:
	// every kernel value gains Bias², which gives each class an intercept
	// bₘ penalised as ½bₘ² (Hsu & Lin 2002's all-together formulations;
	// LIBLINEAR's -B). 0: no intercept.
	Bias float64
	// MaxIter bounds the sub-problems solved (0: max(10⁷, 100·n), LIBSVM's
	// bound); a fit that reaches it returns its model with Converged false.
	MaxIter int
	// Seed draws the order in which each sweep visits the rows.
	Seed uint64
}

func (o TogetherOptions) check() error {
	if err := o.Options.check(); err != nil {
		return err
	}
	switch {
	case o.Method != CrammerSinger && o.Method != WestonWatkins:
		return fmt.Errorf("multiclass method %q, want %s or %s", o.Method, CrammerSinger, WestonWatkins)
	case !(o.Bias >= 0) || math.IsInf(o.Bias, 0):
		return fmt.Errorf("%s: bias = %v, want a finite value ≥ 0", o.Method, o.Bias)
	case o.MaxIter < 0:
		return fmt.Errorf("%s: max_iter = %d, want ≥ 0", o.Method, o.MaxIter)
	case o.Probability:
		return fmt.Errorf("%s has no probabilities", o.Method)
	}
	return nil
}

// rowMethod is the part of an all-together method that concerns one
// training row: its K variables, here called a (the method's dual
// variables of the row), and the coefficients c they give the row in
// every class's weight vector wₘ = Σᵢ cᵢᵐ·φ(xᵢ). f holds the row's
// outputs fᵐ = wₘ·φ(xᵢ) for the current solution, y its class, bound its
// bound C·sᵢ and kii = K(xᵢ, xᵢ) (> 0).
type rowMethod interface {
	// coef sets the row's coefficients c from its variables a.
	coef(c, a []float64, y int)
	// violation returns the row's largest KKT violation (≥ 0; 0 at the
	// row's optimum given the other rows).
	violation(f, a []float64, y int, bound float64) float64
	// shrinkable reports whether the row's variables are at bounds and
	// satisfy their KKT conditions by more than margin.
	shrinkable(f, a []float64, y int, bound, margin float64) bool
	// solve sets next to the minimiser of the dual over the row's
	// variables, the others fixed.
	solve(next, f, a []float64, y int, bound, kii float64)
	// linear returns the linear term of the row in the dual objective
	// (maximisation form): the objective is Σᵢ linear(aᵢ) − ½Σₘ‖wₘ‖².
	linear(a []float64, y int) float64
}

// together is the decomposition solver of the all-together methods. Its
// working set is the K variables of one training row: it sweeps over the
// active rows in a random order (Keerthi et al. 2008's sequential dual
// method), solves the sub-problem of each row that violates its KKT
// conditions by more than eps exactly, and updates every active row's
// outputs with one kernel column (from the column cache of qMatrix, with
// every target +1 so that Q = K). Rows are kept in positions [0, active)
// while active; shrinking moves rows behind active as LIBSVM moves
// variables.
type together struct {
	ctx    context.Context
	name   string
	method rowMethod
	k, n   int
	active int
	q      *qMatrix
	src    biasSource
	y      []int     // class of each position
	bound  []float64 // C·sᵢ of each position
	a      []float64 // n×K variables, by position
	// f holds the outputs class by class (K×n): fᵢᵐ of position p at
	// f[m·n + p], so that a step adds to each class it moves one
	// contiguous run.
	f   []float64
	fp  []float64 // one position's outputs, gathered (outputs)
	eps float64
	// work holds K-vectors: the row's variables before and after a step,
	// its old and new coefficients.
	next, c0, c1 []float64
	// col is a float64 kernel column over all positions (refresh).
	col []float64
	// order is the order of a sweep's positions, drawn from rng.
	order []int
	rng   *rand.Rand
}

// rowOf returns the K-vector of position p in s (a).
func (t *together) rowOf(s []float64, p int) []float64 {
	return s[p*t.k : (p+1)*t.k : (p+1)*t.k]
}

// outputs returns the K outputs of position p, gathered into a buffer
// that the next call overwrites.
func (t *together) outputs(p int) []float64 {
	for m := range t.fp {
		t.fp[m] = t.f[m*t.n+p]
	}
	return t.fp
}

// class returns the outputs of class m over positions [lo, hi).
func (t *together) class(m, lo, hi int) []float64 {
	return t.f[m*t.n+lo : m*t.n+hi : m*t.n+hi]
}

// swap exchanges positions p and r everywhere.
func (t *together) swap(p, r int) {
	if p == r {
		return
	}
	t.q.swap(p, r)
	t.y[p], t.y[r] = t.y[r], t.y[p]
	t.bound[p], t.bound[r] = t.bound[r], t.bound[p]
	ap, ar := t.rowOf(t.a, p), t.rowOf(t.a, r)
	for m := range t.k {
		ap[m], ar[m] = ar[m], ap[m]
		f := t.f[m*t.n : (m+1)*t.n]
		f[p], f[r] = f[r], f[p]
	}
}

// usable reports whether position p's sub-problem is defined: a row with
// K(x, x) = 0 (a zero row under the linear kernel without bias) has no
// curvature and is left at 0, as LIBLINEAR leaves it.
func (t *together) usable(p int) bool { return t.q.qd[p] > 0 }

// violation returns position p's KKT violation (0 for a row that is
// not usable); a non-finite output ends the solve.
func (t *together) violation(p int) (float64, error) {
	f := t.outputs(p)
	var sum float64
	for _, v := range f {
		sum += v
	}
	if math.IsNaN(sum) || math.IsInf(sum, 0) {
		return 0, fmt.Errorf("%s: %w in the outputs of training row %d", t.name, ErrNonFinite, t.q.rowOf[p])
	}
	if !t.usable(p) {
		return 0, nil
	}
	return t.method.violation(f, t.rowOf(t.a, p), t.y[p], t.bound[p]), nil
}

// step solves position p's sub-problem and updates the outputs of the
// active rows with column p of the kernel matrix.
func (t *together) step(p int) error {
	a, f, y := t.rowOf(t.a, p), t.outputs(p), t.y[p]
	t.method.solve(t.next, f, a, y, t.bound[p], t.q.qd[p])
	for _, v := range t.next {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s: %w in the dual variables of training row %d", t.name, ErrNonFinite, t.q.rowOf[p])
		}
	}
	t.method.coef(t.c0, a, y)
	t.method.coef(t.c1, t.next, y)
	copy(a, t.next)
	var col []float32
	for m := range t.k {
		d := t.c1[m] - t.c0[m]
		if d == 0 {
			continue
		}
		if col == nil {
			col = t.q.get(p, t.active)[:t.active]
		}
		f := t.class(m, 0, t.active)
		for r, kv := range col {
			f[r] += d * float64(kv)
		}
	}
	return nil
}

// shrink moves the active rows that method.shrinkable admits with margin
// (the last sweep's largest violation) behind the active ones.
func (t *together) shrink(margin float64) {
	ok := func(p int) bool {
		return !t.usable(p) || t.method.shrinkable(t.outputs(p), t.rowOf(t.a, p), t.y[p], t.bound[p], margin)
	}
	for p := 0; p < t.active; p++ {
		if !ok(p) {
			continue
		}
		t.active--
		for t.active > p && ok(t.active) {
			t.active--
		}
		t.swap(p, t.active)
	}
}

// unshrink recomputes the outputs of the shrunk rows from the rows with a
// non-zero coefficient and makes every row active again.
func (t *together) unshrink() {
	if t.active == t.n {
		return
	}
	for m := range t.k {
		clear(t.class(m, t.active, t.n))
	}
	for p := range t.n {
		a := t.rowOf(t.a, p)
		t.method.coef(t.c0, a, t.y[p])
		if allZero(t.c0) {
			continue
		}
		col := t.q.get(p, t.n)[t.active:t.n]
		for m, c := range t.c0 {
			if c == 0 {
				continue
			}
			f := t.class(m, t.active, t.n)
			for r, kv := range col {
				f[r] += c * float64(kv)
			}
		}
	}
	t.active = t.n
}

// refresh recomputes every row's outputs in float64 from the kernel
// (not from the float32 cache, whose rounding the outputs accumulate
// over the steps) and makes every row active.
func (t *together) refresh() {
	t.active = t.n
	clear(t.f)
	for p := range t.n {
		t.method.coef(t.c0, t.rowOf(t.a, p), t.y[p])
		if allZero(t.c0) {
			continue
		}
		t.src.column64(t.col, t.q.rowOf[p], t.q.rowOf)
		for m, c := range t.c0 {
			if c == 0 {
				continue
			}
			f := t.class(m, 0, t.n)
			for r, kv := range t.col {
				f[r] += c * kv
			}
		}
	}
}

func allZero(s []float64) bool {
	for _, v := range s {
		if v != 0 {
			return false
		}
	}
	return true
}

// solve runs the decomposition method until the maximal violation over
// all rows is at most eps, or maxIter sub-problems; it returns the
// number of sub-problems solved and whether eps was met.
func (t *together) solve(maxIter int, shrinking bool) (int, bool, error) {
	iter := 0
	unshrunk := false
	exact := false // the outputs are refresh's, all rows active
	for {
		if err := t.ctx.Err(); err != nil {
			return iter, false, err
		}
		worst, steps, err := t.sweep(&iter, maxIter)
		if err != nil {
			return iter, false, err
		}
		if steps > 0 {
			exact = false
		}
		switch {
		case iter >= maxIter:
			t.refresh()
			return iter, false, nil
		case worst <= t.eps && exact:
			return iter, true, nil
		case worst <= t.eps:
			t.refresh()
			exact = true
		case shrinking && !unshrunk && worst <= 10*t.eps:
			t.unshrink()
			unshrunk = true
		case shrinking:
			t.shrink(worst)
		}
	}
}

// sweep visits the active rows once in a random order, solving the
// sub-problem of each whose violation exceeds eps, and returns the
// largest violation met (before the row's step) and the number of steps;
// iter counts the steps, up to maxIter.
func (t *together) sweep(iter *int, maxIter int) (worst float64, steps int, err error) {
	order := t.order[:t.active]
	for p := range order {
		order[p] = p
	}
	t.rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	for _, p := range order {
		v, err := t.violation(p)
		if err != nil {
			return 0, steps, err
		}
		worst = max(worst, v)
		if v <= t.eps {
			continue
		}
		if *iter >= maxIter {
			return worst, steps, nil
		}
		if err := t.step(p); err != nil {
			return 0, steps, err
		}
		*iter++
		steps++
		if steps%1000 == 0 {
			if err := t.ctx.Err(); err != nil {
				return 0, steps, err
			}
		}
	}
	return worst, steps, nil
}

// objective returns the dual objective (maximisation form) from the
// outputs: Σᵢ linear(aᵢ) − ½Σᵢ Σₘ cᵢᵐ·fᵢᵐ.
func (t *together) objective() float64 {
	var lin, quad float64
	for p := range t.n {
		a, f := t.rowOf(t.a, p), t.outputs(p)
		lin += t.method.linear(a, t.y[p])
		t.method.coef(t.c0, a, t.y[p])
		for m, c := range t.c0 {
			quad += c * f[m]
		}
	}
	return lin - quad/2
}

// methodOf returns the rowMethod of a method name.
func methodOf(name string, k int) rowMethod {
	if name == WestonWatkins {
		return wwMethod{bp: make([]float64, 0, 2*k)}
	}
	return csMethod{d: make([]float64, k)}
}

// TrainTogether fits the all-together multiclass SVM o.Method (see
// CrammerSinger and WestonWatkins for each dual) to the multiclass problem
// p (Classes required) on rows of x, by a decomposition method whose
// working set is one training row's K dual variables. Each sweep visits
// the active rows in a random order (drawn from o.Seed); a row whose KKT
// violation vᵢ (each method's, see csMethod and wwMethod) exceeds eps has
// the dual minimised over its variables exactly, the other rows fixed,
// and the outputs fⱼᵐ = wₘ·φ(xⱼ) of every active row are updated from
// one kernel column, taken from an LRU cache of o.CacheBytes. After each
// sweep, with V the largest vᵢ it met: rows whose variables are at bounds
// and satisfy their KKT conditions by more than V are shrunk (set aside;
// LIBSVM's heuristic); the first time V ≤ 10·eps, the outputs of the
// shrunk rows are recomputed and every row made active instead. When
// V ≤ eps, the outputs of all rows are recomputed in float64 from the
// kernel (the cache holds float32 values, whose rounding the outputs
// accumulate) and every row is made active; the solve stops when a sweep
// over all rows, on such outputs, finds max vᵢ ≤ eps (the model then
// reports Converged), or after o.MaxIter sub-problems. A kernel value or
// output that is NaN or infinite ends the fit with an error wrapping
// ErrNonFinite that names the method; so does a cancelled ctx (looked at
// every sweep and every 1000 steps), with its error.
func TrainTogether(ctx context.Context, x *Data, p Problem, o TogetherOptions) (*TogetherModel, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	if p.Classes == nil {
		return nil, fmt.Errorf("%s trains multiclass problems (Classes), not binary ones", o.Method)
	}
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", o.Method, err)
	}
	x = x.forKernels()
	n, _ := x.Dims()
	for _, r := range p.Rows {
		if r < 0 || r >= n {
			return nil, fmt.Errorf("%s: row %d outside the design's 0..%d", o.Method, r, n-1)
		}
	}
	t := newTogether(ctx, x, p, o)
	if t.n == 0 {
		return nil, fmt.Errorf("%s: no training row has a positive weight", o.Method)
	}
	for q, v := range t.q.qd {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%s: %w: K(x, x) = %v at training row %d", o.Method, ErrNonFinite, v, t.q.rowOf[q])
		}
	}
	maxIter := o.MaxIter
	if maxIter == 0 {
		maxIter = max(10_000_000, 100*t.n)
	}
	iter, converged, err := t.solve(maxIter, !o.NoShrinking)
	if err != nil {
		return nil, err
	}
	return t.model(x, o, iter, converged), nil
}

// newTogether lays out the rows of p with a positive weight in training
// order, at a = 0 (so f = 0).
func newTogether(ctx context.Context, x *Data, p Problem, o TogetherOptions) *together {
	k := p.NumClasses
	t := &together{ctx: ctx, name: o.Method, method: methodOf(o.Method, k), k: k, eps: o.eps()}
	var rows []int
	for q, r := range p.Rows {
		w := 1.0
		if p.Weights != nil {
			w = p.Weights[q]
		}
		if !(w > 0) {
			continue
		}
		rows = append(rows, r)
		t.y = append(t.y, p.Classes[q])
		t.bound = append(t.bound, o.C*w)
	}
	t.n, t.active = len(rows), len(rows)
	t.a, t.f = make([]float64, t.n*k), make([]float64, t.n*k)
	t.next, t.c0, t.c1, t.fp = make([]float64, k), make([]float64, k), make([]float64, k), make([]float64, k)
	t.src = biasSource{eval: newEvaluator(o.Kernel, x, &rowGroups{}), b2: o.Bias * o.Bias}
	ones := make([]int8, t.n)
	for i := range ones {
		ones[i] = 1
	}
	t.q = newQMatrix(t.src, rows, ones, o.cacheBytes())
	t.col = make([]float64, t.n)
	t.order = make([]int, t.n)
	t.rng = rand.New(rand.NewPCG(o.Seed, 0x5eed))
	return t
}

// biasSource is a kernel plus the square of a constant feature's value.
type biasSource struct {
	eval *evaluator
	b2   float64
}

func (s biasSource) at(i, j int) float64 { return s.eval.at(i, j) + s.b2 }

func (s biasSource) column32(dst []float32, i int, js []int) {
	s.eval.column32(dst, i, js)
	if s.b2 != 0 {
		for k, v := range dst {
			dst[k] = float32(float64(v) + s.b2)
		}
	}
}

func (s biasSource) column64(dst []float64, i int, js []int) {
	s.eval.column64(dst, i, js)
	for k := range dst {
		dst[k] += s.b2
	}
}
