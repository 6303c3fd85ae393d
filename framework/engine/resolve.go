package engine

import (
	"context"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/dataset"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/param"
)

// resolver binds an experiment to its data and plugins (see Resolve),
// collecting the diagnostics of every phase.
type resolver struct {
	checker
	ctx  context.Context
	exp  *config.Experiment
	host *host.Host
	// plugins starts the experiment's plugins and picks a reduction's
	// plugin (see prestart and pickPlugin).
	plugins *host.Picker
	opt     ResolveOptions
	// designs holds the shape of each dataset's design matrix under each
	// pipeline that encodes it without error (encodable).
	designs map[designKey]designShape
	// hung holds the plugins that did not answer a call in time
	// (pluginCall): Resolve calls them no more.
	hung map[*host.Plugin]bool
	// problemRows holds, per dataset and reduction that planned on it,
	// the fewest rows a problem of its plans trains on in an outer
	// training part (dryRun, for trainingRows).
	problemRows map[dsRed]problemRows
}

// MaxFoldAssignments bounds repeats × rows, the fold assignments of a
// dataset's repeats, which a run holds in memory (cv.MaxFoldAssignments).
const MaxFoldAssignments = cv.MaxFoldAssignments

// ResolveOptions are the choices of the application that resolves an
// experiment, beyond the file.
type ResolveOptions struct {
	// DefaultReducer names the plugin a reduction without plugin = "..."
	// gets when that plugin offers its scheme (an application ships its
	// own reducers). Otherwise, or when it is empty, every plugin of the
	// host is asked for its schemes, and the one that offers the scheme is
	// taken; two are an error asking for plugin = "...".
	DefaultReducer string
	// DenseBudget is the run's bound on a densified design matrix
	// (Options.DenseBudget; 0: DefaultDenseBudget): Resolve warns of the
	// cells that will fail over it.
	DenseBudget int64
	// FailUnstarted keeps in the grid a learner whose plugin is there but
	// does not start (it exits before its handshake line, prints
	// something else, hangs, or fails its Info probe): Resolve warns, and
	// each of the learner's cells fails with the start's error when run
	// (Learner.StartErr), so that the other learners' cells still run.
	// Without it (a check, such as bench validate) such a plugin is an
	// error.
	FailUnstarted bool
}

// Resolve binds an experiment to its data and plugins and expands it into
// the grid of its cells, in phases:
//
//   - bind loads the datasets and starts the plugins, and reports what
//     doing so meets: a file that cannot be read or does not fit its
//     declaration, a plugin that is not there, a name or a parameter value
//     outside a plugin's own schema;
//   - check applies pure functions to the bound grid: what fits with what
//     (metrics, learners and reductions, class weights, calibration,
//     tuning);
//   - when both passed, the dry runs: each pipeline encodes each dataset
//     once and each reduction plans once per dataset and parameter set
//     (over RPC), which finds what would fail every fold of a cell;
//   - expand makes the cells, a pure cross product.
//
// Each block kind binds in a file (a dataset: a package) of its own, by
// one function of the block and the explicit inputs it needs that returns
// the bound value and its diagnostics: dataset.Bind (its files read by
// data.Load, its checks, its folds by cv.Plan.Assign), bindPipeline
// in bind_pipeline.go, bindLearner in bind_learner.go, bindReduction in
// bind_reduction.go, bindOutput in bind_output.go. A learner's and a
// reduction's parameters, and an encoder's options, bind in one call to
// the package that reads them (config.Learner.BindParams,
// config.Reduction.BindParams: their checks, a tune block's budget, their
// parameter sets; config.Encoder.BindOptions: one value each, their
// checks, the defaults). The plugins' start-up, and the choice of the
// plugin of a reduction that names none, are the host's (host.Picker,
// which holds what the plugins offer); bind_plugin.go reports what they
// meet. The pure grid checks are in gridcheck.go and
// checkparams.go, the dry runs in dryrun.go, the cross product in
// cells.go.
//
// Every problem is a diagnostic at its location; bind and check report all
// they find. When ctx ends (a signal), Resolve stops at the next dataset
// or dry run and returns what it has: the caller, seeing ctx done, reports
// the interruption rather than the grid.
func Resolve(ctx context.Context, exp *config.Experiment, h *host.Host, opt ResolveOptions) (*Grid, hcl.Diagnostics) {
	r := &resolver{ctx: ctx, exp: exp, host: h, opt: opt, designs: map[designKey]designShape{}}
	b, ok := r.bind()
	if !ok || r.ctx.Err() != nil {
		return b.grid, r.diags
	}
	r.diags = append(r.diags, check(b.grid)...)
	// The dry runs use only what bound (a dataset that loaded, a
	// reduction whose parameters the plugin took): they run even after
	// an error elsewhere, so that one pass reports a code matrix's
	// problems with the file's other errors.
	r.dryRuns(b)
	if r.ctx.Err() != nil {
		return b.grid, r.diags
	}
	// The training rows a learner's parameter may not exceed, now that
	// the plans tell the problems' rows.
	var ck checker
	for _, l := range b.grid.Learners {
		if l.StartErr == nil {
			ck.trainingRows(b.grid, l, r.problemRows)
		}
	}
	r.diags = append(r.diags, ck.diags...)
	// The cells of what bound, even after an error: the checks of the
	// tables' rows (a baseline) and of the cells' identities still apply.
	b.grid.Cells = cells(b.grid, b.learnerParams, b.redParams)
	b.grid.learnerParams, b.grid.redParams = b.learnerParams, b.redParams
	if !r.diags.HasErrors() {
		r.denseBudgets(b.grid)
	}
	return b.grid, r.diags
}

