package engine

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/encode"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/suggest"
)

// resolver binds an experiment to its data and plugins (see Resolve),
// collecting the diagnostics of every phase.
type resolver struct {
	checker
	ctx  context.Context
	exp  *config.Experiment
	host *host.Host
	// offers maps each scheme to the plugins whose reducer offers it,
	// once a reduction without a plugin asked (see pickPlugin); probed
	// lists the plugins started only to ask them.
	offers map[string][]string
	probed []string
	// startErrs are the failures of the plugins asked (see schemes).
	startErrs error
	opt       ResolveOptions
	// designs holds the shape of each dataset's design matrix under each
	// pipeline that encodes it without error (encodable).
	designs map[designKey]designShape
	// hung holds the plugins that did not answer a call in time
	// (pluginCall): Resolve calls them no more.
	hung map[*host.Plugin]bool
}

// MaxFoldAssignments bounds repeats × rows, the fold assignments of a
// dataset's repeats, which a run holds in memory (8 bytes each, 512 MiB
// in all): repeats = 1e9 made validate allocate until the machine ran out
// of memory. 100 repeats of a dataset of 671,088 rows fit.
const MaxFoldAssignments = 1 << 26

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
	// The cells of what bound, even after an error: the checks of the
	// tables' rows (a baseline) and of the cells' identities still apply.
	b.grid.Cells = cells(b.grid, b.learnerParams, b.redParams)
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
		if ds := r.dataset(d); ds != nil {
			g.Datasets = append(g.Datasets, ds)
			r.foldWarnings(ds)
			r.trainingClasses(ds)
			r.singleRowClasses(ds)
		}
	}
	encoders := map[string]*config.Encoder{}
	for _, e := range exp.Encoders {
		encoders[e.Name] = e
	}
	for _, p := range exp.Pipelines {
		if rp := r.pipeline(p, encoders); rp != nil {
			g.Pipelines = append(g.Pipelines, rp)
		}
	}
	for _, l := range exp.Learners {
		if rl := r.learner(l); rl != nil && r.fewParamSets("Learner", l.Name, l.Params, rl.Info.Params, cmp.Or(l.ParamsRange, l.DeclRange)) {
			g.Learners = append(g.Learners, rl)
			b.learnerParams[rl] = r.learnerParams(rl)
		}
	}
	for _, rd := range exp.Reductions {
		if rr := r.reduction(rd); rr != nil && r.fewParamSets("Reduction", rd.Name, rd.Params, rr.Scheme.Params, rd.DeclRange) {
			r.labelShadows(rr)
			g.Reductions = append(g.Reductions, rr)
			b.redParams[rr], rr.Varied = expand(rd.Params, rr.Scheme.Params)
		}
	}
	if n := countCells(g, b.learnerParams, b.redParams); n > MaxCells {
		r.errorf(exp.DeclRange, "Too many cells",
			"The experiment makes %d cells (datasets × pipelines × learners' parameter sets × reductions' parameter sets), more than %d: use shorter parameter lists, or split it into several experiments.", n, MaxCells)
		return b, false
	}
	for _, l := range g.Learners {
		sets := b.learnerParams[l]
		if l.Candidates != nil {
			sets = l.Candidates
		}
		r.checkLearnerParams(l, sets)
	}
	r.stopProbed(g)
	return b, true
}

// learnerParams expands learner l's parameters into their combinations
// and returns the parameter sets of l's cells: the combinations, or for a
// tuned learner one set that holds every candidate (each fold picks one),
// with its tune metric set.
func (r *resolver) learnerParams(l *Learner) []param.Params {
	combos, tuned := expand(l.Config.Params, l.Info.Params)
	l.Tuned = tuned
	t := l.Config.Tune
	if t == nil {
		return combos
	}
	l.TuneMetric = t.Metric
	if l.TuneMetric == "" && len(r.exp.Metrics) > 0 {
		l.TuneMetric = r.exp.Metrics[0]
	}
	l.Candidates = combos
	if t.Sampled() {
		l.Candidates = sampleCandidates(l.Config.Params, tuned, combos, t.NIter, cv.Seed(r.exp.Seed, "tune", "candidates", l.Config.Name))
	}
	return []param.Params{whole(l.Config.Params)}
}

