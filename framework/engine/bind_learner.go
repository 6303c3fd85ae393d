package engine

import (
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
	return &Learner{Config: l, Plugin: p, Info: p.LearnerInfo}
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
