package kernelsvm

import (
	"errors"
	"fmt"
	"math"
)

// Defaults of Options (LIBSVM's svm-train defaults).
const (
	DefaultEps        = 1e-3
	DefaultCacheBytes = 100 << 20
)

// Options configure a fit.
type Options struct {
	Kernel Kernel
	// C is the penalty of the hinge loss (> 0); a row's bound is C times
	// its weight.
	C float64
	// Eps is the stopping tolerance on the maximal violation
	// max_{I_up} −y∇f − min_{I_low} −y∇f (LIBSVM's -e; 0 means
	// DefaultEps).
	Eps float64
	// NoShrinking turns shrinking off (LIBSVM's -h 0).
	NoShrinking bool
	// CacheBytes bounds the kernel values held by one fit (LIBSVM's -m,
	// in bytes; 0 means DefaultCacheBytes).
	CacheBytes int64
	// Probability fits Platt's sigmoid on 5-fold cross-validated decision
	// values, as LIBSVM's -b 1.
	Probability bool
}

func (o Options) eps() float64 {
	if o.Eps > 0 {
		return o.Eps
	}
	return DefaultEps
}

func (o Options) cacheBytes() int64 {
	if o.CacheBytes > 0 {
		return o.CacheBytes
	}
	return DefaultCacheBytes
}

func (o Options) check() error {
	if err := o.Kernel.Check(); err != nil {
		return err
	}
	if !(o.C > 0) || math.IsInf(o.C, 0) {
		return fmt.Errorf("penalty C = %v, want a finite value > 0", o.C)
	}
	if o.Eps < 0 || math.IsNaN(o.Eps) {
		return fmt.Errorf("eps = %v, want ≥ 0", o.Eps)
	}
	return nil
}

// Problem is a binary or multiclass problem on rows of a design matrix.
type Problem struct {
	// Rows are the rows of the design the problem trains on, in training
	// order (ascending in a fold, as LIBSVM reads a training file).
	Rows []int
	// Targets are ±1, one per row, for a binary problem.
	Targets []float64
	// Classes are 0..NumClasses−1, one per row, for a multiclass problem
	// (Targets nil), which Train splits into one-vs-one pairs as svm-train
	// does.
	Classes    []int
	NumClasses int
	// Weights scale each row's bound C (nil means all 1); rows of weight 0
	// take no part.
	Weights []float64
}

func (p *Problem) check() error {
	if len(p.Rows) == 0 {
		return errors.New("the problem has no rows")
	}
	switch {
	case p.Classes != nil:
		if len(p.Classes) != len(p.Rows) {
			return fmt.Errorf("%d classes for %d rows", len(p.Classes), len(p.Rows))
		}
		for k, c := range p.Classes {
			if c < 0 || c >= p.NumClasses {
				return fmt.Errorf("class %d of row %d is not in 0..%d", c, p.Rows[k], p.NumClasses-1)
			}
		}
	case len(p.Targets) != len(p.Rows):
		return fmt.Errorf("%d targets for %d rows", len(p.Targets), len(p.Rows))
	default:
		for k, t := range p.Targets {
			if t != 1 && t != -1 {
				return fmt.Errorf("target %v of row %d is not ±1", t, p.Rows[k])
			}
		}
	}
	if p.Weights != nil && len(p.Weights) != len(p.Rows) {
		return fmt.Errorf("%d weights for %d rows", len(p.Weights), len(p.Rows))
	}
	for k, w := range p.Weights {
		if !(w >= 0) || math.IsInf(w, 0) {
			return fmt.Errorf("weight %v of row %d is not a finite value ≥ 0", w, p.Rows[k])
		}
	}
	return nil
}

// classOrder returns the classes of a multiclass problem in the order of
// their first row (LIBSVM's label order) and each class's rank in it (−1
// for a class without rows).
func (p *Problem) classOrder() (order, rank []int) {
	rank = make([]int, p.NumClasses)
	for c := range rank {
		rank[c] = -1
	}
	for _, c := range p.Classes {
		if rank[c] < 0 {
			rank[c] = len(order)
			order = append(order, c)
		}
	}
	return order, rank
}

// pairs returns the one-vs-one problems of a multiclass problem: for each
// pair of classes a < b that have rows, the rows of a (target +1) and of
// b (−1), in training order.
func (p *Problem) pairs() (ps []Problem, ab [][2]int) {
	_, rank := p.classOrder()
	for a := range p.NumClasses {
		for b := a + 1; b < p.NumClasses; b++ {
			if rank[a] < 0 || rank[b] < 0 {
				continue
			}
			q := Problem{}
			for k, c := range p.Classes {
				if c != a && c != b {
					continue
				}
				q.Rows = append(q.Rows, p.Rows[k])
				if c == a {
					q.Targets = append(q.Targets, 1)
				} else {
					q.Targets = append(q.Targets, -1)
				}
				if p.Weights != nil {
					q.Weights = append(q.Weights, p.Weights[k])
				}
			}
			ps, ab = append(ps, q), append(ab, [2]int{a, b})
		}
	}
	return ps, ab
}

// layout is a problem in LIBSVM's order: the rows of the class that
// appears first in the training order (internal label +1) in training
// order, then the others (−1); flip says that +1 is the problem's target
// −1. LIBSVM's svm_group_classes orders a two-class training set so.
type layout struct {
	rows []int     // design rows
	pos  []int     // position in Problem.Rows of each
	y    []int8    // internal ±1
	c    []float64 // bound of each
	flip bool
}

func newLayout(p *Problem, cost float64) *layout {
	first := p.Targets[0]
	lay := &layout{flip: first < 0}
	n := len(p.Rows)
	lay.rows, lay.pos = make([]int, 0, n), make([]int, 0, n)
	lay.y, lay.c = make([]int8, 0, n), make([]float64, 0, n)
	for _, side := range [2]float64{first, -first} {
		for k, t := range p.Targets {
			if t != side {
				continue
			}
			w := 1.0
			if p.Weights != nil {
				w = p.Weights[k]
			}
			lay.rows = append(lay.rows, p.Rows[k])
			lay.pos = append(lay.pos, k)
			lay.c = append(lay.c, cost*w)
			if side == first {
				lay.y = append(lay.y, 1)
			} else {
				lay.y = append(lay.y, -1)
			}
		}
	}
	return lay
}

// binaryFit is a solved binary problem in layout order.
type binaryFit struct {
	coef []float64 // y_i·α_i
	sol  solution
}

// solveLayout trains the C-SVC dual of lay (LIBSVM's solve_c_svc) with
// kernel values from src.
func solveLayout(src kernelSource, lay *layout, opt Options, s *solver) binaryFit {
	l := len(lay.rows)
	p := make([]float64, l)
	for i := range p {
		p[i] = -1
	}
	alpha := make([]float64, l)
	rowOf := append([]int(nil), lay.rows...)
	q := newQMatrix(src, rowOf, append([]int8(nil), lay.y...), opt.cacheBytes())
	sol := s.solve(q, p, lay.y, alpha, lay.c, opt.eps(), !opt.NoShrinking)
	for i := range alpha {
		alpha[i] *= float64(lay.y[i])
	}
	return binaryFit{coef: alpha, sol: sol}
}
