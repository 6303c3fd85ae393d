package engine

import (
	"errors"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/plugin"
)

// pluginError reports err, the host's answer when asked for a plugin, at
// rng.
func (r *resolver) pluginError(err error, rng hcl.Range) {
	if errors.Is(err, host.ErrNotFound) {
		r.errorf(rng, "Unknown plugin", "%v", err)
		return
	}
	r.errorf(rng, "Plugin failed to start", "%v", err)
}

// learner binds learner block l with its plugin (bindLearner), or, when
// the plugin does not start, as unstarted does; it returns the learner
// and the parameter sets of its cells, nil after an error.
func (r *resolver) learner(l *config.Learner) (*Learner, []param.Params) {
	p, err := r.host.Get(r.ctx, l.Plugin)
	if err != nil {
		return r.unstarted(l, err)
	}
	rl, sets, diags := bindLearner(l, p, r.exp.Metrics, r.exp.Seed)
	r.diags = append(r.diags, diags...)
	return rl, sets
}

// reduction binds reduction block rd with its plugin, the one that
// offers its scheme when rd names none (pickPlugin), or, when the plugin
// does not start, as unstartedReduction does; it returns the reduction
// and the parameter sets of its cells, nil after an error.
func (r *resolver) reduction(rd *config.Reduction) (*Reduction, []param.Params) {
	if rd.Plugin == "" && !r.pickPlugin(rd) {
		return nil, nil
	}
	p, err := r.host.Get(r.ctx, rd.Plugin)
	if err != nil {
		return r.unstartedReduction(rd, err)
	}
	rr, sets, diags := bindReduction(rd, p)
	r.diags = append(r.diags, diags...)
	return rr, sets
}

// unstarted binds learner block l, whose plugin the host could not give
// (err), when the run fails the cells of such a learner
// (ResolveOptions.FailUnstarted) and the plugin's binary is there but
// did not start: the learner, whose StartErr is err, and the parameter
// sets of its cells (unstartedSets), with a warning. Otherwise, or when
// the run was interrupted meanwhile, the error is reported and nil
// returned.
func (r *resolver) unstarted(l *config.Learner, err error) (*Learner, []param.Params) {
	stub := r.stub(l.Plugin, l.PluginRange, err, "Learner", l.Name)
	if stub == nil {
		return nil, nil
	}
	sets, varied := unstartedSets(l.Params)
	rl := &Learner{Config: l, Plugin: stub, StartErr: err}
	return rl, learnerParams(rl, &config.BoundParams{Sets: sets, Varied: varied}, r.exp.Metrics, r.exp.Seed)
}

// unstartedReduction is unstarted for reduction block rd: the reduction,
// of rd's scheme by name alone, whose StartErr is err, and the parameter
// sets of its cells.
func (r *resolver) unstartedReduction(rd *config.Reduction, err error) (*Reduction, []param.Params) {
	stub := r.stub(rd.Plugin, rd.PluginRange, err, "Reduction", rd.Name)
	if stub == nil {
		return nil, nil
	}
	sets, varied := unstartedSets(rd.Params)
	return &Reduction{Config: rd, Plugin: stub, Scheme: plugin.Scheme{Name: rd.Scheme}, Varied: varied, StartErr: err}, sets
}

// stub returns the stand-in of plugin name (host.Host.Unstarted), which
// the host could not give (err), and warns at rng that the cells of
// block name (of kind what) fail, when the run keeps such a block
// (ResolveOptions.FailUnstarted), the binary is there, and the run was
// not interrupted; otherwise it reports err at rng and returns nil.
func (r *resolver) stub(name string, rng hcl.Range, err error, what, block string) *host.Plugin {
	var stub *host.Plugin
	if r.opt.FailUnstarted && r.ctx.Err() == nil && !errors.Is(err, host.ErrNotFound) {
		stub = r.host.Unstarted(name)
	}
	if stub == nil {
		r.pluginError(err, rng)
		return nil
	}
	r.warnf(rng, "Plugin failed to start",
		"%s %q: its plugin did not start, so each of its cells fails with this error, while the other cells run (bench validate reports it as an error): %v", what, block, err)
	return stub
}

// unstartedSets returns the parameter sets of params, a block's whose
// plugin did not start, and the parameters that vary. The plugin's
// schema is not known: a list of numbers, strings or booleans is taken as
// a list of choices, as for a parameter of a scalar type (which a
// learner's are, but for rare lists), and a list of lists (a code
// matrix) as one value, so that the cells are, as far as can be told,
// those of the plugin once it starts.
func unstartedSets(params map[string]config.Param) ([]param.Params, map[string]bool) {
	var specs []param.ParamSpec
	for n, p := range params {
		t := param.AnyParam
		if p.Value.Kind() == param.ListValue && slices.ContainsFunc(p.Value.Elems(), func(v param.Value) bool { return v.Kind() == param.ListValue }) {
			t = param.NumberMatrixParam
		}
		specs = append(specs, param.ParamSpec{Name: n, Type: t})
	}
	return config.Expand(params, specs)
}

// prestart starts, in the background, the plugins the experiment names
// (host.Host.Prestart): its learners' and reductions', and the default
// reducer for a reduction that names none.
func (r *resolver) prestart() {
	var learners, reductions []string
	for _, l := range r.exp.Learners {
		learners = append(learners, l.Plugin)
	}
	for _, rd := range r.exp.Reductions {
		reductions = append(reductions, rd.Plugin)
	}
	r.plugins = r.host.Prestart(r.ctx, learners, reductions, r.opt.DefaultReducer)
}

// stopProbed stops the plugins started only to ask for their schemes
// that the grid does not use.
func (r *resolver) stopProbed(g *Grid) {
	used := map[string]bool{}
	for _, p := range g.Plugins() {
		used[p.Name] = true
	}
	r.plugins.StopUnused(used)
}