// bound is an experiment bound to its data and plugins: the grid without
// its cells, and the parameter sets of each learner's and each
// reduction's cells.
type bound struct {
	grid          *Grid
	learnerParams map[*Learner][]param.Params
	redParams     map[*Reduction][]param.Params
}

// bind loads the datasets, builds the pipelines and starts the plugins
// (in the background first, while the data loads), checking every name
// and parameter value against the plugins' schemas; what cannot be bound
// is reported and left out of the grid. It reports false, and stops
// before the plugins check their parameter sets, when the grid would have
// more than MaxCells cells.
func (r *resolver) bind() (*bound, bool) {
	r.prestart()
	exp := r.exp
	g := &Grid{Experiment: exp, Metrics: exp.Metrics, Host: r.host}
	b := &bound{grid: g, learnerParams: map[*Learner][]param.Params{}, redParams: map[*Reduction][]param.Params{}}
	for _, d := range exp.Datasets {
		if r.ctx.Err() != nil { // interrupted: loading more data is in vain
			return b, false
		}
		ds, diags := dataset.Bind(d, &exp.CV, exp.Seed)
		r.diags = append(r.diags, diags...)
		if ds != nil {
			g.Datasets = append(g.Datasets, ds)
		}
	}
	encoders := map[string]*config.Encoder{}
	for _, e := range exp.Encoders {
		encoders[e.Name] = e
	}
	for _, p := range exp.Pipelines {
		rp, diags := bindPipeline(p, encoders)
		r.diags = append(r.diags, diags...)
		if rp != nil {
			g.Pipelines = append(g.Pipelines, rp)
		}
	}
	for _, l := range exp.Learners {
		if rl, sets := r.learner(l); rl != nil {
			g.Learners = append(g.Learners, rl)
			b.learnerParams[rl] = sets
		}
	}
	for _, rd := range exp.Reductions {
		if rr, sets := r.reduction(rd); rr != nil {
			g.Reductions = append(g.Reductions, rr)
			b.redParams[rr] = sets
		}
	}
	if n := countCells(g, b.learnerParams, b.redParams); n > MaxCells {
		r.errorf(exp.DeclRange, "Too many cells",
			"The experiment makes %d cells (datasets × pipelines × learners' parameter sets × reductions' parameter sets), more than %d: use shorter parameter lists, or split it into several experiments.", n, MaxCells)
		return b, false
	}
	for _, l := range g.Learners {
		if l.StartErr != nil {
			continue // no plugin to ask
		}
		sets := b.learnerParams[l]
		if l.Candidates != nil {
			sets = l.Candidates
		}
		r.checkLearnerParams(l, sets)
	}
	r.stopProbed(g)
	return b, true
}
