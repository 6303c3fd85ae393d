package engine

import (
	"cmp"
	"math"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/param"
)

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
	out := &Learner{Config: l, Plugin: p, Info: p.LearnerInfo}
	if l.Tune != nil && l.Tune.OverParam() {
		max, ok := r.budgetResource(l, p.LearnerInfo.Params)
		if !ok {
			return nil
		}
		out.MaxResource = max
	}
	return out
}

// budgetResource checks a tune block's resource that names a parameter:
// the plugin must declare it a budget (ParamSpec.Budget), and the
// learner must give it one whole number, the largest budget (else the
// plugin's default is). It returns that largest budget.
func (r *resolver) budgetResource(l *config.Learner, specs []param.ParamSpec) (int, bool) {
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
		r.errorf(t.ResourceRange, "Not a budget parameter", `Learner %q: resource = %q is neither "n_samples" nor a parameter plugin %q declares a budget (an integer bounding a fit's work, such as max_iter); %s.`,
			l.Name, t.Resource, l.Plugin, declared)
		return 0, false
	}
	v := spec.Default
	if p, ok := l.Params[t.Resource]; ok {
		v = p.Value
		if p.Dist != nil || v.Kind() == param.ListValue {
			r.errorf(p.Range, "Tuned budget parameter", `Learner %q: %s is the search's resource, which its rounds grow: give it one whole number, the largest budget (such as %s = 1000), not a list or a search space.`,
				l.Name, t.Resource, t.Resource)
			return 0, false
		}
	}
	f := v.Num()
	if math.IsNaN(f) || f < 1 || f != math.Trunc(f) || f > math.MaxInt32 {
		r.errorf(cmp.Or(l.Params[t.Resource].Range, t.ResourceRange), "Invalid budget", `Learner %q: the largest budget %s = %v is not a whole number >= 1.`, l.Name, t.Resource, param.FormatNumber(f))
		return 0, false
	}
	return int(f), true
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
