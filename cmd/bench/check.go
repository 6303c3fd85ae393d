package main

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/report"
)

// checkGrid reports what the expanded grid makes wrong in the tables a run
// would write: a baseline that names no row, or several.
func checkGrid(g *engine.Grid) hcl.Diagnostics {
	var diags hcl.Diagnostics
	out := g.Experiment.Output
	if err := report.CheckBaseline(g.Cells, out.Baseline); err != nil {
		rng := out.BaselineRange
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown baseline",
			Detail: err.Error() + ". Name a row as the tables label it, or its learner when that picks one row.", Subject: &rng})
	}
	return diags
}
