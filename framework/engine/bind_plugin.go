package engine

import (
	"errors"
	"slices"

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
