package linsvm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"unsafe"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// CSResult is a fitted Crammer–Singer multiclass SVM and solver
// diagnostics.
type CSResult struct {
	// W is K×d: row k holds the feature weights of class k.
	W *mat.Dense
	// B holds the K intercepts (bias-feature weight times Options.Bias).
	B []float64
	// Alpha is n×K: the dual variables α_i^k, with α_i^{yᵢ} ≤ C·sᵢ,
	// α_i^k ≤ 0 for k ≠ yᵢ and Σₖ α_i^k = 0 (wₖ = Σᵢ α_i^k x̃ᵢ).
	Alpha *mat.Dense
	// Objective is the primal objective at the returned weights.
	Objective float64
	// DualObjective is the dual objective (maximisation form)
	// Σᵢ α_i^{yᵢ} − ½Σₖ‖w̃ₖ‖², so Objective − DualObjective ≥ 0.
	DualObjective float64
	// Iterations is the number of outer iterations run.
	Iterations int
	// Converged reports whether the Tol stopping rule was met.
	Converged bool
}

// Decision sets dst[k] = wₖ·x_i + bₖ for row i of x and returns dst; dst
// is allocated when nil.
func (r *CSResult) Decision(dst []float64, x Rows, i int) []float64 {
	k, _ := r.W.Dims()
	if dst == nil {
		dst = make([]float64, k)
	}
	idx, val := x.Row(i)
	for c := range k {
		dst[c] = rowDot(idx, val, r.W.RawRowView(c)) + r.B[c]
	}
	return dst
}

// Predict returns the class with the largest decision value for row i (the
// lowest index on ties). work, if not nil, must have length K and is used
// as scratch space so that the call does not allocate.
func (r *CSResult) Predict(x Rows, i int, work []float64) int {
	return floats.MaxIdx(r.Decision(work, x, i))
}

// csSolver holds the state of one Crammer–Singer solve. Weights are stored
// feature-major as LIBLINEAR does: w[j*K+m] is feature j of class m, j = d
// being the bias feature. The dual variables of row i are
// alpha[i*K : (i+1)*K], indexed by class; alphaIndex[i*K : (i+1)*K] lists
// the classes, the first rows[i].act of them active.
type csSolver struct {
	k, d       int
	bias       float64
	x          view
	w          []float64
	alpha      []float64
	alphaIndex []int32
	rows       []csRow
	g, b       []float64 // gradient and sub-problem offsets (length K)
	dsort      []float64 // sort buffer of the sub-problem (length K)
	alphaNew   []float64
	dInd       []int32 // classes whose α moved in the last update
	dVal       []float64
	ahead      [8]unsafe.Pointer // the addresses prefetch asks for
}

// csRow is the per-row state of the Crammer–Singer solver, packed so that
// a visit touches one small block: Q̄ᵢᵢ = ‖x̃ᵢ‖², the bound C·sᵢ, the position
// of the row's class among its active classes and their number.
type csRow struct {
	qd, cw float64
	yi     int32
	act    int32
}

// newCSSolver returns the solver state at α = 0 and the indices of the
// rows of positive weight, in order.
func newCSSolver(x Rows, y []int, k int, s []float64, o Options) (*csSolver, []int) {
	n, d := x.Dims()
	cs := &csSolver{
		k: k, d: d, bias: o.Bias, x: newView(x),
		w:          make([]float64, (d+1)*k),
		alpha:      make([]float64, n*k),
		alphaIndex: make([]int32, n*k),
		rows:       make([]csRow, n),
		g:          make([]float64, k),
		b:          make([]float64, k),
		dsort:      make([]float64, k),
		alphaNew:   make([]float64, k),
		dInd:       make([]int32, k),
		dVal:       make([]float64, k),
	}
	index := make([]int, 0, n)
	for i := range n {
		for m := range k {
			cs.alphaIndex[i*k+m] = int32(m)
		}
		_, val := x.Row(i)
		r := &cs.rows[i]
		r.qd = rowSqNorm(val) + o.Bias*o.Bias
		r.act = int32(k)
		r.yi = int32(y[i])
		r.cw = o.C
		if s != nil {
			r.cw *= s[i]
		}
		if r.cw > 0 {
			index = append(index, i)
		}
	}
	return cs, index
}

