package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/cellspec"
	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/report"
	"github.com/polyclass/polyclass/framework/results"
)

// checkGrid reports what the expanded grid makes wrong in the tables and
// figures a run would write: a baseline or a confusion row that names no
// row of the tables, or several. A partial grid (the file has errors, so
// some blocks did not bind) is checked with every dataset and pipeline
// the file declares (Grid.Declared), but it may still lack the row a name
// means, or name it otherwise: a name that mentions a learner, reduction
// or pipeline whose rows may be missing (unsureNames) is left unreported,
// and every other name is checked.
func checkGrid(g *engine.Grid, partial bool) hcl.Diagnostics {
	if len(g.Cells) == 0 && !partial {
		return nil
	}
	var unsure []string
	if partial {
		g = g.Declared()
		unsure = unsureNames(g)
	}
	skip := func(name string) bool {
		return slices.ContainsFunc(unsure, func(n string) bool { return strings.Contains(name, n) })
	}
	return report.CheckOutputRows(&g.Experiment.Output, g.IDs(), g.Setup(), skip)
}

// unsureNames returns the names that a row missing from the partial grid
// g, or named otherwise in it, may carry: the name and label of each
// learner, reduction and pipeline that has no cell in g or whose block
// holds an error of the parser's (Experiment.Faulty: what it read of the
// block may be incomplete), and in a file read in part the name of each
// such block its text declares that has no cell. A row whose learner,
// reduction and pipeline all have cells and no such error is in g as a
// whole file would make it, whatever else failed (a dataset, a metric,
// another learner): a name that mentions none of these names is checked.
func unsureNames(g *engine.Grid) []string {
	exp := g.Experiment
	has := map[[2]string]bool{}
	for _, c := range g.Cells {
		has[[2]string{"learner", c.Learner.Config.Name}] = true
		has[[2]string{"reduction", c.Reduction.Config.Name}] = true
		has[[2]string{"pipeline", c.Pipeline.Config.Name}] = true
	}
	var out []string
	add := func(kind, name, label string, decl hcl.Range) {
		if has[[2]string{kind, name}] && !slices.ContainsFunc(exp.Faulty, decl.Overlaps) {
			return
		}
		out = append(out, name)
		if label != "" {
			out = append(out, label)
		}
	}
	for _, l := range exp.Learners {
		add("learner", l.Name, l.Label, l.DeclRange)
	}
	for _, r := range exp.Reductions {
		add("reduction", r.Name, r.Label, r.DeclRange)
	}
	for _, p := range exp.Pipelines {
		add("pipeline", p.Name, p.Label, p.DeclRange)
	}
	for k := range exp.InText {
		if (k[0] == "learner" || k[0] == "reduction" || k[0] == "pipeline") && !has[k] {
			out = append(out, k[1])
		}
	}
	return out
}

// checkIdentities refuses two cells with one identity (one spec, so one
// digest): a parameter list that repeats a value (params = { C = [1, 1] })
// would give two cells that are one, and every later run would move one
// aside and compute it again. The error is located at the list.
func checkIdentities(g *engine.Grid) hcl.Diagnostics {
	var diags hcl.Diagnostics
	first := map[string]int{}
	reported := map[hcl.Range]bool{}
	for i, s := range engine.Specs(g, cellspec.Build{}) {
		d := s.Digest()
		j, dup := first[d]
		if !dup {
			first[d] = i
			continue
		}
		c := g.Cells[i]
		owner, name, p := repeated(c)
		rng := &c.Learner.Config.DeclRange
		detail := fmt.Sprintf("Cells %d and %d (%s) have one spec, so one identity: one cell computed twice.", j, i, c.ID().Key())
		if p != nil {
			rng = &p.Range
			detail = fmt.Sprintf("%s: %s lists a value twice, so cells %d and %d (%s) have one spec, one identity: one cell computed twice. Remove the repeated value.",
				owner, name, j, i, c.ID().Key())
		}
		if reported[*rng] {
			continue
		}
		reported[*rng] = true
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate cells", Detail: detail, Subject: rng})
	}
	return diags
}

// repeated finds the parameter list of cell c's learner or reduction that
// repeats a value: its block, name and value as written; nil when none.
func repeated(c *engine.Cell) (string, string, *config.Param) {
	blocks := []struct {
		owner  string
		params map[string]config.Param
	}{
		{fmt.Sprintf("learner %q", c.Learner.Config.Name), c.Learner.Config.Params},
		{fmt.Sprintf("reduction %q", c.Reduction.Config.Name), c.Reduction.Config.Params},
	}
	for _, b := range blocks {
		for _, name := range slices.Sorted(maps.Keys(b.params)) {
			p := b.params[name]
			if p.Value.Kind() != param.ListValue {
				continue
			}
			seen := map[string]bool{}
			for _, e := range p.Value.Elems() {
				key := fmt.Sprint(e.Kind()) + " " + e.String()
				if seen[key] {
					return b.owner, name, &p
				}
				seen[key] = true
			}
		}
	}
	return "", "", nil
}

// checkExperimentName refuses an experiment name whose report would take
// the name of a file the results directory keeps for itself or of an
// output of a fixed name (results.NameClash: experiment "manifest" would
// write its JSON report to manifest.json, over the run manifest), at the
// name.
func checkExperimentName(exp *config.Experiment) hcl.Diagnostics {
	report, clash := results.NameClash(exp.Name)
	if report == "" {
		return nil
	}
	rng := exp.NameRange
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Reserved experiment name", Subject: &rng,
		Detail: fmt.Sprintf("Experiment %q: its report %s would take the place of %s in the results directory, a name bench keeps for a file of its own, and one of the two would be lost (names are compared without regard to case, as macOS and Windows compare file names); rename the experiment.",
			exp.Name, report, clash)}}
}
