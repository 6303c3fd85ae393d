package kernelsvm

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"
)

// TogetherModel is an all-together multiclass SVM (TrainTogether): one
// output per class, fₘ(x) = Σᵢ cᵢᵐ·(K(x, xᵢ) + Bias²) over its support
// vectors (the rows with a non-zero coefficient); the predicted class is
// the one of the largest output.
type TogetherModel struct {
	method string
	k      int
	set    *svSet
	coef   []float64 // nsv×K, by support vector
	// intercept[m] = Bias²·Σᵢ cᵢᵐ.
	intercept []float64
	rows      []int     // training rows, ascending
	alpha     []float64 // len(rows)×K dual variables
	dual      float64
	iter      int
	converged bool
	// degenerate: the kernel matrix on the training rows is degenerate
	// (see degenerate).
	degenerate bool
}

// model collects the solution of t into a TogetherModel.
func (t *together) model(x *Data, o TogetherOptions, iter int, converged bool) *TogetherModel {
	k := t.k
	order := make([]int, t.n) // positions by design row
	for p := range order {
		order[p] = p
	}
	slices.SortFunc(order, func(p, r int) int { return t.q.rowOf[p] - t.q.rowOf[r] })
	m := &TogetherModel{method: o.Method, k: k, intercept: make([]float64, k), dual: t.objective(), iter: iter, converged: converged}
	var sv []int
	for _, p := range order {
		r := t.q.rowOf[p]
		a := t.rowOf(t.a, p)
		m.rows = append(m.rows, r)
		m.alpha = append(m.alpha, a...)
		t.method.coef(t.c0, a, t.y[p])
		if allZero(t.c0) {
			continue
		}
		sv = append(sv, r)
		m.coef = append(m.coef, t.c0...)
		for c, v := range t.c0 {
			m.intercept[c] += v
		}
	}
	b2 := o.Bias * o.Bias
	for c := range m.intercept {
		m.intercept[c] *= b2
	}
	m.set = newSVSet(o.Kernel, x, sv)
	m.degenerate = degenerate(&o.Kernel, x, m.rows)
	return m
}

// Outputs returns the number of classes.
func (m *TogetherModel) Outputs() int { return m.k }

// Degenerate reports whether the kernel matrix on the training rows was
// degenerate, every off-diagonal value alike (rbf with a gamma far too
// large for the features' scale): the solver's optimum is then a model
// that cannot tell the rows apart, as for the binary Model.Degenerate.
func (m *TogetherModel) Degenerate() bool { return m.degenerate }

// Method returns the model's method (CrammerSinger or WestonWatkins).
func (m *TogetherModel) Method() string { return m.method }

// NumSV returns the number of support vectors.
func (m *TogetherModel) NumSV() int { return len(m.set.rows) }

// DualObjective returns the dual objective at the solution, in its
// maximisation form (see CrammerSinger and WestonWatkins), from the
// solver's outputs (kernel values in float32).
func (m *TogetherModel) DualObjective() float64 { return m.dual }

// Iterations returns the number of sub-problems solved.
func (m *TogetherModel) Iterations() int { return m.iter }

// Converged reports whether the maximal KKT violation reached eps before
// the iteration bound.
func (m *TogetherModel) Converged() bool { return m.converged }

// Dual returns the training rows with a positive weight, ascending, and
// their dual variables (len(rows)×K): for Crammer–Singer αᵢᵐ, for
// Weston–Watkins αᵢᵐ with αᵢ^{yᵢ} = 0.
func (m *TogetherModel) Dual() (rows []int, alpha *mat.Dense) {
	return slices.Clone(m.rows), mat.NewDense(len(m.rows), m.k, slices.Clone(m.alpha))
}

// Predict writes the K outputs of each row of x into scores (n×K), the
// rows split over GOMAXPROCS goroutines; the kernel values are
// k_function's, as Predict's.
func (m *TogetherModel) Predict(ctx context.Context, x *Data, scores *mat.Dense) error {
	n, _ := x.Dims()
	if r, c := scores.Dims(); r != n || c != m.k {
		return fmt.Errorf("kernelsvm: scores are %d×%d, want %d×%d", r, c, n, m.k)
	}
	if err := checkCols(m.set.x, x); err != nil {
		return err
	}
	const chunk = 64
	workers := max(1, min(runtime.GOMAXPROCS(0), (n+chunk-1)/chunk))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			kv := make([]float64, len(m.set.rows))
			buf := make([]float64, m.set.x.d)
			for {
				lo := int(next.Add(chunk)) - chunk
				if lo >= n || ctx.Err() != nil {
					return
				}
				for i := lo; i < min(lo+chunk, n); i++ {
					m.set.kernelRow(kv, x, i, buf)
					m.outputs(scores.RawRowView(i), kv)
				}
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// outputs sets dst[c] = Σₚ coef_p^c·kv[p] + intercept[c].
func (m *TogetherModel) outputs(dst, kv []float64) {
	copy(dst, m.intercept)
	k := m.k
	for p, v := range kv {
		c := m.coef[p*k : (p+1)*k : (p+1)*k]
		for j, cv := range c {
			dst[j] += cv * v
		}
	}
}