// solveSubProblem solves the K-variable sub-problem of row i (LIBLINEAR's
// Solver_MCSVM_CS::solve_sub_problem) over the first active entries of b,
// writing the new dual values to alphaNew.
func (cs *csSolver) solveSubProblem(ai float64, yi int, cyi float64, active int) {
	d := cs.dsort[:active]
	copy(d, cs.b[:active])
	if yi < active {
		d[yi] += ai * cyi
	}
	slices.Sort(d)
	slices.Reverse(d)
	beta := d[0] - ai*cyi
	r := 1
	for ; r < active && beta < float64(r)*d[r]; r++ {
		beta += d[r]
	}
	beta /= float64(r)
	for r := range active {
		if r == yi {
			cs.alphaNew[r] = min(cyi, (beta-cs.b[r])/ai)
		} else {
			cs.alphaNew[r] = min(0, (beta-cs.b[r])/ai)
		}
	}
}

// gradient sets g[m] = 1 − [m is the row's class] + w̃_{aidx[m]}·x̃ᵢ for the
// act active classes of row i, each sum taken over the features in order
// and then the bias feature.
func (cs *csSolver) gradient(i int, aidx []int32, act, yi int) {
	g, k, w := cs.g[:act], cs.k, cs.w
	aidx = aidx[:act]
	for m := range g {
		g[m] = 1
	}
	if yi < act {
		g[yi] = 0
	}
	v := &cs.x
	if v.kind == viewDense {
		cs.gradientDense(i, aidx)
		return
	}
	idx, val := v.row(i)
	if idx == nil {
		for j, xv := range val {
			wj := w[j*k : (j+1)*k : (j+1)*k]
			for m, am := range aidx {
				g[m] += wj[am] * xv
			}
		}
	} else {
		for p, j := range idx {
			xv := val[p]
			wj := w[int(j)*k : (int(j)+1)*k : (int(j)+1)*k]
			for m, am := range aidx {
				g[m] += wj[am] * xv
			}
		}
	}
	if bias := cs.bias; bias > 0 {
		wj := w[cs.d*k : (cs.d+1)*k : (cs.d+1)*k]
		for m, am := range aidx {
			g[m] += wj[am] * bias
		}
	}
}

// gradientDense is gradient for a dense row, class by class with the sum
// in a register: the same additions in the same order as the
// feature-by-feature loops of gradient.
func (cs *csSolver) gradientDense(i int, aidx []int32) {
	k, w, g, v := cs.k, cs.w, cs.g, &cs.x
	off := i * v.stride
	x := v.data[off : off+v.cols : off+v.cols]
	bias, wb := cs.bias, cs.w[cs.d*k:(cs.d+1)*k:(cs.d+1)*k]
	for m, am := range aidx {
		t := g[m]
		for j, xv := range x {
			t += w[j*k+int(am)] * xv
		}
		if bias > 0 {
			t += wb[am] * bias
		}
		g[m] = t
	}
}

// update adds the nz recorded changes of row i's dual variables to the
// weights: w̃_m += Δα_m·x̃ᵢ.
func (cs *csSolver) update(i, nz int) {
	k, w := cs.k, cs.w
	dInd, dVal := cs.dInd[:nz], cs.dVal[:nz]
	idx, val := cs.x.row(i)
	if idx == nil {
		for j, xv := range val {
			wj := w[j*k : (j+1)*k : (j+1)*k]
			for p, dm := range dInd {
				wj[dm] += dVal[p] * xv
			}
		}
	} else {
		for q, j := range idx {
			xv := val[q]
			wj := w[int(j)*k : (int(j)+1)*k : (int(j)+1)*k]
			for p, dm := range dInd {
				wj[dm] += dVal[p] * xv
			}
		}
	}
	if bias := cs.bias; bias > 0 {
		wj := w[cs.d*k : (cs.d+1)*k : (cs.d+1)*k]
		for p, dm := range dInd {
			wj[dm] += dVal[p] * bias
		}
	}
}

