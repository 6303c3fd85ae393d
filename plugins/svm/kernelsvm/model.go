package kernelsvm

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Model is a trained model of one Problem.
//
// A binary model has one output, its decision value
//
//	f(x) = Σᵢ coefᵢ·K(x, svᵢ) − ρ,
//
// positive for the target +1, and with Platt scaling the probability
// 1/(1 + exp(A·f + B)) of +1.
//
// A multiclass model (svm-train's one-vs-one) has one output per class:
// its votes, each pair's vote going to its first class when the pair's
// decision value for that class is positive and to the other otherwise,
// less rank/K for the class that appeared rank-th in the training rows, so
// that the largest output is svm-predict's class (ties go to the class
// seen first). Its probabilities are svm-predict -b 1's: the pairs' Platt
// probabilities, clipped to [1e−7, 1 − 1e−7], coupled by Wu, Lin & Weng's
// second method (2004).
//
// The models of one Train call share the rows of their support vectors,
// so that Predict computes a test row's kernel values against them once.
type Model struct {
	bin *binary
	// Multiclass: the pairs (a, b), a < b, of classes with training rows,
	// +1 for a, in the order (0,1), (0,2), …; the classes with rows in
	// order of first appearance, and the rank of each class in it (−1
	// without rows).
	k     int
	pairs []*binary
	ab    [][2]int
	order []int
	rank  []int
	// degenerate: the kernel matrix on the problem's training rows is
	// degenerate (see degenerate).
	degenerate bool
}

// Degenerate reports whether the kernel matrix on the model's training
// rows was degenerate: every off-diagonal value alike (rbf with a gamma
// far too large for the data's scale, a saturated sigmoid), so that the
// model gives every row unlike its training rows the same decision
// value, a constant model.
func (m *Model) Degenerate() bool { return m.degenerate }

// binary is a trained binary SVM.
type binary struct {
	set  *svSet
	sv   []int     // positions in set.rows, in LIBSVM's order
	coef []float64 // yᵢαᵢ, internal orientation
	rho  float64
	// flip: the internal label +1 is the problem's target −1.
	flip         bool
	prob         bool
	probA, probB float64
	obj          float64
	iter         int
}

// svSet holds the rows that are support vectors of some model of a Train
// call, ascending by design row, copied from the design.
type svSet struct {
	kern Kernel
	rows []int // design rows
	x    *Data
	// xt holds the rows transposed (column c at xt[c·n:(c+1)·n]) when
	// dense.
	xt []float64
}

func newSVSet(k Kernel, x *Data, rows []int) *svSet {
	s := &svSet{kern: k, rows: rows, x: x.rowsOf(rows)}
	if !s.x.Sparse() {
		n := len(rows)
		s.xt = make([]float64, x.d*n)
		for p := range n {
			_, v := s.x.row(p)
			for c, f := range v {
				s.xt[c*n+p] = f
			}
		}
	}
	return s
}

// Outputs returns the number of outputs: 1 for a binary model, the
// number of classes for a multiclass one.
func (m *Model) Outputs() int {
	if m.bin != nil {
		return 1
	}
	return m.k
}

// binaries returns the model's binary SVMs.
func (m *Model) binaries() []*binary {
	if m.bin != nil {
		return []*binary{m.bin}
	}
	return m.pairs
}

// NumSV returns the number of support vectors (rows with αᵢ > 0) summed
// over the model's binary SVMs.
func (m *Model) NumSV() int {
	n := 0
	for _, b := range m.binaries() {
		n += len(b.sv)
	}
	return n
}

// Objective returns the dual objective ½αᵀQα − Σα at the solution, as
// LIBSVM reports it, summed over the model's binary SVMs.
func (m *Model) Objective() float64 {
	var o float64
	for _, b := range m.binaries() {
		o += b.obj
	}
	return o
}

// Iterations returns the solver's iterations, summed over the model's
// binary SVMs.
func (m *Model) Iterations() int {
	n := 0
	for _, b := range m.binaries() {
		n += b.iter
	}
	return n
}

// Probability reports whether the model has Platt scaling.
func (m *Model) Probability() bool {
	bs := m.binaries()
	return len(bs) > 0 && bs[0].prob
}

