package main

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/report"
)

// checkGrid reports what the expanded grid makes wrong in the tables and
// figures a run would write: a baseline or a confusion row that names no
// row of the tables, or several.
func checkGrid(g *engine.Grid) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if len(g.Cells) == 0 {
		return nil
	}
	out := g.Experiment.Output
	ids := g.IDs()
	row := func(name, what string, rng hcl.Range) {
		if err := report.CheckRow(ids, name); err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown " + what,
				Detail: what + " " + err.Error() + ". Name a row as the tables label it, or its learner when that picks one row.", Subject: &rng})
		}
	}
	if out.Baseline != "" {
		row(out.Baseline, "baseline", out.BaselineRange)
	}
	for _, name := range out.Confusion {
		row(name, "confusion row", out.ConfusionRange)
	}
	return diags
}
