package engine

import (
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/software"
)

// checkLearnerParams asks l's plugin to check each combination of its
// parameters (host.LearnerClient.CheckParams), reporting each problem once
// at the parameter's attribute, and sets l.Runtime: the plugin's runtime
// report and what the combinations add to it.
func (r *resolver) checkLearnerParams(l *Learner, combos []param.Params) {
	l.Runtime = slices.Clone(l.Plugin.Runtime())
	seen := map[host.ParamProblem]bool{}
	for _, p := range combos {
		check, err := l.Plugin.Learner.CheckParams(r.ctx, p)
		if err != nil {
			r.errorf(l.Config.PluginRange, "Plugin failed", "Learner %q (plugin %s) could not check its parameters: %v", l.Config.Name, l.Config.Plugin, err)
			return
		}
		for _, pr := range check.Problems {
			if seen[pr] {
				continue
			}
			seen[pr] = true
			what := "parameters"
			if pr.Param != "" {
				what = "parameter " + pr.Param
			}
			r.errorf(r.paramRange(l, pr.Param), "Invalid parameter", "Learner %q (plugin %s), %s: %s", l.Config.Name, l.Config.Plugin, what, pr.Message)
		}
		l.Runtime = software.Union(l.Runtime, check.Runtime)
	}
}

// paramRange locates parameter name of learner l: the whole attribute
// (name = value) when the experiment sets it, else the learner's params,
// else the learner block.
func (r *resolver) paramRange(l *Learner, name string) hcl.Range {
	c := l.Config
	if p, ok := c.Params[name]; ok {
		if p.NameRange.Filename != "" {
			return hcl.RangeBetween(p.NameRange, p.Range)
		}
		return p.Range
	}
	if c.ParamsRange.Filename != "" {
		return c.ParamsRange
	}
	return c.DeclRange
}
