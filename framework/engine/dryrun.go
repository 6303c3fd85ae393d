package engine

import (
	"context"
	"errors"
	"strings"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/plugin"
)

// dryRuns runs each pipeline once on each dataset and plans each
// reduction once on each dataset it covers, for each of its parameter
// sets: a user code matrix that does not fit the classes is an error at
// its location now, not a failed cell later.
func (r *resolver) dryRuns(b *bound) {
	g := b.grid
	for _, d := range g.Datasets {
		for _, p := range g.Pipelines {
			if r.ctx.Err() != nil {
				return
			}
			r.encodable(d, p)
		}
	}
	for _, d := range g.Datasets {
		for _, red := range g.Reductions {
			if !red.covers(d) || red.Scheme.MultiLabel != d.MultiLabel {
				continue
			}
			for _, rp := range b.redParams[red] {
				r.dryRun(g, d, red, rp)
			}
		}
	}
}

func (r *resolver) dryRun(g *Grid, d *Dataset, red *Reduction, params param.Params) {
	var plan plugin.Plan
	err := r.pluginCall(red.Plugin, "Plan", func(ctx context.Context) (err error) {
		plan, err = red.Plugin.Reducer.Plan(ctx, planRequest(r.exp.Seed, d, red, params))
		return err
	})
	label := red.Label(params)
	if errors.Is(err, errHung) {
		return
	}
	if err != nil {
		// Point at the parameter the plugin blames (its error's structured
		// field), else at the scheme.
		rng := red.Config.SchemeRange
		for _, name := range host.FaultParams(err) {
			if p, ok := red.Config.Params[name]; ok {
				rng = p.Range
				break
			}
		}
		r.errorf(rng, "Invalid reduction", "Reduction %s on dataset %q (%d classes: %s): %v",
			label, d.Config.Name, d.K(), strings.Join(d.Classes, ", "), err)
		return
	}
	g.Plans = append(g.Plans, PlanInfo{Dataset: d.Config.Name, Reduction: label, Description: plan.Description})
	if plan.Code != nil {
		g.Codes = append(g.Codes, CodeInfo{Dataset: d.Config.Name, Reduction: label, Diagnostics: plan.Diagnostics, Warnings: plan.Warnings})
	}
}
