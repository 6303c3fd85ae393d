package engine

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/suggest"
)

// bindReduction binds reduction block rd to its plugin p, as the host
// started it: the plugin serves a reducer that offers rd's scheme, which
// takes rd's parameters, whose lists make few enough parameter sets. It
// returns the reduction and the parameter sets of its cells (nil after an
// error), and the diagnostics, with a warning when rd's label shadows a
// parameter of the scheme.
func bindReduction(rd *config.Reduction, p *host.Plugin) (*Reduction, []param.Params, hcl.Diagnostics) {
	var ck checker
	if p.Reducer == nil {
		ck.errorf(rd.PluginRange, "Not a reducer", "Plugin %q serves no reducer.", rd.Plugin)
		return nil, nil, ck.diags
	}
	i := slices.IndexFunc(p.ReducerInfo.Schemes, func(s plugin.Scheme) bool { return s.Name == rd.Scheme })
	if i < 0 {
		var names []string
		for _, s := range p.ReducerInfo.Schemes {
			names = append(names, s.Name)
		}
		ck.errorf(rd.SchemeRange, "Unknown scheme", "Plugin %q has no scheme %q; its schemes are: %s.", rd.Plugin, rd.Scheme, strings.Join(names, ", "))
		return nil, nil, ck.diags
	}
	s := p.ReducerInfo.Schemes[i]
	if diags := config.CheckParams(s.Params, rd.Params, "reduction "+rd.Name); diags.HasErrors() {
		return nil, nil, diags
	}
	if !ck.fewParamSets("Reduction", rd.Name, rd.Params, s.Params, rd.DeclRange) {
		return nil, nil, ck.diags
	}
	rr := &Reduction{Config: rd, Plugin: p, Scheme: s}
	ck.labelShadows(rr)
	var sets []param.Params
	sets, rr.Varied = expand(rd.Params, s.Params)
	return rr, sets, ck.diags
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
