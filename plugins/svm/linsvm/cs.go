package linsvm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

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

// csSolver holds the workspace of one Crammer–Singer solve. Weights are
// stored feature-major as LIBLINEAR does: w[j*K+m] is feature j of class m,
// j = d being the bias feature.
type csSolver struct {
	k        int
	g, b     []float64 // gradient and sub-problem offsets (length K)
	dsort    []float64 // sort buffer of the sub-problem (length K)
	alphaNew []float64
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

// FitCrammerSinger solves the Crammer–Singer multiclass SVM on x with
// classes y ∈ {0..k−1} and optional row weights s (nil means all 1) by the
// sequential dual method with shrinking (LIBLINEAR `-s 4`). opt.Loss is
// ignored.
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
	bias := o.Bias
	hasBias := bias > 0

	cs := &csSolver{
		k:        k,
		g:        make([]float64, k),
		b:        make([]float64, k),
		dsort:    make([]float64, k),
		alphaNew: make([]float64, k),
	}
	w := make([]float64, (d+1)*k)
	alpha := make([]float64, n*k)
	alphaIndex := make([]int, n*k)
	yIndex := make([]int, n)
	activeSizeI := make([]int, n)
	qd := make([]float64, n)
	cw := make([]float64, n)
	dInd := make([]int, k)
	dVal := make([]float64, k)
	index := make([]int, 0, n)
	for i := range n {
		for m := range k {
			alphaIndex[i*k+m] = m
		}
		_, val := x.Row(i)
		qd[i] = rowSqNorm(val) + bias*bias
		activeSizeI[i] = k
		yIndex[i] = y[i]
		cw[i] = o.C
		if s != nil {
			cw[i] *= s[i]
		}
		if cw[i] > 0 {
			index = append(index, i)
		}
	}
	l := len(index)
	rng := rand.New(rand.NewPCG(o.Seed, permSeq))

	activeSize := l
	epsShrink := max(10*o.Tol, 1)
	startFromAll := true
	iter := 0
	converged := false
	g := cs.g
	for iter < o.MaxIter {
		stopping := math.Inf(-1)
		for i := range activeSize {
			j := i + rng.IntN(activeSize-i)
			index[i], index[j] = index[j], index[i]
		}
		for s := 0; s < activeSize; s++ {
			i := index[s]
			ai := qd[i]
			if ai <= 0 {
				continue
			}
			alphaI := alpha[i*k : (i+1)*k]
			aidx := alphaIndex[i*k : (i+1)*k]
			act := activeSizeI[i]
			yi := yIndex[i]
			ci := cw[i]

			for m := range act {
				g[m] = 1
			}
			if yi < act {
				g[yi] = 0
			}
			idx, val := x.Row(i)
			if idx == nil {
				for j, v := range val {
					wj := w[j*k : (j+1)*k]
					for m, am := range aidx[:act] {
						g[m] += wj[am] * v
					}
				}
			} else {
				for p, j := range idx {
					v := val[p]
					wj := w[int(j)*k : (int(j)+1)*k]
					for m, am := range aidx[:act] {
						g[m] += wj[am] * v
					}
				}
			}
			if hasBias {
				wj := w[d*k : (d+1)*k]
				for m, am := range aidx[:act] {
					g[m] += wj[am] * bias
				}
			}

			minG, maxG := math.Inf(1), math.Inf(-1)
			for m := range act {
				if alphaI[aidx[m]] < 0 && g[m] < minG {
					minG = g[m]
				}
				if g[m] > maxG {
					maxG = g[m]
				}
			}
			if yi < act && alphaI[y[i]] < ci && g[yi] < minG {
				minG = g[yi]
			}

			// Shrinking: move variables at their bound with a gradient
			// below minG behind the active part.
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
			activeSizeI[i] = act
			yIndex[i] = yi

			if act <= 1 {
				activeSize--
				index[s], index[activeSize] = index[activeSize], index[s]
				s--
				continue
			}
			if maxG-minG <= 1e-12 {
				continue
			}
			stopping = max(maxG-minG, stopping)

			for m := range act {
				cs.b[m] = g[m] - ai*alphaI[aidx[m]]
			}
			cs.solveSubProblem(ai, yi, ci, act)
			nz := 0
			for m := range act {
				delta := cs.alphaNew[m] - alphaI[aidx[m]]
				alphaI[aidx[m]] = cs.alphaNew[m]
				if math.Abs(delta) >= 1e-12 {
					dInd[nz] = aidx[m]
					dVal[nz] = delta
					nz++
				}
			}
			if idx == nil {
				for j, v := range val {
					wj := w[j*k : (j+1)*k]
					for p, dm := range dInd[:nz] {
						wj[dm] += dVal[p] * v
					}
				}
			} else {
				for q, j := range idx {
					v := val[q]
					wj := w[int(j)*k : (int(j)+1)*k]
					for p, dm := range dInd[:nz] {
						wj[dm] += dVal[p] * v
					}
				}
			}
			if hasBias {
				wj := w[d*k : (d+1)*k]
				for p, dm := range dInd[:nz] {
					wj[dm] += dVal[p] * bias
				}
			}
		}
		iter++
		if stopping < epsShrink {
			if stopping < o.Tol && startFromAll {
				converged = true
				break
			}
			activeSize = l
			for _, i := range index {
				activeSizeI[i] = k
			}
			epsShrink = max(epsShrink/2, o.Tol)
			startFromAll = true
		} else {
			startFromAll = false
		}
	}

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
