package kernelsvm

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Model is a trained binary SVM. Its decision value is
//
//	f(x) = Σᵢ coefᵢ·K(x, svᵢ) − ρ,
//
// positive for the problem's target +1, and with Platt scaling its
// probability of +1 is 1/(1 + exp(A·f + B)). The models of one Train call
// share their support vectors' rows (a row that is a support vector of
// several problems is held once) so that Predict computes each test row's
// kernel values against them once for all the models.
type Model struct {
	set  *svSet
	id   int       // index among the set's models
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

// svSet holds the rows that are support vectors of some model of a
// Train call, copied from the design, group by group (see rowGroups) and
// ascending within a group, and for each group the coefficients of the
// models that use it as a dense matrix (zero where a row is not a
// support vector of the model): a test block's kernel values against the
// group's rows times that matrix gives every model's share of the group
// in one matrix product, as LIBSVM sums each class's support vectors.
type svSet struct {
	kern   Kernel
	rows   []int // design rows
	x      *Data
	sq     []float64 // ‖sv‖², rbf on dense rows only
	start  []int     // group g's rows are rows[start[g]:start[g+1]]
	users  [][]int   // ids of the models that use group g
	coef   []*mat.Dense
	models int // models of the set, ids 0..models−1
}

// NumSV returns the number of support vectors (rows with αᵢ > 0).
func (m *Model) NumSV() int { return len(m.sv) }

// Objective returns the dual objective ½αᵀQα − Σα at the solution, as
// LIBSVM reports it.
func (m *Model) Objective() float64 { return m.obj }

// Iterations returns the solver's iterations.
func (m *Model) Iterations() int { return m.iter }

// Probability reports whether the model has Platt scaling.
func (m *Model) Probability() bool { return m.prob }

// Dual returns the support vectors as rows of the training design, their
// coefficients yᵢαᵢ and ρ, with y = +1 for the problem's target +1:
// f(x) = Σ coefᵢ·K(x, x_{rowsᵢ}) − ρ.
func (m *Model) Dual() (rows []int, coef []float64, rho float64) {
	rows, coef = make([]int, len(m.sv)), make([]float64, len(m.sv))
	s := 1.0
	if m.flip {
		s = -1
	}
	for k, p := range m.sv {
		rows[k], coef[k] = m.set.rows[p], s*m.coef[k]
	}
	return rows, coef, s * m.rho
}

// Predict writes the decision values of every model on the rows of x
// into the columns of scores (rows × len(models)), and, when probs is not
// nil, the Platt probabilities of +1 into probs (models without Platt
// scaling get 1 for f > 0, else 0). Models of one Train call share the
// kernel values of each test row. Each row's values depend on that row
// alone.
func Predict(ctx context.Context, models []*Model, x *Data, scores, probs *mat.Dense) error {
	n, _ := x.Dims()
	if r, c := scores.Dims(); r != n || c != len(models) {
		return fmt.Errorf("kernelsvm: scores are %d×%d, want %d×%d", r, c, n, len(models))
	}
	bySet := map[*svSet][]int{}
	var order []*svSet
	for j, m := range models {
		if _, ok := bySet[m.set]; !ok {
			if err := checkCols(m.set.x, x); err != nil {
				return err
			}
			order = append(order, m.set)
		}
		bySet[m.set] = append(bySet[m.set], j)
	}
	for _, set := range order {
		if err := set.predict(ctx, models, bySet[set], x, scores); err != nil {
			return err
		}
	}
	if probs != nil {
		for j, m := range models {
			for i := range n {
				probs.Set(i, j, m.probability(scores.At(i, j)))
			}
		}
	}
	return nil
}

// predictBlock is the number of test rows whose kernel values are held at
// once.
const predictBlock = 128

// predict writes the decision values of models[js], all of set s, on x
// into scores.
func (s *svSet) predict(ctx context.Context, models []*Model, js []int, x *Data, scores *mat.Dense) error {
	n, _ := x.Dims()
	nsv := len(s.rows)
	if nsv == 0 {
		for _, j := range js {
			m := models[j]
			for i := range n {
				scores.Set(i, j, m.decision(0))
			}
		}
		return nil
	}
	b := min(predictBlock, n)
	kv := mat.NewDense(b, nsv, nil)
	acc := make([]float64, b*s.models)
	var out mat.Dense
	for lo := 0; lo < n; lo += b {
		if err := ctx.Err(); err != nil {
			return err
		}
		hi := min(lo+b, n)
		k := kv.Slice(0, hi-lo, 0, nsv).(*mat.Dense)
		s.kernelBlock(k, x, lo, hi)
		clear(acc)
		for g, users := range s.users {
			if len(users) == 0 || s.start[g] == s.start[g+1] {
				continue
			}
			out.Reset()
			out.Mul(k.Slice(0, hi-lo, s.start[g], s.start[g+1]), s.coef[g])
			for r := range hi - lo {
				row := out.RawRowView(r)
				a := acc[r*s.models : (r+1)*s.models]
				for c, id := range users {
					a[id] += row[c]
				}
			}
		}
		for _, j := range js {
			m := models[j]
			for r := range hi - lo {
				scores.Set(lo+r, j, m.decision(acc[r*s.models+m.id]))
			}
		}
	}
	return nil
}

// kernelBlock sets k[r][u] = K(x_{lo+r}, sv_u): for dense rows from one
// matrix product of the block with the support vectors, else row by row
// as LIBSVM's k_function.
func (s *svSet) kernelBlock(k *mat.Dense, x *Data, lo, hi int) {
	if x.Sparse() || s.x.Sparse() {
		for i := lo; i < hi; i++ {
			ia, va := x.row(i)
			row := k.RawRowView(i - lo)
			for p := range row {
				ib, vb := s.x.row(p)
				row[p] = s.kern.value(ia, va, ib, vb)
			}
		}
		return
	}
	xb := mat.NewDense(hi-lo, x.d, nil)
	for i := lo; i < hi; i++ {
		_, v := x.row(i)
		xb.SetRow(i-lo, v)
	}
	sv := mat.NewDense(s.x.n, s.x.d, s.x.dense)
	k.Mul(xb, sv.T())
	for i := lo; i < hi; i++ {
		row := k.RawRowView(i - lo)
		switch s.kern.Type {
		case RBF:
			_, v := x.row(i)
			sqi := dotRows(nil, v, nil, v)
			g := -s.kern.Gamma
			for p, d := range row {
				row[p] = expNeg(g, sqi+s.sq[p]-2*d)
			}
		case Poly, Sigmoid:
			for p, d := range row {
				row[p] = s.kern.fromDot(d, 0, 0)
			}
		}
	}
}

// decision returns f from the kernel sum Σ coef·K.
func (m *Model) decision(sum float64) float64 {
	f := sum - m.rho
	if m.flip {
		return -f
	}
	return f
}

// probability returns the probability of +1 at decision value f.
func (m *Model) probability(f float64) float64 {
	if !m.prob {
		if f > 0 {
			return 1
		}
		return 0
	}
	if m.flip {
		return 1 - sigmoidPredict(-f, m.probA, m.probB)
	}
	return sigmoidPredict(f, m.probA, m.probB)
}
