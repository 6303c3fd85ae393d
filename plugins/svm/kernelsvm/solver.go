package kernelsvm

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// ErrNonFinite reports a solve whose kernel values or gradient hold a NaN
// or an infinity (features too large for the kernel's arithmetic, say):
// it ends with this error instead of iterating on meaningless numbers.
var ErrNonFinite = errors.New("non-finite value")

// tau replaces a non-positive curvature in the working-set selection and
// the two-variable update (LIBSVM's TAU).
const tau = 1e-12

// Alpha statuses.
const (
	lowerBound int8 = iota
	upperBound
	free
)

// qMatrix is the Q matrix of one binary problem, Q_ij = y_i·y_j·K(x_i, x_j)
// in float32 as LIBSVM's SVC_Q, in the solver's current order: swap
// exchanges two indices everywhere, as shrinking moves variables out of
// the active set.
type qMatrix struct {
	src   kernelSource
	rowOf []int // position → row of the source
	y     []int8
	qd    []float64
	cache *columnCache
	rows  []int
}

// kernelSource computes kernel values between rows of a design.
type kernelSource interface {
	// at returns K(x_i, x_j).
	at(i, j int) float64
	// column32 sets dst[k] = float32(K(x_i, x_js[k])).
	column32(dst []float32, i int, js []int)
}

func newQMatrix(src kernelSource, rowOf []int, y []int8, cacheBytes int64) *qMatrix {
	l := len(rowOf)
	q := &qMatrix{src: src, rowOf: rowOf, y: y, qd: make([]float64, l), cache: newColumnCache(l, cacheBytes)}
	for i, r := range rowOf {
		q.qd[i] = src.at(r, r)
	}
	return q
}

// get returns column i of Q over positions [0, n).
func (q *qMatrix) get(i, n int) []float32 {
	data, start := q.cache.get(i, n)
	if start < n {
		q.fill(data[start:n], i, start)
	}
	return data
}

// fill sets dst[k] = Q_{i, start+k}.
func (q *qMatrix) fill(dst []float32, i, start int) {
	n := len(dst)
	q.rows = grow(q.rows, n)
	rows := q.rows
	copy(rows, q.rowOf[start:start+n])
	q.src.column32(dst, q.rowOf[i], rows)
	yi, y := q.y[i], q.y[start:start+n]
	for k := range dst {
		if y[k] != yi {
			dst[k] = -dst[k]
		}
	}
}

func (q *qMatrix) swap(i, j int) {
	q.cache.swap(i, j)
	q.rowOf[i], q.rowOf[j] = q.rowOf[j], q.rowOf[i]
	q.y[i], q.y[j] = q.y[j], q.y[i]
	q.qd[i], q.qd[j] = q.qd[j], q.qd[i]
}

// solution is what the solver returns.
type solution struct {
	obj, rho float64
	iter     int
	// maxIter reports that the solver stopped at its iteration limit.
	maxIter bool
	// err is the context's error when the solve was stopped, or an
	// ErrNonFinite when the kernel values or the gradient overflowed.
	err error
}

// solver is LIBSVM's Solver (Fan, Chen & Lin 2005): SMO with second-order
// working-set selection and shrinking for
//
//	min ½ αᵀQα + pᵀα  s.t.  yᵀα = Δ,  0 ≤ α_i ≤ C_i,
//
// with the upper bound C_i per variable (LIBSVM has one per class).
type solver struct {
	activeSize int
	y          []int8
	g          []float64 // gradient
	status     []int8
	alpha      []float64
	q          *qMatrix
	qd         []float64
	eps        float64
	c          []float64
	p          []float64
	activeSet  []int
	gBar       []float64 // gradient when free variables are 0
	l          int
	unshrink   bool
	// ctx stops a long solve: it is looked at every min(l, 1000)
	// iterations, where shrinking happens.
	ctx context.Context
}

func (s *solver) updateStatus(i int) {
	switch {
	case s.alpha[i] >= s.c[i]:
		s.status[i] = upperBound
	case s.alpha[i] <= 0:
		s.status[i] = lowerBound
	default:
		s.status[i] = free
	}
}