// Dual returns a binary model's support vectors as rows of the training
// design, their coefficients yᵢαᵢ and ρ, with y = +1 for the problem's
// target +1: f(x) = Σ coefᵢ·K(x, x_{rowsᵢ}) − ρ. It returns nothing for a
// multiclass model.
func (m *Model) Dual() (rows []int, coef []float64, rho float64) {
	if m.bin == nil {
		return nil, nil, 0
	}
	return m.bin.dual()
}

func (b *binary) dual() (rows []int, coef []float64, rho float64) {
	rows, coef = make([]int, len(b.sv)), make([]float64, len(b.sv))
	s := 1.0
	if b.flip {
		s = -1
	}
	for k, p := range b.sv {
		rows[k], coef[k] = b.set.rows[p], s*b.coef[k]
	}
	return rows, coef, s * b.rho
}

// Predict writes the outputs of every model on the rows of x into scores,
// the columns of models[i] following those of models[:i], and, when probs
// is not nil, their probabilities into the same columns of probs (a
// binary model without Platt scaling gives 1 for f > 0, else 0; a
// multiclass one 1 for its predicted class). Models of one Train call
// share the kernel values of each test row. A row's values depend on that
// row alone, and a model's on itself alone, whatever the models predicted
// with it.
func Predict(ctx context.Context, models []*Model, x *Data, scores, probs *mat.Dense) error {
	n, _ := x.Dims()
	width := 0
	var bins []*binary
	for _, m := range models {
		width += m.Outputs()
		bins = append(bins, m.binaries()...)
	}
	if r, c := scores.Dims(); r != n || c != width {
		return fmt.Errorf("kernelsvm: scores are %d×%d, want %d×%d", r, c, n, width)
	}
	dec := mat.NewDense(n, max(1, len(bins)), nil)
	bySet := map[*svSet][]int{}
	var order []*svSet
	for j, b := range bins {
		if _, ok := bySet[b.set]; !ok {
			if err := checkCols(b.set.x, x); err != nil {
				return err
			}
			order = append(order, b.set)
		}
		bySet[b.set] = append(bySet[b.set], j)
	}
	for _, set := range order {
		if err := set.decisions(ctx, bins, bySet[set], x, dec); err != nil {
			return err
		}
	}
	col, j := 0, 0
	for _, m := range models {
		w := m.Outputs()
		d := dec.Slice(0, n, j, j+len(m.binaries())).(*mat.Dense)
		s := scores.Slice(0, n, col, col+w).(*mat.Dense)
		var p *mat.Dense
		if probs != nil {
			p = probs.Slice(0, n, col, col+w).(*mat.Dense)
		}
		if m.bin != nil {
			m.bin.outputs(d, s, p)
		} else {
			m.multiOutputs(d, s, p)
		}
		col, j = col+w, j+len(m.binaries())
	}
	return nil
}

