package engine

import (
	"errors"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/plugin"
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
	bp, diags := rd.BindParams(s.Params)
	if bp == nil {
		return nil, nil, diags
	}
	rr := &Reduction{Config: rd, Plugin: p, Scheme: s, Varied: bp.Varied}
	ck.labelShadows(rr)
	return rr, bp.Sets, ck.diags
}

// pickPlugin sets the plugin of rd, which the file leaves out, to the one
// the host's picker chooses for rd's scheme (host.Picker.Reducer),
// reporting why there is none.
func (r *resolver) pickPlugin(rd *config.Reduction) bool {
	name, err := r.plugins.Reducer(r.ctx, rd.Scheme)
	var unknown *host.UnknownSchemeError
	var ambiguous *host.AmbiguousSchemeError
	switch {
	case errors.As(err, &unknown):
		r.errorf(rd.SchemeRange, "Unknown scheme", "%v", err)
	case errors.As(err, &ambiguous):
		r.errorf(rd.DeclRange, "Ambiguous scheme", "%v", err)
	case err != nil:
		r.errorf(rd.PluginRange, "Plugin failed to start", "%v", err)
	default:
		rd.Plugin = name
		return true
	}
	return false
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