func (s *solver) swapIndex(i, j int) {
	s.q.swap(i, j)
	s.y[i], s.y[j] = s.y[j], s.y[i]
	s.g[i], s.g[j] = s.g[j], s.g[i]
	s.status[i], s.status[j] = s.status[j], s.status[i]
	s.alpha[i], s.alpha[j] = s.alpha[j], s.alpha[i]
	s.p[i], s.p[j] = s.p[j], s.p[i]
	s.activeSet[i], s.activeSet[j] = s.activeSet[j], s.activeSet[i]
	s.gBar[i], s.gBar[j] = s.gBar[j], s.gBar[i]
	s.c[i], s.c[j] = s.c[j], s.c[i]
}

// reconstructGradient recomputes the gradient of the inactive variables
// from gBar and the free variables.
func (s *solver) reconstructGradient() {
	if s.activeSize == s.l {
		return
	}
	l, as := s.l, s.activeSize
	for j := as; j < l; j++ {
		s.g[j] = s.gBar[j] + s.p[j]
	}
	nrFree := 0
	for j := 0; j < as; j++ {
		if s.status[j] == free {
			nrFree++
		}
	}
	if nrFree*l > 2*as*(l-as) {
		for i := as; i < l; i++ {
			qi := s.q.get(i, as)
			for j := 0; j < as; j++ {
				if s.status[j] == free {
					s.g[i] += s.alpha[j] * float64(qi[j])
				}
			}
		}
		return
	}
	for i := 0; i < as; i++ {
		if s.status[i] == free {
			qi := s.q.get(i, l)
			ai := s.alpha[i]
			for j := as; j < l; j++ {
				s.g[j] += ai * float64(qi[j])
			}
		}
	}
}

// solve runs the solver from the feasible point alpha (length l), which it
// overwrites with the solution in the original order. y, c and p are
// copied in solver order; q must be in the original order.
func (s *solver) solve(q *qMatrix, p []float64, y []int8, alpha, c []float64, eps float64, shrinking bool) solution {
	l := len(y)
	s.l, s.q, s.qd, s.eps = l, q, q.qd, eps
	s.p = append(s.p[:0], p...)
	s.y = append(s.y[:0], y...)
	s.c = append(s.c[:0], c...)
	s.alpha = append(s.alpha[:0], alpha...)
	s.unshrink = false
	s.status = resize(s.status, l)
	for i := range l {
		s.updateStatus(i)
	}
	s.activeSet = resize(s.activeSet, l)
	for i := range l {
		s.activeSet[i] = i
	}
	s.activeSize = l
	s.g, s.gBar = resize(s.g, l), resize(s.gBar, l)
	for i := range l {
		s.g[i], s.gBar[i] = s.p[i], 0
	}
	for i := range l {
		if s.status[i] != lowerBound {
			qi := q.get(i, l)
			ai := s.alpha[i]
			for j := range l {
				s.g[j] += ai * float64(qi[j])
			}
			if s.status[i] == upperBound {
				for j := range l {
					s.gBar[j] += s.c[i] * float64(qi[j])
				}
			}
		}
	}

	if i, ok := firstNonFinite(s.qd); !ok {
		return solution{err: fmt.Errorf("%w: the kernel value K(x, x) of the problem's row %d is %v", ErrNonFinite, q.rowOf[i], s.qd[i])}
	}
	iter := 0
	maxIter := max(10000000, 100*l)
	if l > math.MaxInt32/100 {
		maxIter = math.MaxInt32
	}
	counter := min(l, 1000) + 1
	for iter < maxIter {
		if counter--; counter == 0 {
			counter = min(l, 1000)
			if j, ok := firstNonFinite(s.g[:s.activeSize]); !ok {
				return solution{err: fmt.Errorf("%w: after %d iterations, the gradient of the problem's row %d is %v", ErrNonFinite, iter, s.q.rowOf[j], s.g[j])}
			}
			if s.ctx != nil && s.ctx.Err() != nil {
				return solution{err: s.ctx.Err()}
			}
			if shrinking {
				s.doShrinking()
			}
		}
		i, j, done := s.selectWorkingSet()
		if done {
			s.reconstructGradient()
			s.activeSize = l
			if i, j, done = s.selectWorkingSet(); done {
				break
			}
			counter = 1 // shrink at the next iteration
		}
		iter++
		s.step(i, j)
	}
	if j, ok := firstNonFinite(s.g[:s.activeSize]); !ok {
		return solution{err: fmt.Errorf("%w: after %d iterations, the gradient of the problem's row %d is %v", ErrNonFinite, iter, s.q.rowOf[j], s.g[j])}
	}
	sol := solution{iter: iter}
	if iter >= maxIter {
		if s.activeSize < l {
			s.reconstructGradient()
			s.activeSize = l
		}
		sol.maxIter = true
	}
	sol.rho = s.calculateRho()
	var v float64
	for i := range l {
		v += s.alpha[i] * (s.g[i] + s.p[i])
	}
	sol.obj = v / 2
	for i := range l {
		alpha[s.activeSet[i]] = s.alpha[i]
	}
	return sol
}

