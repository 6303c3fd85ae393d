package linsvm

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"unsafe"

	"gonum.org/v1/gonum/floats"
)

// Loss names accepted by Options.Loss.
const (
	// LossHinge is the L1 loss max(0, 1−m) (LIBLINEAR `-s 3`). Default.
	LossHinge = "hinge"
	// LossSquaredHinge is the L2 loss max(0, 1−m)² (LIBLINEAR `-s 1`).
	LossSquaredHinge = "squared_hinge"
)

// Default values used when the corresponding Options field is zero.
const (
	// DefaultTol is LIBLINEAR's default eps for `-s 1`, `-s 3` and `-s 4`.
	DefaultTol = 0.1
	// DefaultMaxIter is the outer-iteration cap of Fit (LIBLINEAR's 1000).
	DefaultMaxIter = 1000
	// DefaultMaxIterCS is the outer-iteration cap of FitCrammerSinger
	// (LIBLINEAR's 100000).
	DefaultMaxIterCS = 100000
)

// permSeq is the PCG stream used for the per-iteration permutations.
const permSeq = 0x6c696e73766d // "linsvm"

// ErrInput reports invalid arguments.
var ErrInput = errors.New("linsvm: invalid input")

// ErrNonFinite reports a fit whose rows or weights hold a NaN or an
// infinity (a row whose squared norm overflows, say): it ends with this
// error instead of iterating on meaningless numbers.
var ErrNonFinite = errors.New("linsvm: non-finite value")

// checkRowNorm returns an error wrapping ErrNonFinite when qd, the squared
// norm of row i with its bias feature, is not finite, else nil.
func checkRowNorm(i int, qd float64) error {
	if math.IsNaN(qd) || math.IsInf(qd, 0) {
		return fmt.Errorf("%w: row %d: its squared norm (with the bias feature) is %v", ErrNonFinite, i, qd)
	}
	return nil
}

// checkWeightsFinite returns an error wrapping ErrNonFinite naming the
// first non-finite entry of the fitted weights w, else nil.
func checkWeightsFinite(w []float64, iter int) error {
	for j, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: after %d iterations, weight %d is %v", ErrNonFinite, iter, j, v)
		}
	}
	return nil
}

// Options configures Fit and FitCrammerSinger. The zero value selects every
// default except the bias: Bias ≤ 0 fits no bias (as LIBLINEAR's default
// `-B -1`); use DefaultOptions for Bias = 1.
type Options struct {
	// C is the loss weight (inverse regularisation strength); 0 means 1.
	C float64
	// Loss is LossHinge (default when empty) or LossSquaredHinge. Ignored by
	// FitCrammerSinger.
	Loss string
	// Bias is the value of the constant feature appended to every row; its
	// weight is penalised like any other. Bias ≤ 0 means no bias.
	Bias float64
	// Tol is the stopping tolerance with LIBLINEAR's eps semantics; 0 means
	// DefaultTol.
	Tol float64
	// MaxIter caps the outer iterations (passes over the active rows); 0
	// means DefaultMaxIter for Fit and DefaultMaxIterCS for
	// FitCrammerSinger.
	MaxIter int
	// Seed seeds the random permutation drawn at every outer iteration.
	Seed uint64
}

// DefaultOptions returns C = 1, hinge loss, Bias = 1 and the default
// tolerance and iteration cap.
func DefaultOptions() Options {
	return Options{C: 1, Loss: LossHinge, Bias: 1, Tol: DefaultTol}
}

