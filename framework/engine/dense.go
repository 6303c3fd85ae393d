package engine

import (
	"fmt"

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
	plugin := ""
	if e.Plugin != "" {
		plugin = " (plugin " + e.Plugin + ")"
	}
	return fmt.Sprintf("learner %s%s takes dense input only (it does not declare the sparse capability), "+
		"but dataset %s under pipeline %s gives a %d × %d sparse design matrix: %s dense, over the %s budget for densified matrices "+
		"(bench run --dense-budget); use fewer columns (e.g. fewer hash buckets) or a learner that takes sparse input",
		e.Learner, plugin, e.Dataset, e.Pipeline, e.Rows, e.Cols, byteSize(e.Bytes), byteSize(e.Budget))
}

// needsDense reports whether cell c's learner must get x densified: x is
// CSR and the learner lacks the sparse capability.
func needsDense(c *Cell, x matrix.Matrix) bool {
	return x.CSR != nil && denseOnly(c.Learner)
}

// denseOnly reports whether learner l takes dense input only: it does
// not declare the sparse capability.
func denseOnly(l *Learner) bool { return l.Info == nil || !l.Info.Capabilities.Sparse }

// budgetOr returns budget, or DefaultDenseBudget when it is not positive.
func budgetOr(budget int64) int64 {
	if budget > 0 {
		return budget
	}
	return DefaultDenseBudget
}

// checkDense returns a *DenseBudgetError when x, densified for cell c's
// learner, would take more than budget bytes, or when validate warned that
// the cell's design matrix fitted on every row would (Cell.denseOver): a
// fold's matrix may have fewer columns (its steps see fewer levels) and
// pass by a little, but the run keeps to what validate said it does
// (campaign 4 x12: validate said 3 GiB, over the budget, and the run
// densified 1.99 GiB per fold).
func checkDense(c *Cell, x matrix.Matrix, budget int64) error {
	if c.denseOver != nil {
		return c.denseOver
	}
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
func (o Options) denseBudget() int64 { return budgetOr(o.DenseBudget) }

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

// designShape is the shape of a dataset's design matrix under a pipeline
// fitted on every row (resolver.encodable): its rows and columns, and
// whether it is in CSR form.
type designShape struct {
	rows, cols int
	csr        bool
}

// designKey names a dataset under a pipeline.
type designKey struct {
	d *Dataset
	p *Pipeline
}

// denseBudgets warns, at the learner's block, of the cells bench run will
// fail with a *DenseBudgetError: those of a learner without the sparse
// capability on a dataset whose design matrix under the cell's pipeline,
// fitted on every row, is in CSR form and takes more than the budget
// (ResolveOptions.DenseBudget) dense. One warning per learner, dataset and
// pipeline. Each cell warned of is marked (Cell.denseOver), and bench run
// fails each of its folds with the same error, though a fold's matrix,
// with at most as many columns, may be a little smaller.
func (r *resolver) denseBudgets(g *Grid) {
	budget := budgetOr(r.opt.DenseBudget)
	type key struct {
		designKey
		l *Learner
	}
	var order []key
	over := map[key]error{}
	count := map[key]int{}
	for _, c := range g.Cells {
		sh, ok := r.designs[designKey{c.Dataset, c.Pipeline}]
		if !ok || !sh.csr || !denseOnly(c.Learner) || c.Learner.StartErr != nil {
			continue
		}
		k := key{designKey{c.Dataset, c.Pipeline}, c.Learner}
		if _, seen := over[k]; !seen {
			over[k] = overBudget(c, sh.rows, sh.cols, budget)
			order = append(order, k)
		}
		count[k]++
	}
	for _, c := range g.Cells {
		k := key{designKey{c.Dataset, c.Pipeline}, c.Learner}
		c.denseOver = over[k]
	}
	for _, k := range order {
		if err := over[k]; err != nil {
			r.warnf(k.l.Config.DeclRange, "Design matrix over the dense budget",
				"%v. Fitted on every row: bench run fails the learner's %d cell(s) on this dataset and pipeline, each fold with this error, and computes the others.",
				err, count[k])
		}
	}
}
