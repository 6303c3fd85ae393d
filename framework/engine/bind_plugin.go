package engine

import (
	"errors"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/host"
)

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
