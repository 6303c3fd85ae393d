package engine

import (
	"cmp"
	"math"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/param"
)

// bindLearner binds learner block l to its plugin p, as the host started
// it: the plugin serves a learner, and takes l's parameters, whose lists
// make few enough parameter sets. metrics are the experiment's (the first
// is a tuned learner's default tune metric) and seed its seed. It returns
// the learner and the parameter sets of its cells (nil after an error),
// and the diagnostics.
func bindLearner(l *config.Learner, p *host.Plugin, metrics []string, seed uint64) (*Learner, []param.Params, hcl.Diagnostics) {
	var ck checker
	if p.Learner == nil {
		ck.errorf(l.PluginRange, "Not a learner", "Plugin %q serves no learner.", l.Plugin)
		return nil, nil, ck.diags
	}
	if diags := config.CheckParams(p.LearnerInfo.Params, l.Params, "learner "+l.Name); diags.HasErrors() {
		// The learner does not bind, so the grid's checks of it do not
		// run; what needs only its block and its plugin is said now.
		ck.unweighable(l, p.LearnerInfo.Capabilities, l.ClassWeight)
		if l.Tune != nil {
			ck.tuneMetric(l, tuneMetricName(l.Tune, metrics))
		}
		return nil, nil, append(diags, ck.diags...)
	}
	rl := &Learner{Config: l, Plugin: p, Info: p.LearnerInfo}
	if l.Tune != nil && l.Tune.OverParam() {
		max, ok := ck.budgetResource(l, p.LearnerInfo.Params)
		if !ok {
			return nil, nil, ck.diags
		}
		rl.MaxResource = max
	}
	if !ck.fewParamSets("Learner", l.Name, l.Params, rl.Info.Params, cmp.Or(l.ParamsRange, l.DeclRange)) {
		return nil, nil, ck.diags
	}
	return rl, learnerParams(rl, metrics, seed), ck.diags
}

// learnerParams expands learner l's parameters into their combinations
// and returns the parameter sets of l's cells: the combinations, or for a
// tuned learner one set that holds every candidate (each fold picks one),
// with its tune metric set (by default the first of the experiment's
// metrics) and its candidates drawn from the experiment's seed.
func learnerParams(l *Learner, metrics []string, seed uint64) []param.Params {
	combos, tuned := expand(l.Config.Params, l.Info.Params)
	l.Tuned = tuned
	t := l.Config.Tune
	if t == nil {
		return combos
	}
	l.TuneMetric = tuneMetricName(t, metrics)
	l.Candidates = combos
	if t.Sampled() {
		l.Candidates = sampleCandidates(l.Config.Params, tuned, combos, t.NIter, cv.Seed(seed, "tune", "candidates", l.Config.Name))
	}
	return []param.Params{whole(l.Config.Params)}
}

// tuneMetricName is the metric tune block t chooses by: its own, else
// the first of the experiment's metrics ("" when it has none).
func tuneMetricName(t *config.Tune, metrics []string) string {
	if t.Metric == "" && len(metrics) > 0 {
		return metrics[0]
	}
	return t.Metric
}

// fewParamSets reports whether the parameter lists of a learner or
// reduction (what, name) make at most MaxParamSets parameter sets, and
// else reports the error at rng.
func (ck *checker) fewParamSets(what, name string, params map[string]config.Param, specs []param.ParamSpec, rng hcl.Range) bool {
	n, lists := paramSets(params, specs, MaxParamSets)
	if n <= MaxParamSets {
		return true
	}
	ck.errorf(rng, "Too many parameter sets",
		"%s %q: its parameter lists (%s) make more than %d parameter sets; use shorter lists.", what, name, lists, MaxParamSets)
	return false
}

// budgetResource checks a tune block's resource that names a parameter:
// the plugin must declare it a budget (ParamSpec.Budget), and the
// learner must give it one whole number, the largest budget (else the
// plugin's default is). It returns that largest budget.
func (ck *checker) budgetResource(l *config.Learner, specs []param.ParamSpec) (int, bool) {
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
		ck.errorf(t.ResourceRange, "Not a budget parameter", `Learner %q: resource = %q is neither "n_samples" nor a parameter plugin %q declares a budget (an integer bounding a fit's work, such as max_iter); %s.`,
			l.Name, t.Resource, l.Plugin, declared)
		return 0, false
	}
	if !ck.budgetApplies(l, specs, spec) {
		return 0, false
	}
	v := spec.Default
	if p, ok := l.Params[t.Resource]; ok {
		v = p.Value
		if p.Dist != nil || v.Kind() == param.ListValue {
			ck.errorf(p.Range, "Tuned budget parameter", `Learner %q: %s is the search's resource, which its rounds grow: give it one whole number, the largest budget (such as %s = 1000), not a list or a search space.`,
				l.Name, t.Resource, t.Resource)
			return 0, false
		}
	}
	f := v.Num()
	if math.IsNaN(f) || f < 1 || f != math.Trunc(f) || f > math.MaxInt32 {
		ck.errorf(cmp.Or(l.Params[t.Resource].Range, t.ResourceRange), "Invalid budget", `Learner %q: the largest budget %s = %v is not a whole number >= 1.`, l.Name, t.Resource, param.FormatNumber(f))
		return 0, false
	}
	return int(f), true
}

// budgetApplies reports whether the tune block's resource, budget
// parameter spec, applies to learner l with its parameters (defaults
// included; specs are its plugin's), and else reports the error at the
// resource: a budget the fit ignores (epochs under logreg's newton
// solver) would grow in each round without changing a fit. When a
// parameter is tuned (a list or a search space), applying may differ by
// candidate, and nothing is said.
func (ck *checker) budgetApplies(l *config.Learner, specs []param.ParamSpec, spec *param.ParamSpec) bool {
	fixed := param.Params{}
	for n, p := range l.Params {
		if p.Dist != nil || p.Value.Kind() == param.ListValue {
			return true
		}
		fixed[n] = p.Value
	}
	if param.Applies(specs, spec.Name, param.WithDefaults(specs, fixed), 0) {
		return true
	}
	ck.errorf(l.Tune.ResourceRange, "Budget parameter does not apply", `Learner %q: resource = %q does not apply with the learner's parameters (it applies when %s), so growing it would not change a fit: choose the budget parameter of the method the learner uses, or set the parameters it needs.`,
		l.Name, spec.Name, spec.AppliesWhenText())
	return false
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