// visit runs one step of the sequential dual method on row i, whose class
// is cls. It returns whether the row is now fully shrunk (at most one
// active class) and the gradient spread maxG − minG that enters the
// stopping rule (−∞ when the row does not count).
func (cs *csSolver) visit(i, cls int) (shrunkRow bool, spread float64) {
	k := cs.k
	r := &cs.rows[i]
	ai := r.qd
	if ai <= 0 {
		return false, math.Inf(-1)
	}
	alphaI := cs.alpha[i*k : (i+1)*k : (i+1)*k]
	aidx := cs.alphaIndex[i*k : (i+1)*k : (i+1)*k]
	act := int(r.act)
	yi := int(r.yi)
	ci := r.cw
	g := cs.g

	cs.gradient(i, aidx, act, yi)

	minG, maxG := math.Inf(1), math.Inf(-1)
	for m, am := range aidx[:act] {
		if alphaI[am] < 0 && g[m] < minG {
			minG = g[m]
		}
		if g[m] > maxG {
			maxG = g[m]
		}
	}
	if yi < act && alphaI[cls] < ci && g[yi] < minG {
		minG = g[yi]
	}

	// Shrinking: move variables at their bound with a gradient below minG
	// behind the active part.
	shrunk := func(m int) bool {
		bound := 0.0
		if m == yi {
			bound = ci
		}
		return alphaI[aidx[m]] == bound && g[m] < minG
	}
	for m := 0; m < act; m++ {
		if shrunk(m) {
			act--
			for act > m {
				if !shrunk(act) {
					aidx[m], aidx[act] = aidx[act], aidx[m]
					g[m], g[act] = g[act], g[m]
					if yi == act {
						yi = m
					} else if yi == m {
						yi = act
					}
					break
				}
				act--
			}
		}
	}
	r.act = int32(act)
	r.yi = int32(yi)

	if act <= 1 {
		return true, math.Inf(-1)
	}
	if maxG-minG <= 1e-12 {
		return false, math.Inf(-1)
	}

	for m, am := range aidx[:act] {
		cs.b[m] = g[m] - ai*alphaI[am]
	}
	cs.solveSubProblem(ai, yi, ci, act)
	nz := 0
	for m, am := range aidx[:act] {
		delta := cs.alphaNew[m] - alphaI[am]
		alphaI[am] = cs.alphaNew[m]
		if math.Abs(delta) >= 1e-12 {
			cs.dInd[nz] = am
			cs.dVal[nz] = delta
			nz++
		}
	}
	cs.update(i, nz)
	return false, maxG - minG
}

// FitCrammerSinger solves the Crammer–Singer multiclass SVM on x with
// classes y ∈ {0..k−1} and optional row weights s (nil means all 1) by the
// sequential dual method with shrinking (LIBLINEAR `-s 4`). opt.Loss is
// ignored. A row whose squared norm overflows, or weights that do, end it
// with an error wrapping ErrNonFinite.
func FitCrammerSinger(x Rows, y []int, k int, s []float64, opt Options) (*CSResult, error) {
	n, d := x.Dims()
	if k < 2 {
		return nil, fmt.Errorf("%w: %d classes, want ≥ 2", ErrInput, k)
	}
	if len(y) != n {
		return nil, fmt.Errorf("%w: %d labels for %d rows", ErrInput, len(y), n)
	}
	for i, v := range y {
		if v < 0 || v >= k {
			return nil, fmt.Errorf("%w: class %d at row %d outside 0..%d", ErrInput, v, i, k-1)
		}
	}
	if err := checkWeights(s, n); err != nil {
		return nil, err
	}
	o, err := opt.withDefaults(DefaultMaxIterCS)
	if err != nil {
		return nil, err
	}
	cs, index := newCSSolver(x, y, k, s, o)
	for _, i := range index {
		if err := checkRowNorm(i, cs.rows[i].qd); err != nil {
			return nil, err
		}
	}
	iter, converged := cs.solve(index, y, o)
	if err := checkWeightsFinite(cs.w, iter); err != nil {
		return nil, err
	}

	bias := o.Bias
	w, alpha := cs.w, cs.alpha
	res := &CSResult{
		W:          mat.NewDense(k, d, nil),
		B:          make([]float64, k),
		Alpha:      mat.NewDense(n, k, alpha),
		Iterations: iter,
		Converged:  converged,
	}
	for j := range d {
		for m := range k {
			res.W.Set(m, j, w[j*k+m])
		}
	}
	for m := range k {
		res.B[m] = w[d*k+m] * bias
	}
	sq := floats.Dot(w, w)
	dual := -0.5 * sq
	for i := range n {
		dual += alpha[i*k+y[i]]
	}
	res.DualObjective = dual
	res.Objective = 0.5*sq + o.C*csLoss(res, x, y, s)
	return res, nil
}

