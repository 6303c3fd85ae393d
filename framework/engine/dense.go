package engine

import (
	"errors"
	"fmt"

	"github.com/polyclass/polyclass/framework/encode"
	"github.com/polyclass/polyclass/framework/matrix"
)

// DefaultDenseBudget bounds the dense matrix made for a learner without the
// sparse capability when Options.DenseBudget is 0: 2 GiB.
const DefaultDenseBudget = 2 << 30

// DenseBudgetError is the failure of a cell whose learner takes dense
// input only while its pipeline makes a sparse design matrix too large to
// densify within the budget.
type DenseBudgetError struct {
	Learner, Plugin, Dataset, Pipeline string
	Rows, Cols                         int
	// Bytes is the size of the dense matrix; Budget the bound it exceeds.
	Bytes, Budget int64
}

// Error implements error.
func (e *DenseBudgetError) Error() string {
	return fmt.Sprintf("learner %s (plugin %s) takes dense input only (it does not declare the sparse capability), "+
		"but dataset %s under pipeline %s gives a %d × %d sparse design matrix: %s dense, over the %s budget for densified matrices "+
		"(bench run --dense-budget); use fewer columns (e.g. fewer hash buckets) or a learner that takes sparse input",
		e.Learner, e.Plugin, e.Dataset, e.Pipeline, e.Rows, e.Cols, byteSize(e.Bytes), byteSize(e.Budget))
}

// needsDense reports whether cell c's learner must get x densified: x is
// CSR and the learner lacks the sparse capability.
func needsDense(c *Cell, x matrix.Matrix) bool {
	return x.CSR != nil && (c.Learner.Info == nil || !c.Learner.Info.Capabilities.Sparse)
}

// checkDense returns a *DenseBudgetError when x, densified for cell c's
// learner, would take more than budget bytes.
func checkDense(c *Cell, x matrix.Matrix, budget int64) error {
	r, k := x.Dims()
	return overBudget(c, r, k, budget)
}

// overBudget returns a *DenseBudgetError when an r × k matrix, dense,
// would take more than budget bytes for cell c's learner.
func overBudget(c *Cell, r, k int, budget int64) error {
	if n := matrix.DenseBytes(r, k); n > budget {
		e := &DenseBudgetError{Learner: c.Learner.Config.Name, Dataset: c.Dataset.Config.Name,
			Pipeline: c.Pipeline.Config.Name, Rows: r, Cols: k, Bytes: n, Budget: budget}
		if c.Learner.Plugin != nil {
			e.Plugin = c.Learner.Plugin.Name
		}
		return e
	}
	return nil
}

// forLearner returns x as cell c's learner takes it: densified when the
// learner lacks the sparse capability, within budget bytes.
func forLearner(c *Cell, x matrix.Matrix, budget int64) (matrix.Matrix, error) {
	if !needsDense(c, x) {
		return x, nil
	}
	if err := checkDense(c, x, budget); err != nil {
		return matrix.Matrix{}, err
	}
	return x.AsDense(), nil
}

// denseBudget is the run's bound on a densified matrix.
func (o Options) denseBudget() int64 {
	if o.DenseBudget > 0 {
		return o.DenseBudget
	}
	return DefaultDenseBudget
}

// byteSize prints n bytes with a binary unit: 512 B, 1.5 KiB, 2 GiB.
func byteSize(n int64) string {
	const units = "KMGTPE"
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	v, u := float64(n)/1024, 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	s := fmt.Sprintf("%.1f", v)
	if s[len(s)-2:] == ".0" {
		s = s[:len(s)-2]
	}
	return s + " " + units[u:u+1] + "iB"
}

// OverDenseBudget returns the *DenseBudgetError that the cells of each
// learner of g without the sparse capability will fail with, one per
// dataset × pipeline × learner whose design matrix, densified, takes more
// than budget bytes (0: DefaultDenseBudget), in cell order. A design is
// encoded for the check, on the training rows of the first fold of the
// first repeat, only when a learner takes dense input only and the
// pipeline may widen the data (encode.MayWiden); other folds, which may
// see a few more or fewer categorical levels, are not checked. An
// encoding error is left to the run, which fails the cells it concerns.
func OverDenseBudget(g *Grid, budget int64) []*DenseBudgetError {
	if budget <= 0 {
		budget = DefaultDenseBudget
	}
	type shape struct {
		csr        bool
		rows, cols int
	}
	type key struct {
		d *Dataset
		p *Pipeline
		l *Learner
	}
	var out []*DenseBudgetError
	shapes := map[key]*shape{} // by dataset and pipeline (l nil)
	seen := map[key]bool{}
	for _, c := range g.Cells {
		k := key{c.Dataset, c.Pipeline, c.Learner}
		if seen[k] || (c.Learner.Info != nil && c.Learner.Info.Capabilities.Sparse) {
			continue
		}
		seen[k] = true
		if len(c.Dataset.Folds) == 0 || !encode.MayWiden(c.Dataset.Features, c.Pipeline.Steps) {
			continue
		}
		dp := key{d: c.Dataset, p: c.Pipeline}
		sh, ok := shapes[dp]
		if !ok {
			if m, err := encodeFold(g, c.Dataset, c.Pipeline, 0, 0); err == nil {
				r, k := m.Dims()
				sh = &shape{m.CSR != nil, r, k}
			}
			shapes[dp] = sh
		}
		if sh == nil || !sh.csr {
			continue
		}
		var e *DenseBudgetError
		if errors.As(overBudget(c, sh.rows, sh.cols, budget), &e) {
			out = append(out, e)
		}
	}
	return out
}