// dryRuns runs each pipeline once on each dataset and plans each
// reduction once on each dataset it covers, for each of its parameter
// sets: a user code matrix that does not fit the classes is an error at
// its location now, not a failed cell later.
func (r *resolver) dryRuns(b *bound) {
	g := b.grid
	for _, d := range g.Datasets {
		for _, p := range g.Pipelines {
			if r.ctx.Err() != nil {
				return
			}
			r.encodable(d, p)
		}
	}
	for _, d := range g.Datasets {
		for _, red := range g.Reductions {
			if !red.covers(d) || red.Scheme.MultiLabel != d.MultiLabel {
				continue
			}
			for _, rp := range b.redParams[red] {
				r.dryRun(g, d, red, rp)
			}
		}
	}
}

// cells is the cross product of the bound grid g: dataset × pipeline ×
// learner × the learner's parameter sets × each reduction that covers the
// dataset and takes the learner × the reduction's parameter sets, in that
// order, numbered from 0.
func cells(g *Grid, learnerParams map[*Learner][]param.Params, redParams map[*Reduction][]param.Params) []*Cell {
	var out []*Cell
	for _, d := range g.Datasets {
		for _, p := range g.Pipelines {
			for _, l := range g.Learners {
				for _, lp := range learnerParams[l] {
					for _, red := range g.Reductions {
						if !red.covers(d) || !red.meets(l) {
							continue
						}
						for _, rp := range redParams[red] {
							out = append(out, &Cell{
								Index: len(out), Dataset: d, Pipeline: p, Learner: l, Params: lp,
								Reduction: red, RedParams: rp,
								Weights: newClassWeights(classWeight(l, red), d.Classes),
							})
						}
					}
				}
			}
		}
	}
	return out
}

// fewParamSets reports whether the parameter lists of a learner or
// reduction (what, name) make at most MaxParamSets parameter sets, and
// else reports the error at rng.
func (r *resolver) fewParamSets(what, name string, params map[string]config.Param, specs []param.ParamSpec, rng hcl.Range) bool {
	n, lists := paramSets(params, specs, MaxParamSets)
	if n <= MaxParamSets {
		return true
	}
	r.errorf(rng, "Too many parameter sets",
		"%s %q: its parameter lists (%s) make more than %d parameter sets; use shorter lists.", what, name, lists, MaxParamSets)
	return false
}

// countCells returns the number of cells of g, counting no further than
// MaxCells+1.
func countCells(g *Grid, learnerParams map[*Learner][]param.Params, redParams map[*Reduction][]param.Params) int {
	n := 0
	for _, d := range g.Datasets {
		for _, l := range g.Learners {
			for _, red := range g.Reductions {
				if red.covers(d) && red.meets(l) {
					n += len(g.Pipelines) * len(learnerParams[l]) * len(redParams[red])
					if n > MaxCells {
						return n
					}
				}
			}
		}
	}
	return n
}

