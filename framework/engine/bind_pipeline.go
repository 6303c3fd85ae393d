package engine

import (
	"sort"
	"strings"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/encode"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/suggest"
)

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
