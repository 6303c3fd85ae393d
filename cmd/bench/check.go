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
)

// checkGrid reports what the expanded grid makes wrong in the tables and
// figures a run would write: a baseline or a confusion row that names no
// row of the tables, or several. A partial grid (the file has errors, so
// some blocks did not bind) may lack the row a name means: then only a
// name that mentions no learner the file declares is reported.
func checkGrid(g *engine.Grid, partial bool) hcl.Diagnostics {
	if len(g.Cells) == 0 && !partial {
		return nil
	}
	skip := func(name string) bool { return partial && mentionsLearner(g.Experiment, name) }
	return report.CheckOutputRows(&g.Experiment.Output, g.IDs(), g.Setup(), skip)
}

// mentionsLearner reports whether name holds the name of a learner exp
// declares: a row of that learner's, which may have failed to bind.
func mentionsLearner(exp *config.Experiment, name string) bool {
	return slices.ContainsFunc(exp.Learners, func(l *config.Learner) bool { return strings.Contains(name, l.Name) })
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