func (o Options) withDefaults(maxIter int) (Options, error) {
	if o.C == 0 {
		o.C = 1
	}
	if !(o.C > 0) || math.IsInf(o.C, 1) {
		return o, fmt.Errorf("%w: C = %v, want a finite value > 0", ErrInput, o.C)
	}
	if o.Loss == "" {
		o.Loss = LossHinge
	}
	if o.Loss != LossHinge && o.Loss != LossSquaredHinge {
		return o, fmt.Errorf("%w: loss %q, want %q or %q", ErrInput, o.Loss, LossHinge, LossSquaredHinge)
	}
	if o.Tol == 0 {
		o.Tol = DefaultTol
	}
	if !(o.Tol > 0) {
		return o, fmt.Errorf("%w: Tol = %v, want > 0", ErrInput, o.Tol)
	}
	if o.MaxIter == 0 {
		o.MaxIter = maxIter
	}
	if o.MaxIter < 0 {
		return o, fmt.Errorf("%w: MaxIter = %d, want ≥ 0", ErrInput, o.MaxIter)
	}
	if math.IsNaN(o.Bias) || math.IsInf(o.Bias, 1) {
		return o, fmt.Errorf("%w: Bias = %v, want a finite value", ErrInput, o.Bias)
	}
	o.Bias = max(o.Bias, 0) // Bias ≤ 0: no bias feature.
	return o, nil
}

// Result is a fitted binary linear SVM and solver diagnostics.
type Result struct {
	// W holds the d feature weights.
	W []float64
	// B is the intercept: the decision value is W·x + B. It equals the
	// bias-feature weight times Options.Bias (0 without bias).
	B float64
	// Alpha holds the dual variables αᵢ (0 for rows of weight 0).
	Alpha []float64
	// Objective is the primal objective P(w,b) at the returned weights.
	Objective float64
	// DualObjective is the dual objective D(α) (maximisation form), so
	// Objective − DualObjective ≥ 0 is the duality gap.
	DualObjective float64
	// Iterations is the number of outer iterations run.
	Iterations int
	// Converged reports whether the Tol stopping rule was met.
	Converged bool
}

// Decision returns W·x_i + B for row i of x.
func (r *Result) Decision(x Rows, i int) float64 {
	idx, val := x.Row(i)
	return rowDot(idx, val, r.W) + r.B
}

// checkWeights validates optional row weights.
func checkWeights(s []float64, n int) error {
	if s == nil {
		return nil
	}
	if len(s) != n {
		return fmt.Errorf("%w: %d row weights for %d rows", ErrInput, len(s), n)
	}
	for i, v := range s {
		if !(v >= 0) || math.IsInf(v, 1) {
			return fmt.Errorf("%w: row weight %v at row %d is not finite and ≥ 0", ErrInput, v, i)
		}
	}
	return nil
}

// Fit solves the binary L2-regularised linear SVM on x with labels
// y ∈ {−1,+1} and optional row weights s (nil means all 1) by dual
// coordinate descent with shrinking, as LIBLINEAR's solve_l2r_l1l2_svc.
// It is new(Workspace).Fit: the result owns all its memory. A row whose
// squared norm overflows, or weights that do, end it with an error
// wrapping ErrNonFinite.
func Fit(x Rows, y, s []float64, opt Options) (*Result, error) {
	return new(Workspace).Fit(x, y, s, opt)
}

// Workspace holds the per-row memory of the dual coordinate descent: the
// dual variables α, Q̄ᵢᵢ, the diagonal shift Dᵢᵢ, the upper bound Uᵢ and the
// order of the rows, 36 bytes per row. A caller that fits many problems
// (one-vs-rest on letter: 26 problems of 18000 rows per fold) reuses one
// Workspace per goroutine instead of allocating them for every problem.
// The zero value is ready to use; a Workspace serves one Fit at a time.
type Workspace struct {
	alpha, qd, diag, upper []float64
	index                  []int
}

// grow returns the workspace's vectors for n rows; every element the
// solver reads is written by Fit before it is read.
func (ws *Workspace) grow(n int) (alpha, qd, diag, upper []float64, index []int) {
	if cap(ws.qd) < n {
		ws.alpha = make([]float64, n)
		ws.qd = make([]float64, n)
		ws.diag = make([]float64, n)
		ws.upper = make([]float64, n)
		ws.index = make([]int, 0, n)
	}
	return ws.alpha[:n], ws.qd[:n], ws.diag[:n], ws.upper[:n], ws.index[:0]
}

