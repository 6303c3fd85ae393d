package engine

import (
	"context"
	"errors"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/problem"
	"github.com/polyclass/polyclass/framework/safetext"
	"github.com/polyclass/polyclass/framework/software"
)

// checkLearnerParams asks l's plugin to check each combination of its
// parameters (host.LearnerClient.CheckParams), reporting each problem once
// at the parameter's attribute, and sets l.Runtime: the plugin's runtime
// report and what the combinations add to it. Components whose text
// Info's rule refuses (host.CheckRuntime) refuse the learner, at its
// params (or its block).
func (r *resolver) checkLearnerParams(l *Learner, combos []param.Params) {
	l.Runtime = slices.Clone(l.Plugin.Runtime())
	seen := map[host.ParamProblem]bool{}
	for _, p := range combos {
		var check host.ParamCheck
		err := r.pluginCall(l.Plugin, "CheckParams", func(ctx context.Context) (err error) {
			check, err = l.Plugin.Learner.CheckParams(ctx, p)
			return err
		})
		if errors.Is(err, errHung) {
			return
		}
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
				what = "parameter " + paramName(pr.Param)
			}
			r.errorf(r.paramRange(l, pr.Param), "Invalid parameter", "Learner %q (plugin %s), %s: %s", l.Config.Name, l.Config.Plugin, what, safetext.OneLine(pr.Message))
		}
		if err := host.CheckRuntime("CheckParams", check.Runtime); err != nil {
			r.errorf(r.paramRange(l, ""), "Plugin answer refused", "Learner %q (plugin %s) could not check its parameters: %v", l.Config.Name, l.Config.Plugin, err)
			return
		}
		l.Runtime = software.Union(l.Runtime, check.Runtime)
	}
}

// paramName shows a parameter name in a message: as it is, or Go-quoted
// when it holds a character that Check refuses or that does not show (a
// newline, ESC, a bidi control), so that the message stays one line and
// shows the name the experiment file holds ("C\u202e\n").
func paramName(name string) string {
	if safetext.CheckVisible(name) != nil {
		return safetext.Show(name)
	}
	return name
}

// paramRange locates parameter name of learner l (see learnerParamRange).
func (r *resolver) paramRange(l *Learner, name string) hcl.Range {
	return learnerParamRange(l.Config, name)
}

// learnerParamRange locates parameter name of learner c: the whole
// attribute (name = value) when the experiment sets it, else the
// learner's params, else the learner block.
func learnerParamRange(c *config.Learner, name string) hcl.Range {
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

// paramsApply warns at each parameter the experiment file sets on
// learner l that applies (param.Applies) under none of l's parameter
// sets (its candidates, when tuned) and none of the reductions it meets
// in g: the plugin fits without it (epochs = 50 with solver = "newton").
// A learner without parameter sets (its tune block in error) is left
// alone.
func (ck *checker) paramsApply(g *Grid, l *Learner) {
	if l.Info == nil || len(l.Config.Params) == 0 {
		return
	}
	var kinds []problem.ProblemKind
	for _, red := range g.Reductions {
		if red.meets(l) && red.StartErr == nil && !slices.Contains(kinds, red.learnerProblems()) {
			kinds = append(kinds, red.learnerProblems())
		}
	}
	if len(kinds) == 0 {
		kinds = []problem.ProblemKind{0} // no reduction meets l: the kind is not known
	}
	sets := l.Candidates
	if sets == nil {
		sets, _ = config.Expand(l.Config.Params, l.Info.Params)
	}
	if len(sets) == 0 {
		// No combination to judge by: a tune block in error (n_iter = 0
		// beside a search space, which does not expand) is reported at
		// its place, and every parameter would read as not applying.
		return
	}
	specs := l.Info.Params
	for _, name := range slices.Sorted(maps.Keys(l.Config.Params)) {
		if appliesSomewhere(specs, name, sets, kinds) {
			continue
		}
		s, _ := param.LookupSpec(specs, name)
		ck.warnf(learnerParamRange(l.Config, name), "Parameter does not apply",
			"Learner %q (plugin %s): %s applies only when %s, which no combination of this experiment meets; the plugin fits without it.",
			l.Config.Name, l.Config.Plugin, name, s.AppliesWhenText())
	}
}

// appliesSomewhere reports whether parameter name applies under some
// parameter set of sets for some problem kind of kinds.
func appliesSomewhere(specs []param.ParamSpec, name string, sets []param.Params, kinds []problem.ProblemKind) bool {
	for _, set := range sets {
		full := param.WithDefaults(specs, set)
		for _, k := range kinds {
			if param.Applies(specs, name, full, k) {
				return true
			}
		}
	}
	return false
}