// prefetch asks for the cache lines of row i's dual variables (a line in
// eight), class indices, state and features, rows visited a few steps
// later (the rows come in random order, and α alone is n·K values). The
// slots the solver's shape leaves out (k ≤ 16, a design not dense) are
// never set, so they stay nil.
func (cs *csSolver) prefetch(i int) {
	k := cs.k
	a := cs.alpha[i*k : (i+1)*k : (i+1)*k]
	cs.ahead[0], cs.ahead[1] = unsafe.Pointer(&a[0]), unsafe.Pointer(&a[k-1])
	if k > 16 {
		cs.ahead[2], cs.ahead[3] = unsafe.Pointer(&a[8]), unsafe.Pointer(&a[16])
	}
	cs.ahead[4] = unsafe.Pointer(&cs.alphaIndex[i*k])
	cs.ahead[5] = unsafe.Pointer(&cs.alphaIndex[i*k+k-1])
	cs.ahead[6] = unsafe.Pointer(&cs.rows[i])
	if cs.x.kind == viewDense && cs.x.cols > 0 {
		cs.ahead[7] = unsafe.Pointer(&cs.x.data[i*cs.x.stride])
	}
	prefetch(&cs.ahead)
}

// solve runs the outer iterations of LIBLINEAR's Solver_MCSVM_CS::Solve
// over the rows listed in index and returns the number of iterations and
// whether the Tol rule was met.
func (cs *csSolver) solve(index []int, y []int, o Options) (int, bool) {
	k := cs.k
	l := len(index)
	src := rand.NewPCG(o.Seed, permSeq)
	activeSize := l
	epsShrink := max(10*o.Tol, 1)
	startFromAll := true
	iter := 0
	for iter < o.MaxIter {
		stopping := math.Inf(-1)
		for i := range activeSize {
			j := i + permIntN(src, activeSize-i)
			index[i], index[j] = index[j], index[i]
		}
		for s := 0; s < activeSize; s++ {
			i := index[s]
			if s+prefetchAhead < activeSize {
				cs.prefetch(index[s+prefetchAhead])
			}
			shrunkRow, spread := cs.visit(i, y[i])
			if shrunkRow {
				activeSize--
				index[s], index[activeSize] = index[activeSize], index[s]
				s--
				continue
			}
			stopping = max(spread, stopping)
		}
		iter++
		if stopping < epsShrink {
			if stopping < o.Tol && startFromAll {
				return iter, true
			}
			activeSize = l
			for _, i := range index {
				cs.rows[i].act = int32(k)
			}
			epsShrink = max(epsShrink/2, o.Tol)
			startFromAll = true
		} else {
			startFromAll = false
		}
	}
	return iter, false
}

// csLoss returns Σᵢ sᵢ·ξᵢ with ξᵢ = maxₖ(fₖ(xᵢ) + 1 − [yᵢ=k]) − f_{yᵢ}(xᵢ).
func csLoss(r *CSResult, x Rows, y []int, s []float64) float64 {
	k, _ := r.W.Dims()
	f := make([]float64, k)
	var loss float64
	for i, yi := range y {
		r.Decision(f, x, i)
		fy := f[yi]
		xi := 0.0
		for m, v := range f {
			if m != yi {
				xi = max(xi, v+1-fy)
			}
		}
		if s != nil {
			xi *= s[i]
		}
		loss += xi
	}
	return loss
}
