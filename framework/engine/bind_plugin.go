package engine

import (
	"errors"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/param"
)

func (r *resolver) plugin(name string, rng hcl.Range) *host.Plugin {
	p, err := r.host.Get(r.ctx, name)
	if err != nil {
		r.pluginError(err, rng)
		return nil
	}
	return p
}

// pluginError reports err, the host's answer when asked for a plugin, at
// rng.
func (r *resolver) pluginError(err error, rng hcl.Range) {
	if errors.Is(err, host.ErrNotFound) {
		r.errorf(rng, "Unknown plugin", "%v", err)
		return
	}
	r.errorf(rng, "Plugin failed to start", "%v", err)
}

// unstarted binds learner block l, whose plugin the host could not give
// (err), when the run fails the cells of such a learner
// (ResolveOptions.FailUnstarted) and the plugin's binary is there but
// did not start: the learner, whose StartErr is err, and the parameter
// sets of its cells, with a warning. Its plugin's schema is not known:
// each list of its parameters is taken as a list of choices (as for a
// parameter of a scalar type, which a learner's are but for rare lists
// of numbers), so that its cells are, as far as can be told, those of
// the plugin once it starts. Otherwise, or when the run was interrupted
// meanwhile, the error is reported and nil returned.
func (r *resolver) unstarted(l *config.Learner, err error) (*Learner, []param.Params) {
	var stub *host.Plugin
	if r.opt.FailUnstarted && r.ctx.Err() == nil && !errors.Is(err, host.ErrNotFound) {
		stub = r.host.Unstarted(l.Plugin)
	}
	if stub == nil {
		r.pluginError(err, l.PluginRange)
		return nil, nil
	}
	r.warnf(l.PluginRange, "Plugin failed to start",
		"Learner %q: its plugin did not start, so each of its cells fails with this error, while the other cells run (bench validate reports it as an error): %v", l.Name, err)
	choices := []param.ParamSpec{{Name: param.AnyName, Type: param.AnyParam}}
	sets, varied := config.Expand(l.Params, choices)
	rl := &Learner{Config: l, Plugin: stub, StartErr: err}
	return rl, learnerParams(rl, &config.BoundParams{Sets: sets, Varied: varied}, r.exp.Metrics, r.exp.Seed)
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