func (r *resolver) pipeline(p *config.Pipeline, encoders map[string]*config.Encoder) *Pipeline {
	kinds := encode.Kinds()
	out := &Pipeline{Config: p}
	ok := true
	for _, name := range p.Steps {
		e := encoders[name]
		if e == nil {
			ok = false // reported by the parser
			continue
		}
		kind, found := kinds[e.Type]
		if !found {
			names := make([]string, 0, len(kinds))
			for n := range kinds {
				names = append(names, n)
			}
			sort.Strings(names)
			r.errorf(e.TypeRange, "Unknown encoder type", "Encoder %q has type %q%s; the types are: %s.", e.Name, e.Type, suggest.DidYouMean(e.Type, names), strings.Join(names, ", "))
			ok = false
			continue
		}
		params := param.Params{}
		listed := false
		for n, p := range e.Options {
			params[n] = p.Value
			for _, spec := range kind.Options {
				if spec.Name == n && spec.Type.Scalar() && p.Value.Kind() == param.ListValue {
					r.errorf(p.Range, "Invalid encoder option", "Encoder %q: %s takes one value; encoder options do not expand into a grid (declare one encoder per value and a pipeline for each).", e.Name, n)
					listed = true
				}
			}
		}
		if listed {
			ok = false
			continue
		}
		if !r.checkParams(kind.Options, e.Options, "encoder "+e.Name) {
			ok = false
			continue
		}
		step, err := kind.New(param.WithDefaults(kind.Options, params))
		if err != nil {
			r.errorf(e.DeclRange, "Invalid encoder", "Encoder %q: %v", e.Name, err)
			ok = false
			continue
		}
		out.Steps = append(out.Steps, step)
	}
	if !ok {
		return nil
	}
	return out
}

// checkParams checks each parameter, and each element of a list given for
// a scalar parameter, against the specs, reporting at the value's location.
func (r *resolver) checkParams(specs []param.ParamSpec, params map[string]config.Param, owner string) bool {
	var valid []string
	for _, s := range specs {
		valid = append(valid, s.Name)
	}
	ok := true
	names := make([]string, 0, len(params))
	for n := range params {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := params[n]
		s, found := param.LookupSpec(specs, n)
		if !found {
			rng := p.NameRange
			if rng.Filename == "" {
				rng = p.Range
			}
			r.errorf(rng, "Unknown parameter", "%s has no parameter %q%s; its parameters are: %s.", owner, n, suggest.DidYouMean(n, valid), strings.Join(valid, ", "))
			ok = false
			continue
		}
		if p.Dist != nil {
			if err := p.Dist.CheckSpec(s); err != nil {
				r.errorf(p.Range, "Invalid search space", "%s: %s = %s: %v.", owner, n, p.Dist, err)
				ok = false
			}
			continue
		}
		values := []param.Value{p.Value}
		if s.Type.Scalar() && p.Value.Kind() == param.ListValue {
			values = p.Value.Elems()
			if len(values) == 0 {
				r.errorf(p.Range, "Invalid parameter value", "%s: %s is an empty list, so it gives no combination.", owner, n)
				ok = false
			}
		}
		for _, v := range values {
			if err := s.Check(v); err != nil {
				r.errorf(p.Range, "Invalid parameter value", "%s: %v.", owner, err)
				ok = false
			}
		}
	}
	return ok
}

func (r *resolver) plugin(name string, rng hcl.Range) *host.Plugin {
	p, err := r.host.Get(r.ctx, name)
	if errors.Is(err, host.ErrNotFound) {
		r.errorf(rng, "Unknown plugin", "%v", err)
		return nil
	}
	if err != nil {
		r.errorf(rng, "Plugin failed to start", "%v", err)
		return nil
	}
	return p
}

func (r *resolver) learner(l *config.Learner) *Learner {
	p := r.plugin(l.Plugin, l.PluginRange)
	if p == nil {
		return nil
	}
	if p.Learner == nil {
		r.errorf(l.PluginRange, "Not a learner", "Plugin %q serves no learner.", l.Plugin)
		return nil
	}
	if !r.checkParams(p.LearnerInfo.Params, l.Params, "learner "+l.Name) {
		return nil
	}
	return &Learner{Config: l, Plugin: p, Info: p.LearnerInfo}
}

func (r *resolver) reduction(rd *config.Reduction) *Reduction {
	if rd.Plugin == "" && !r.pickPlugin(rd) {
		return nil
	}
	p := r.plugin(rd.Plugin, rd.PluginRange)
	if p == nil {
		return nil
	}
	if p.Reducer == nil {
		r.errorf(rd.PluginRange, "Not a reducer", "Plugin %q serves no reducer.", rd.Plugin)
		return nil
	}
	var names []string
	for _, s := range p.ReducerInfo.Schemes {
		if s.Name == rd.Scheme {
			if !r.checkParams(s.Params, rd.Params, "reduction "+rd.Name) {
				return nil
			}
			return &Reduction{Config: rd, Plugin: p, Scheme: s}
		}
		names = append(names, s.Name)
	}
	r.errorf(rd.SchemeRange, "Unknown scheme", "Plugin %q has no scheme %q; its schemes are: %s.", rd.Plugin, rd.Scheme, strings.Join(names, ", "))
	return nil
}