// step updates alpha_i and alpha_j, the gradient and gBar.
func (s *solver) step(i, j int) {
	as := s.activeSize
	qi := s.q.get(i, as)
	qj := s.q.get(j, as)
	ci, cj := s.c[i], s.c[j]
	oldI, oldJ := s.alpha[i], s.alpha[j]
	a := s.alpha
	if s.y[i] != s.y[j] {
		quad := s.qd[i] + s.qd[j] + 2*float64(qi[j])
		if quad <= 0 {
			quad = tau
		}
		delta := (-s.g[i] - s.g[j]) / quad
		diff := a[i] - a[j]
		a[i] += delta
		a[j] += delta
		if diff > 0 {
			if a[j] < 0 {
				a[j], a[i] = 0, diff
			}
		} else if a[i] < 0 {
			a[i], a[j] = 0, -diff
		}
		if diff > ci-cj {
			if a[i] > ci {
				a[i], a[j] = ci, ci-diff
			}
		} else if a[j] > cj {
			a[j], a[i] = cj, cj+diff
		}
	} else {
		quad := s.qd[i] + s.qd[j] - 2*float64(qi[j])
		if quad <= 0 {
			quad = tau
		}
		delta := (s.g[i] - s.g[j]) / quad
		sum := a[i] + a[j]
		a[i] -= delta
		a[j] += delta
		if sum > ci {
			if a[i] > ci {
				a[i], a[j] = ci, sum-ci
			}
		} else if a[j] < 0 {
			a[j], a[i] = 0, sum
		}
		if sum > cj {
			if a[j] > cj {
				a[j], a[i] = cj, sum-cj
			}
		} else if a[i] < 0 {
			a[i], a[j] = 0, sum
		}
	}

	dai, daj := a[i]-oldI, a[j]-oldJ
	updateGradient(s.g[:as], qi[:as], qj[:as], dai, daj)

	ui, uj := s.status[i] == upperBound, s.status[j] == upperBound
	s.updateStatus(i)
	s.updateStatus(j)
	l := s.l
	if ui != (s.status[i] == upperBound) {
		qi = s.q.get(i, l)
		addScaled(s.gBar[:l], qi[:l], ci, ui)
	}
	if uj != (s.status[j] == upperBound) {
		qj = s.q.get(j, l)
		addScaled(s.gBar[:l], qj[:l], cj, uj)
	}
}

// updateGradient adds qi·dai + qj·daj to g.
func updateGradient(g []float64, qi, qj []float32, dai, daj float64) {
	qi, qj = qi[:len(g)], qj[:len(g)]
	for k := range g {
		g[k] += float64(qi[k])*dai + float64(qj[k])*daj
	}
}

// addScaled adds c·q to g, or subtracts it when sub.
func addScaled(g []float64, q []float32, c float64, sub bool) {
	q = q[:len(g)]
	if sub {
		for k := range g {
			g[k] -= c * float64(q[k])
		}
		return
	}
	for k := range g {
		g[k] += c * float64(q[k])
	}
}

