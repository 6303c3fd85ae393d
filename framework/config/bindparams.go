package config

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/param"
)

// MaxParamSets bounds the parameter sets the lists of one learner's or
// reduction's parameters make (validate checks each with the plugin).
// Three lists of 999 values made validate allocate a billion parameter
// sets until it ran out of memory.
const MaxParamSets = 100_000

// BoundParams are a block's parameters bound to the schema of what it
// configures (a learner's or a reduction's scheme's).
type BoundParams struct {
	// Sets are the combinations of the parameters' lists (Expand).
	Sets []param.Params
	// Varied names the parameters that vary across Sets, or whose values
	// are drawn from a search space.
	Varied map[string]bool
	// MaxResource is a learner's largest budget, when its tune block's
	// resource names a budget parameter; 0 otherwise.
	MaxResource int
}

// BindParams binds the parameters of learner block l to specs, its
// plugin's schema: each is checked (CheckParams), a tune block's resource
// that names a parameter must be a budget parameter that applies, and the
// lists must make at most MaxParamSets parameter sets. It returns the
// bound parameters (nil after an error), whether every name and value fits
// specs (when one does not, the later checks did not run), and the
// diagnostics.
func (l *Learner) BindParams(specs []param.ParamSpec) (*BoundParams, bool, hcl.Diagnostics) {
	found, diags := checkParams(specs, l.Params, "learner "+l.Name)
	if diags.HasErrors() {
		return nil, false, diags
	}
	max := 0
	if l.Tune != nil && l.Tune.OverParam() {
		var d *hcl.Diagnostic
		if max, d = budgetResource(l, specs); d != nil {
			return nil, true, append(diags, d)
		}
	}
	if d := fewParamSets("Learner", l.Name, l.Params, found, cmp.Or(l.ParamsRange, l.DeclRange)); d != nil {
		return nil, true, append(diags, d)
	}
	sets, varied := expand(l.Params, found)
	return &BoundParams{Sets: sets, Varied: varied, MaxResource: max}, true, diags
}

// BindParams binds the parameters of reduction block rd to specs, its
// plugin's scheme's schema: each is checked (CheckParams), and the lists
// must make at most MaxParamSets parameter sets. It returns the bound
// parameters (nil after an error) and the diagnostics.
func (rd *Reduction) BindParams(specs []param.ParamSpec) (*BoundParams, hcl.Diagnostics) {
	found, diags := checkParams(specs, rd.Params, "reduction "+rd.Name)
	if diags.HasErrors() {
		return nil, diags
	}
	if d := fewParamSets("Reduction", rd.Name, rd.Params, found, rd.DeclRange); d != nil {
		return nil, hcl.Diagnostics{d}
	}
	sets, varied := expand(rd.Params, found)
	return &BoundParams{Sets: sets, Varied: varied}, nil
}

// BindOptions binds the options of encoder block e to specs, its
// encoder type's: each takes one value (encoder options do not expand
// into a grid), and each is checked (CheckParams). It returns the
// options with the defaults of specs (nil after an error) and the
// diagnostics.
func (e *Encoder) BindOptions(specs []param.ParamSpec) (param.Params, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	params := param.Params{}
	for _, n := range slices.Sorted(maps.Keys(e.Options)) {
		p := e.Options[n]
		params[n] = p.Value
		for _, spec := range specs {
			if spec.Name == n && spec.Type.Scalar() && p.Value.Kind() == param.ListValue {
				diags = append(diags, paramError(p.Range, "Invalid encoder option", "Encoder %q: %s takes one value; encoder options do not expand into a grid (declare one encoder per value and a pipeline for each).", e.Name, n))
			}
		}
	}
	if diags.HasErrors() {
		return nil, diags
	}
	if diags := CheckParams(specs, e.Options, "encoder "+e.Name); diags.HasErrors() {
		return nil, diags
	}
	return param.WithDefaults(specs, params), nil
}

// fewParamSets is nil when the parameter lists of a learner or reduction
// (what, name), whose specs are found (checkParams), make at most
// MaxParamSets parameter sets, and else the error at rng.
func fewParamSets(what, name string, params map[string]Param, found map[string]param.ParamSpec, rng hcl.Range) *hcl.Diagnostic {
	n, lists := paramSets(params, found, MaxParamSets)
	if n <= MaxParamSets {
		return nil
	}
	return paramError(rng, "Too many parameter sets",
		"%s %q: its parameter lists (%s) make more than %d parameter sets; use shorter lists.", what, name, lists, MaxParamSets)
}