// decisions writes the decision values of bins[js], all of set s, on x
// into the columns js of dec, the rows split over GOMAXPROCS goroutines.
// Each test row's kernel values against the set's rows come first, as
// svm-predict's k_function computes them; each model then sums its
// coefficients times them in its support vectors' order, as
// svm_predict_values.
func (s *svSet) decisions(ctx context.Context, bins []*binary, js []int, x *Data, dec *mat.Dense) error {
	n, _ := x.Dims()
	const chunk = 64
	workers := min(runtime.GOMAXPROCS(0), (n+chunk-1)/chunk)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			kv := make([]float64, len(s.rows))
			buf := make([]float64, s.x.d)
			for {
				lo := int(next.Add(chunk)) - chunk
				if lo >= n || ctx.Err() != nil {
					return
				}
				for i := lo; i < min(lo+chunk, n); i++ {
					s.kernelRow(kv, x, i, buf)
					row := dec.RawRowView(i)
					for _, j := range js {
						row[j] = bins[j].decision(kv)
					}
				}
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// decision returns f(x) from the kernel values kv of x against the set.
func (b *binary) decision(kv []float64) float64 {
	var sum float64
	for k, p := range b.sv {
		sum += b.coef[k] * kv[p]
	}
	f := sum - b.rho
	if b.flip {
		return -f
	}
	return f
}

// kernelRow sets k[p] = K(x_i, sv_p) as LIBSVM's k_function: the rbf
// kernel from Σ_c (x_c − sv_c)², the others from the dot product, each sum
// taken column by column. For dense rows the sums run over the transposed
// support vectors, one column at a time for all of them.
func (s *svSet) kernelRow(k []float64, x *Data, i int, buf []float64) {
	ia, va := x.row(i)
	if ia != nil && s.xt != nil {
		// A sparse row against dense support vectors: its dense form
		// sums the same products.
		clear(buf)
		for q, j := range ia {
			buf[j] = va[q]
		}
		ia, va = nil, buf
	}
	if ia != nil || s.xt == nil {
		for p := range k {
			ib, vb := s.x.row(p)
			k[p] = s.kern.value(ia, va, ib, vb)
		}
		return
	}
	clear(k)
	n := len(k)
	if s.kern.Type == RBF {
		for c, f := range va {
			t := s.xt[c*n : (c+1)*n]
			for p, v := range t {
				d := f - v
				k[p] += d * d
			}
		}
		g := -s.kern.Gamma
		for p, d := range k {
			k[p] = expNeg(g, d)
		}
		return
	}
	for c, f := range va {
		floats.AddScaled(k, f, s.xt[c*n:(c+1)*n])
	}
	if s.kern.Type != Linear {
		for p, d := range k {
			k[p] = s.kern.fromDot(d, 0, 0)
		}
	}
}

// outputs writes a binary model's decision values d (one column) into
// scores and its probabilities into probs when not nil.
func (b *binary) outputs(d, scores, probs *mat.Dense) {
	n, _ := d.Dims()
	for i := range n {
		f := d.At(i, 0)
		scores.Set(i, 0, f)
		if probs != nil {
			probs.Set(i, 0, b.probability(f))
		}
	}
}

// probability returns the probability of +1 at decision value f.
func (b *binary) probability(f float64) float64 {
	if !b.prob {
		if f > 0 {
			return 1
		}
		return 0
	}
	if b.flip {
		return 1 - sigmoidPredict(-f, b.probA, b.probB)
	}
	return sigmoidPredict(f, b.probA, b.probB)
}

// minProb bounds the pairwise probabilities away from 0 and 1 before
// coupling (LIBSVM's min_prob).
const minProb = 1e-7

// multiOutputs writes a multiclass model's votes, from its pairs'
// decision values d, into scores and its probabilities into probs when
// not nil.
func (m *Model) multiOutputs(d, scores, probs *mat.Dense) {
	n, _ := d.Dims()
	kp := len(m.order)
	votes := make([]float64, m.k)
	var r [][]float64
	var p []float64
	if probs != nil && m.Probability() {
		r = make([][]float64, kp)
		for i := range r {
			r[i] = make([]float64, kp)
		}
		p = make([]float64, kp)
	}
	for i := range n {
		clear(votes)
		for q, ab := range m.ab {
			a, b := ab[0], ab[1]
			f := d.At(i, q) // for a
			// svm-predict's pair (first, second) in label order votes
			// first when its value for first is > 0.
			first, second, ff := a, b, f
			if m.rank[b] < m.rank[a] {
				first, second, ff = b, a, -f
			}
			if ff > 0 {
				votes[first]++
			} else {
				votes[second]++
			}
			if r != nil {
				// The pair's internal +1 is first (layout), whose
				// sigmoid Platt fitted.
				bin := m.pairs[q]
				pf := min(max(sigmoidPredict(ff, bin.probA, bin.probB), minProb), 1-minProb)
				ri, rj := m.rank[first], m.rank[second]
				r[ri][rj], r[rj][ri] = pf, 1-pf
			}
		}
		best := -1
		row := scores.RawRowView(i)
		for c := range m.k {
			row[c] = votes[c] - float64(m.rank[c])/float64(m.k)
			if m.rank[c] < 0 {
				row[c] = -1 - 1/float64(m.k) // no training rows: never predicted
			}
			if best < 0 || row[c] > row[best] {
				best = c
			}
		}
		if probs == nil {
			continue
		}
		prow := probs.RawRowView(i)
		clear(prow)
		if r == nil {
			prow[best] = 1
			continue
		}
		if kp == 2 {
			p[0], p[1] = r[0][1], r[1][0]
		} else {
			couple(r, p)
		}
		for q, c := range m.order {
			prow[c] = p[q]
		}
	}
}