// pickPlugin sets the plugin of rd, which the file leaves out, to the one
// whose reducer offers rd's scheme. When none does and there is one
// reducer, rd gets it, for its unknown-scheme error; several are an
// error asking for plugin = "...".
func (r *resolver) pickPlugin(rd *config.Reduction) bool {
	switch ok, err := r.defaultOffers(rd.Scheme); {
	case err != nil:
		r.errorf(rd.PluginRange, "Plugin failed to start", "%v", err)
		return false
	case ok:
		rd.Plugin = r.opt.DefaultReducer
		return true
	}
	if r.offers == nil {
		var err error
		if r.offers, err = r.schemes(); err != nil {
			r.errorf(rd.PluginRange, "Plugin failed to start", "%v", err)
			return false
		}
	}
	names := r.offers[rd.Scheme]
	if len(names) == 0 {
		schemes := slices.Sorted(maps.Keys(r.offers))
		var reducers []string
		for _, ps := range r.offers {
			reducers = append(reducers, ps...)
		}
		slices.Sort(reducers)
		if reducers = slices.Compact(reducers); len(reducers) == 1 {
			rd.Plugin = reducers[0]
			return true
		}
		offered := "no plugin serves a reducer"
		if len(schemes) > 0 {
			offered = "the plugins offer: " + strings.Join(schemes, ", ")
		}
		if r.startErrs != nil {
			offered += "; and some plugins failed to start: " + r.startErrs.Error()
		}
		r.errorf(rd.SchemeRange, "Unknown scheme", "No plugin offers scheme %q%s; %s.", rd.Scheme, suggest.DidYouMean(rd.Scheme, schemes), offered)
		return false
	}
	if len(names) > 1 {
		r.errorf(rd.DeclRange, "Ambiguous scheme", "Plugins %s all offer scheme %q; choose one with plugin = \"...\".", strings.Join(names, " and "), rd.Scheme)
		return false
	}
	rd.Plugin = names[0]
	return true
}

// defaultOffers reports whether the default reducer plugin offers scheme,
// which spares starting every plugin to ask (see ResolveOptions), and why
// the default, when the directory holds it, cannot start.
func (r *resolver) defaultOffers(scheme string) (bool, error) {
	if r.opt.DefaultReducer == "" {
		return false, nil
	}
	bins, err := r.host.Binaries()
	if err != nil || !slices.ContainsFunc(bins, func(b host.Binary) bool { return b.Name == r.opt.DefaultReducer }) {
		return false, nil // no default here: every plugin is asked
	}
	if r.host.Running(r.opt.DefaultReducer) == nil && !slices.Contains(r.probed, r.opt.DefaultReducer) {
		r.probed = append(r.probed, r.opt.DefaultReducer) // stopped again unless the grid uses it
	}
	p, err := r.host.Get(r.ctx, r.opt.DefaultReducer)
	if err != nil {
		return false, err
	}
	return p.ReducerInfo != nil && slices.ContainsFunc(p.ReducerInfo.Schemes, func(s plugin.Scheme) bool { return s.Name == scheme }), nil
}