// selectWorkingSet returns the pair (i, j) of Fan, Chen & Lin's
// second-order rule: i maximises −y_i∇f_i over I_up, j minimises the
// decrease of the objective over I_low; done when the maximal violation
// is below eps.
func (s *solver) selectWorkingSet() (outI, outJ int, done bool) {
	gmax, gmax2 := math.Inf(-1), math.Inf(-1)
	gmaxIdx, gminIdx := -1, -1
	objDiffMin := math.Inf(1)
	as := s.activeSize
	y, g, st := s.y[:as], s.g[:as], s.status[:as]
	for t := range as {
		if y[t] == 1 {
			if st[t] != upperBound && -g[t] >= gmax {
				gmax, gmaxIdx = -g[t], t
			}
		} else if st[t] != lowerBound && g[t] >= gmax {
			gmax, gmaxIdx = g[t], t
		}
	}
	i := gmaxIdx
	var qi []float32
	var qdi, yi float64
	if i != -1 {
		qi = s.q.get(i, as)[:as]
		qdi, yi = s.qd[i], float64(s.y[i])
	}
	qd := s.qd[:as]
	for j := range as {
		if y[j] == 1 {
			if st[j] == lowerBound {
				continue
			}
			gradDiff := gmax + g[j]
			if g[j] >= gmax2 {
				gmax2 = g[j]
			}
			if gradDiff > 0 {
				quad := qdi + qd[j] - 2.0*yi*float64(qi[j])
				var objDiff float64
				if quad > 0 {
					objDiff = -(gradDiff * gradDiff) / quad
				} else {
					objDiff = -(gradDiff * gradDiff) / tau
				}
				if objDiff <= objDiffMin {
					gminIdx, objDiffMin = j, objDiff
				}
			}
		} else {
			if st[j] == upperBound {
				continue
			}
			gradDiff := gmax - g[j]
			if -g[j] >= gmax2 {
				gmax2 = -g[j]
			}
			if gradDiff > 0 {
				quad := qdi + qd[j] + 2.0*yi*float64(qi[j])
				var objDiff float64
				if quad > 0 {
					objDiff = -(gradDiff * gradDiff) / quad
				} else {
					objDiff = -(gradDiff * gradDiff) / tau
				}
				if objDiff <= objDiffMin {
					gminIdx, objDiffMin = j, objDiff
				}
			}
		}
	}
	if gmax+gmax2 < s.eps || gminIdx == -1 {
		return 0, 0, true
	}
	return gmaxIdx, gminIdx, false
}

func (s *solver) beShrunk(i int, gmax1, gmax2 float64) bool {
	switch s.status[i] {
	case upperBound:
		if s.y[i] == 1 {
			return -s.g[i] > gmax1
		}
		return -s.g[i] > gmax2
	case lowerBound:
		if s.y[i] == 1 {
			return s.g[i] > gmax2
		}
		return s.g[i] > gmax1
	}
	return false
}

func (s *solver) doShrinking() {
	gmax1, gmax2 := math.Inf(-1), math.Inf(-1)
	for i := range s.activeSize {
		if s.y[i] == 1 {
			if s.status[i] != upperBound && -s.g[i] >= gmax1 {
				gmax1 = -s.g[i]
			}
			if s.status[i] != lowerBound && s.g[i] >= gmax2 {
				gmax2 = s.g[i]
			}
		} else {
			if s.status[i] != upperBound && -s.g[i] >= gmax2 {
				gmax2 = -s.g[i]
			}
			if s.status[i] != lowerBound && s.g[i] >= gmax1 {
				gmax1 = s.g[i]
			}
		}
	}
	if !s.unshrink && gmax1+gmax2 <= s.eps*10 {
		s.unshrink = true
		s.reconstructGradient()
		s.activeSize = s.l
	}
	for i := 0; i < s.activeSize; i++ {
		if !s.beShrunk(i, gmax1, gmax2) {
			continue
		}
		s.activeSize--
		for s.activeSize > i {
			if !s.beShrunk(s.activeSize, gmax1, gmax2) {
				s.swapIndex(i, s.activeSize)
				break
			}
			s.activeSize--
		}
	}
}

func (s *solver) calculateRho() float64 {
	nrFree := 0
	ub, lb, sumFree := math.Inf(1), math.Inf(-1), 0.0
	for i := range s.activeSize {
		yg := float64(s.y[i]) * s.g[i]
		switch s.status[i] {
		case upperBound:
			if s.y[i] == -1 {
				ub = min(ub, yg)
			} else {
				lb = max(lb, yg)
			}
		case lowerBound:
			if s.y[i] == 1 {
				ub = min(ub, yg)
			} else {
				lb = max(lb, yg)
			}
		default:
			nrFree++
			sumFree += yg
		}
	}
	if nrFree > 0 {
		return sumFree / float64(nrFree)
	}
	return (ub + lb) / 2
}

// resize returns s with length n, reusing its memory when it can.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// firstNonFinite returns the index of v's first NaN or infinite entry
// and false, or 0 and true when every entry is finite.
func firstNonFinite(v []float64) (int, bool) {
	for j, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return j, false
		}
	}
	return 0, true
}
