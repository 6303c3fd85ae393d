package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/suggest"
)

// CheckParams checks the parameters a block sets against specs, the
// schema of what it configures (a learner's, a reduction's scheme's or an
// encoder's options): each name is one of the specs, each search space
// fits its spec, and each value, and each element of a list given for a
// scalar parameter, is one its spec takes. owner names the block in the
// messages ("learner lr"). Each problem is an error at the parameter's
// location, in the order of the parameters' names.
func CheckParams(specs []param.ParamSpec, params map[string]Param, owner string) hcl.Diagnostics {
	_, diags := checkParams(specs, params, owner)
	return diags
}

// checkParams is CheckParams that also returns the spec of each
// parameter of params that specs declares (param.LookupSpec), by name:
// the bindings that follow the check take them from there.
func checkParams(specs []param.ParamSpec, params map[string]Param, owner string) (map[string]param.ParamSpec, hcl.Diagnostics) {
	var valid []string
	for _, s := range specs {
		valid = append(valid, s.Name)
	}
	var diags hcl.Diagnostics
	found := map[string]param.ParamSpec{}
	for _, n := range slices.Sorted(maps.Keys(params)) {
		p := params[n]
		s, ok := param.LookupSpec(specs, n)
		if !ok {
			rng := p.NameRange
			if rng.Filename == "" {
				rng = p.Range
			}
			diags = append(diags, paramError(rng, "Unknown parameter", "%s has no parameter %q%s; its parameters are: %s.", owner, n, suggest.DidYouMean(n, valid), strings.Join(valid, ", ")))
			continue
		}
		found[n] = s
		diags = append(diags, checkParam(s, p, n, owner)...)
	}
	return found, diags
}

// checkParam checks parameter n of owner, p, against its spec s.
func checkParam(s param.ParamSpec, p Param, n, owner string) hcl.Diagnostics {
	if p.Dist != nil {
		if err := p.Dist.CheckSpec(s); err != nil {
			return hcl.Diagnostics{paramError(p.Range, "Invalid search space", "%s: %s = %s: %v.", owner, n, p.Dist, err)}
		}
		return nil
	}
	var diags hcl.Diagnostics
	values := []param.Value{p.Value}
	if s.Type.Scalar() && p.Value.Kind() == param.ListValue {
		values = p.Value.Elems()
		if len(values) == 0 {
			diags = append(diags, paramError(p.Range, "Invalid parameter value", "%s: %s is an empty list, so it gives no combination.", owner, n))
		}
	}
	for _, v := range values {
		if err := s.Check(v); err != nil {
			diags = append(diags, paramError(p.Range, "Invalid parameter value", "%s: %v.", owner, err))
		}
	}
	return diags
}

// paramError is an error at rng, or about the whole file when rng is
// empty.
func paramError(rng hcl.Range, summary, format string, args ...any) *hcl.Diagnostic {
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...)}
	if rng.Filename != "" {
		d.Subject = &rng
	}
	return d
}