// budgetResource checks a tune block's resource that names a parameter:
// the plugin must declare it a budget (ParamSpec.Budget), and the
// learner must give it one whole number, the largest budget (else the
// plugin's default is). It returns that largest budget, or the error.
func budgetResource(l *Learner, specs []param.ParamSpec) (int, *hcl.Diagnostic) {
	t := l.Tune
	var budgets []string
	var spec *param.ParamSpec
	for i, s := range specs {
		if s.Budget {
			budgets = append(budgets, s.Name)
		}
		if s.Name == t.Resource {
			spec = &specs[i]
		}
	}
	declared := "it declares none"
	if len(budgets) > 0 {
		declared = "its budget parameters are " + strings.Join(budgets, ", ")
	}
	if spec == nil || !spec.Budget {
		return 0, paramError(t.ResourceRange, "Not a budget parameter", `Learner %q: resource = %q is neither "n_samples" nor a parameter plugin %q declares a budget (an integer bounding a fit's work, such as max_iter); %s.`,
			l.Name, t.Resource, l.Plugin, declared)
	}
	if d := budgetApplies(l, specs, spec); d != nil {
		return 0, d
	}
	v := spec.Default
	if p, ok := l.Params[t.Resource]; ok {
		v = p.Value
		if p.Dist != nil || v.Kind() == param.ListValue {
			return 0, paramError(p.Range, "Tuned budget parameter", `Learner %q: %s is the search's resource, which its rounds grow: give it one whole number, the largest budget (such as %s = 1000), not a list or a search space.`,
				l.Name, t.Resource, t.Resource)
		}
	}
	f := v.Num()
	if math.IsNaN(f) || f < 1 || f != math.Trunc(f) || f > math.MaxInt32 {
		return 0, paramError(cmp.Or(l.Params[t.Resource].Range, t.ResourceRange), "Invalid budget", `Learner %q: the largest budget %s = %v is not a whole number >= 1.`, l.Name, t.Resource, param.FormatNumber(f))
	}
	return int(f), nil
}

// budgetApplies is nil when the tune block's resource, budget parameter
// spec, applies to learner l with its parameters (defaults included;
// specs are its plugin's), and else the error at the resource: a budget
// the fit ignores (epochs under logreg's newton solver) would grow in
// each round without changing a fit. When a parameter is tuned (a list or
// a search space), applying may differ by candidate, and nothing is said.
func budgetApplies(l *Learner, specs []param.ParamSpec, spec *param.ParamSpec) *hcl.Diagnostic {
	fixed := param.Params{}
	for n, p := range l.Params {
		if p.Dist != nil || p.Value.Kind() == param.ListValue {
			return nil
		}
		fixed[n] = p.Value
	}
	if param.Applies(specs, spec.Name, param.WithDefaults(specs, fixed), 0) {
		return nil
	}
	return paramError(l.Tune.ResourceRange, "Budget parameter does not apply", `Learner %q: resource = %q does not apply with the learner's parameters (it applies when %s), so growing it would not change a fit: choose the budget parameter of the method the learner uses, or set the parameters it needs.`,
		l.Name, spec.Name, spec.AppliesWhenText())
}

// ParamSets returns the number of parameter sets Expand makes of params,
// or limit+1 when there are more than limit, and the lengths of the lists
// that vary ("C 999 × tol 999").
func ParamSets(params map[string]Param, specs []param.ParamSpec, limit int) (int, string) {
	return paramSets(params, specsOf(params, specs), limit)
}

// paramSets is ParamSets of params whose specs are found, by name.
func paramSets(params map[string]Param, found map[string]param.ParamSpec, limit int) (int, string) {
	names := make([]string, 0, len(params))
	for n := range params {
		names = append(names, n)
	}
	sort.Strings(names)
	n := 1
	var lists []string
	for _, name := range names {
		values, list := gridValues(params, found, name)
		if !list {
			continue
		}
		k := len(values)
		lists = append(lists, fmt.Sprintf("%s %d", name, k))
		if k > 0 && n > limit/k {
			n = limit + 1
		} else {
			n = min(n*k, limit+1)
		}
	}
	return n, strings.Join(lists, " × ")
}

// specsOf returns the spec of each parameter of params that specs
// declares (param.LookupSpec), by name.
func specsOf(params map[string]Param, specs []param.ParamSpec) map[string]param.ParamSpec {
	found := map[string]param.ParamSpec{}
	for n := range params {
		if s, ok := param.LookupSpec(specs, n); ok {
			found[n] = s
		}
	}
	return found
}

// gridValues returns the values parameter n of params takes across the
// parameter sets, and whether they are a list's elements: a list given
// for a parameter of a scalar type (its spec in found) is a list of
// choices; any other value, a list-typed parameter's list (a code
// matrix) or an unknown name's included, is one value.
func gridValues(params map[string]Param, found map[string]param.ParamSpec, n string) ([]param.Value, bool) {
	v := params[n].Value
	if s, known := found[n]; v.Kind() == param.ListValue && known && s.Type.Scalar() {
		return v.Elems(), true
	}
	return []param.Value{v}, false
}

// Expand returns every combination of the list-valued parameters of a
// scalar type: {C = [0.1, 1], tol = 1e-6} gives two parameter sets. It
// also names the parameters that vary: those lists, and the search
// spaces, whose values are drawn.
func Expand(params map[string]Param, specs []param.ParamSpec) ([]param.Params, map[string]bool) {
	return expand(params, specsOf(params, specs))
}

// expand is Expand of params whose specs are found, by name.
func expand(params map[string]Param, found map[string]param.ParamSpec) ([]param.Params, map[string]bool) {
	varied := map[string]bool{}
	names := make([]string, 0, len(params))
	for n := range params {
		names = append(names, n)
	}
	sort.Strings(names)
	out := []param.Params{{}}
	for _, n := range names {
		choices, list := gridValues(params, found, n)
		if list {
			varied[n] = true
		}
		if params[n].Dist != nil {
			varied[n] = true
		}
		var next []param.Params
		for _, p := range out {
			for _, c := range choices {
				q := make(param.Params, len(p)+1)
				for k, x := range p {
					q[k] = x
				}
				q[n] = c
				next = append(next, q)
			}
		}
		out = next
	}
	return out, varied
}
