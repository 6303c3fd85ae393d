package engine

import (
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
	bp, valid, diags := l.BindParams(p.LearnerInfo.Params)
	if !valid {
		// The learner does not bind, so the grid's checks of it do not
		// run; what needs only its block and its plugin is said now.
		ck.unweighable(l, p.LearnerInfo.Capabilities, l.ClassWeight)
		if l.Tune != nil {
			ck.tuneMetric(l, tuneMetricName(l.Tune, metrics))
		}
		return nil, nil, append(diags, ck.diags...)
	}
	if bp == nil {
		return nil, nil, diags
	}
	rl := &Learner{Config: l, Plugin: p, Info: p.LearnerInfo, MaxResource: bp.MaxResource}
	return rl, learnerParams(rl, bp, metrics, seed), diags
}

// learnerParams returns the parameter sets of learner l's cells, whose
// parameters bound as bp: their combinations, or for a
// tuned learner one set that holds every candidate (each fold picks one),
// with its tune metric set (by default the first of the experiment's
// metrics) and its candidates drawn from the experiment's seed.
func learnerParams(l *Learner, bp *config.BoundParams, metrics []string, seed uint64) []param.Params {
	combos, tuned := bp.Sets, bp.Varied
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