// schemes starts every plugin of the host, side by side, and returns for
// each scheme the plugins whose reducer offers it, by name; a plugin that
// cannot start offers none.
func (r *resolver) schemes() (map[string][]string, error) {
	bins, err := r.host.Binaries()
	if err != nil {
		return nil, err
	}
	plugins := make([]*host.Plugin, len(bins))
	errs := make([]error, len(bins))
	var wg sync.WaitGroup
	for i, b := range bins {
		if r.host.Running(b.Name) == nil && !slices.Contains(r.probed, b.Name) {
			r.probed = append(r.probed, b.Name)
		}
		wg.Go(func() { plugins[i], errs[i] = r.host.Get(r.ctx, b.Name) })
	}
	wg.Wait()
	r.startErrs = errors.Join(errs...)
	offers := map[string][]string{}
	for _, p := range plugins {
		if p == nil || p.ReducerInfo == nil {
			continue
		}
		for _, s := range p.ReducerInfo.Schemes {
			offers[s.Name] = append(offers[s.Name], p.Name)
		}
	}
	return offers, nil
}

// prestart starts, in the background, the plugins the experiment names:
// its learners' and reductions', and the default reducer for a reduction
// that names none (probed: stopped again unless the grid uses it). Their
// processes come up while the datasets load; the resolver's own calls to
// Host.Get wait for the same start and report its failure.
func (r *resolver) prestart() {
	var names []string
	add := func(name string) {
		if name != "" && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	for _, l := range r.exp.Learners {
		add(l.Plugin)
	}
	for _, rd := range r.exp.Reductions {
		add(rd.Plugin)
		if d := r.opt.DefaultReducer; rd.Plugin == "" && d != "" && !slices.Contains(names, d) {
			if r.host.Running(d) == nil && !slices.Contains(r.probed, d) {
				r.probed = append(r.probed, d)
			}
			add(d)
		}
	}
	for _, name := range names {
		go r.host.Get(r.ctx, name) // the resolver's own Get reports a failure
	}
}

// stopProbed stops the plugins started only to ask for their schemes
// that the grid does not use.
func (r *resolver) stopProbed(g *Grid) {
	used := map[string]bool{}
	for _, p := range g.Plugins() {
		used[p.Name] = true
	}
	for _, name := range r.probed {
		if p := r.host.Running(name); p != nil && !used[name] {
			p.Stop()
		}
	}
}

// covers reports whether the reduction applies to dataset d.
func (red *Reduction) covers(d *Dataset) bool {
	ds := red.Config.Datasets
	return ds == nil || slices.Contains(ds, d.Config.Name)
}

// meets reports whether the reduction applies to learner l.
func (red *Reduction) meets(l *Learner) bool {
	ls := red.Config.Learners
	return ls == nil || slices.Contains(ls, l.Config.Name)
}

func (r *resolver) dryRun(g *Grid, d *Dataset, red *Reduction, params param.Params) {
	var plan plugin.Plan
	err := r.pluginCall(red.Plugin, "Plan", func(ctx context.Context) (err error) {
		plan, err = red.Plugin.Reducer.Plan(ctx, planRequest(r.exp.Seed, d, red, params))
		return err
	})
	label := red.Label(params)
	if errors.Is(err, errHung) {
		return
	}
	if err != nil {
		// Point at the parameter the plugin blames (its error's structured
		// field), else at the scheme.
		rng := red.Config.SchemeRange
		for _, name := range host.FaultParams(err) {
			if p, ok := red.Config.Params[name]; ok {
				rng = p.Range
				break
			}
		}
		r.errorf(rng, "Invalid reduction", "Reduction %s on dataset %q (%d classes: %s): %v",
			label, d.Config.Name, d.K(), strings.Join(d.Classes, ", "), err)
		return
	}
	g.Plans = append(g.Plans, PlanInfo{Dataset: d.Config.Name, Reduction: label, Description: plan.Description})
	if plan.Code != nil {
		g.Codes = append(g.Codes, CodeInfo{Dataset: d.Config.Name, Reduction: label, Diagnostics: plan.Diagnostics, Warnings: plan.Warnings})
	}
}

// whole returns the parameters as given, lists kept whole: a tuned cell's
// parameters, which name its candidates.
func whole(params map[string]config.Param) param.Params {
	out := param.Params{}
	for n, p := range params {
		out[n] = p.Value
		if p.Dist != nil {
			out[n] = param.String(p.Dist.String()) // its draws vary by candidate
		}
	}
	return out
}