// Fit is the package's Fit on the workspace's memory. The result's Alpha
// is the workspace's: it is overwritten by the workspace's next Fit
// (copy it to keep it). The weights are the result's own.
func (ws *Workspace) Fit(x Rows, y, s []float64, opt Options) (*Result, error) {
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
	alpha, qd, diag, upper, index := ws.grow(n)
	clear(alpha)
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
			diag[i] = 0
		} else {
			upper[i] = math.Inf(1)
			diag[i] = 0.5 / ci
		}
		_, val := x.Row(i)
		qd[i] = diag[i] + rowSqNorm(val) + bias*bias
		if err := checkRowNorm(i, qd[i]); err != nil {
			return nil, err
		}
		index = append(index, i)
	}
	l := len(index)
	src := rand.NewPCG(o.Seed, permSeq)
	v := newView(x)

	activeSize := l
	pgMaxOld, pgMinOld := math.Inf(1), math.Inf(-1)
	iter := 0
	converged := false
	var ahead [8]unsafe.Pointer
	for iter < o.MaxIter {
		pgMaxNew, pgMinNew := math.Inf(-1), math.Inf(1)
		for i := range activeSize {
			j := i + permIntN(src, activeSize-i)
			index[i], index[j] = index[j], index[i]
		}
		for s := 0; s < activeSize; s++ {
			i := index[s]
			if s+prefetchAhead < activeSize {
				// Ask for the cache lines of a row a few steps ahead (rows
				// are visited in random order), so that they arrive while
				// the rows before it are processed.
				j := index[s+prefetchAhead]
				ahead[0], ahead[1] = unsafe.Pointer(&y[j]), unsafe.Pointer(&alpha[j])
				ahead[2], ahead[3] = unsafe.Pointer(&qd[j]), unsafe.Pointer(&upper[j])
				if v.kind == viewDense && d > 0 {
					ahead[4], ahead[5] = unsafe.Pointer(&v.data[j*v.stride]), unsafe.Pointer(&v.data[j*v.stride+d-1])
				}
				prefetch(&ahead)
			}
			yi := y[i]
			var dot float64
			if v.kind == viewDense {
				dot = denseDot(v.data, i*v.stride, d, w)
			} else {
				dot = v.dot(i, w)
			}
			g := yi*(dot+w[d]*bias) - 1
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
				// min(max(ai−g/Q̄ᵢᵢ, 0), c) with branches, which the CPU
				// predicts instead of waiting for a min/max sequence: the
				// same value for every input (−0 becomes +0, NaN stays),
				// as c > 0.
				anew := ai - g/qd[i]
				if anew <= 0 {
					anew = 0
				}
				if anew > c {
					anew = c
				}
				alpha[i] = anew
				delta := (anew - ai) * yi
				if v.kind == viewDense {
					denseAxpy(delta, v.data, i*v.stride, d, w)
				} else {
					v.axpy(delta, i, w)
				}
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

	if err := checkWeightsFinite(w, iter); err != nil {
		return nil, err
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

// prefetchAhead is how many rows ahead of the one it updates a
// coordinate descent pass asks for a row's cache lines.
const prefetchAhead = 4

// permIntN returns a value in [0, n) from src exactly as
// rand.New(src).IntN(n) does on 64-bit platforms (Lemire's multiply and
// reject), without the interface call per draw.
func permIntN(src *rand.PCG, n int) int {
	un := uint64(n)
	if un&(un-1) == 0 {
		return int(src.Uint64() & (un - 1))
	}
	hi, lo := bits.Mul64(src.Uint64(), un)
	if lo < un {
		thresh := -un % un
		for lo < thresh {
			hi, lo = bits.Mul64(src.Uint64(), un)
		}
	}
	return int(hi)
}

// primalBinary returns ½·sq + C·Σ sᵢ ℓ(yᵢ(w·xᵢ+b)), where sq is the squared
// norm of the weights including the bias feature.
func primalBinary(x Rows, y, s []float64, c float64, hinge bool, w []float64, b, sq float64) float64 {
	var loss float64
	for i, yi := range y {
		idx, val := x.Row(i)
		xi := max(0, 1-yi*(rowDot(idx, val, w)+b))
		if !hinge {
			xi *= xi
		}
		if s != nil {
			xi *= s[i]
		}
		loss += xi
	}
	return 0.5*sq + c*loss
}
