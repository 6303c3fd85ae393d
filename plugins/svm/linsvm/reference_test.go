package linsvm

// The solvers as they were before the inner loops were tuned for speed,
// kept verbatim (row access through the Rows interface, gonum's Dot and
// AddScaled, one slice per dual quantity) so that the tests can check that
// Fit and FitCrammerSinger still produce bit-identical iterates.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// refCSSolver is the original Crammer–Singer workspace.
type refCSSolver struct {
	k        int
	g, b     []float64
	dsort    []float64
	alphaNew []float64
}

// refRowDot and refRowAxpy are the original row kernels.
func refRowDot(idx []int32, val, w []float64) float64 {
	if idx == nil {
		return floats.Dot(val, w[:len(val)])
	}
	var s float64
	for k, j := range idx {
		s += val[k] * w[j]
	}
	return s
}

func refRowAxpy(a float64, idx []int32, val, w []float64) {
	if idx == nil {
		floats.AddScaled(w[:len(val)], a, val)
		return
	}
	for k, j := range idx {
		w[j] += a * val[k]
	}
}

func fitReference(x Rows, y, s []float64, opt Options) (*Result, error) {
	n, d := x.Dims()
	if len(y) != n {
		return nil, fmt.Errorf("%w: %d labels for %d rows", ErrInput, len(y), n)
	}
	for i, v := range y {
		if v != 1 && v != -1 {
			return nil, fmt.Errorf("%w: label %v at row %d is not ±1", ErrInput, v, i)
		}
	}
	if err := checkWeights(s, n); err != nil {
		return nil, err
	}
	o, err := opt.withDefaults(DefaultMaxIter)
	if err != nil {
		return nil, err
	}
	bias := o.Bias
	hinge := o.Loss == LossHinge

	// w[0:d] are the feature weights, w[d] the bias-feature weight.
	w := make([]float64, d+1)
	alpha := make([]float64, n)
	qd := make([]float64, n)
	diag := make([]float64, n)
	upper := make([]float64, n)
	index := make([]int, 0, n)
	for i := range n {
		si := 1.0
		if s != nil {
			si = s[i]
		}
		if si == 0 {
			continue // α stays 0; the row does not enter the problem.
		}
		ci := o.C * si
		if hinge {
			upper[i] = ci
		} else {
			upper[i] = math.Inf(1)
			diag[i] = 0.5 / ci
		}
		_, val := x.Row(i)
		qd[i] = diag[i] + rowSqNorm(val) + bias*bias
		index = append(index, i)
	}
	l := len(index)
	rng := rand.New(rand.NewPCG(o.Seed, permSeq))

	activeSize := l
	pgMaxOld, pgMinOld := math.Inf(1), math.Inf(-1)
	iter := 0
	converged := false
	for iter < o.MaxIter {
		pgMaxNew, pgMinNew := math.Inf(-1), math.Inf(1)
		for i := range activeSize {
			j := i + rng.IntN(activeSize-i)
			index[i], index[j] = index[j], index[i]
		}
		for s := 0; s < activeSize; s++ {
			i := index[s]
			yi := y[i]
			idx, val := x.Row(i)
			g := yi*(refRowDot(idx, val, w)+w[d]*bias) - 1
			c := upper[i]
			ai := alpha[i]
			g += ai * diag[i]

			pg := 0.0
			switch {
			case ai == 0:
				if g > pgMaxOld {
					activeSize--
					index[s], index[activeSize] = index[activeSize], index[s]
					s--
					continue
				} else if g < 0 {
					pg = g
				}
			case ai == c:
				if g < pgMinOld {
					activeSize--
					index[s], index[activeSize] = index[activeSize], index[s]
					s--
					continue
				} else if g > 0 {
					pg = g
				}
			default:
				pg = g
			}
			pgMaxNew = max(pgMaxNew, pg)
			pgMinNew = min(pgMinNew, pg)

			if math.Abs(pg) > 1e-12 {
				anew := min(max(ai-g/qd[i], 0), c)
				alpha[i] = anew
				delta := (anew - ai) * yi
				refRowAxpy(delta, idx, val, w)
				w[d] += delta * bias
			}
		}
		iter++
		if pgMaxNew-pgMinNew <= o.Tol {
			if activeSize == l {
				converged = true
				break
			}
			activeSize = l
			pgMaxOld, pgMinOld = math.Inf(1), math.Inf(-1)
			continue
		}
		pgMaxOld, pgMinOld = pgMaxNew, pgMinNew
		if pgMaxOld <= 0 {
			pgMaxOld = math.Inf(1)
		}
		if pgMinOld >= 0 {
			pgMinOld = math.Inf(-1)
		}
	}

	res := &Result{
		W:          w[:d:d],
		B:          w[d] * bias,
		Alpha:      alpha,
		Iterations: iter,
		Converged:  converged,
	}
	sq := floats.Dot(w, w)
	// Dual: Σα − ½‖w̃‖² − ½Σα²Dᵢᵢ.
	dual := -0.5 * sq
	for _, i := range index {
		dual += alpha[i] - 0.5*alpha[i]*alpha[i]*diag[i]
	}
	res.DualObjective = dual
	res.Objective = primalBinary(x, y, s, o.C, hinge, res.W, res.B, sq)
	return res, nil
}

func (cs *refCSSolver) solveSubProblem(ai float64, yi int, cyi float64, active int) {
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

func fitCrammerSingerReference(x Rows, y []int, k int, s []float64, opt Options) (*CSResult, error) {
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

	cs := &refCSSolver{
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
