package report

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/setup"
)

// CheckOutputRows checks the rows output block o names, its baseline and
// its confusion rows, against the tables of the cells ids names, whose
// rows show as rows says (see CheckRow): each must name one row. A name
// skip reports true for is not checked (nil: every name is). Each problem
// is an error at the attribute that names the row.
func CheckOutputRows(o *config.Output, ids []outcome.ID, rows []setup.Row, skip func(name string) bool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	tableRows := tableRowsOf(ids, rows)
	check := func(name, what string, rng hcl.Range) int {
		if skip != nil && skip(name) {
			return -1
		}
		i, err := FindRow(tableRows, name)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown " + what,
				Detail: what + " " + err.Error() + ". Name a row by its short name, as the tables label it (its learner, and what tells it apart from that learner's other rows), or by some of its words in order (\"logreg ova\").", Subject: &rng})
		}
		return i
	}
	if o.Baseline != "" {
		check(o.Baseline, "baseline", o.BaselineRange)
	}
	named := map[int]int{} // a row to the first confusion entry that names it
	for j, name := range o.Confusion {
		rng := o.ConfusionRange
		if j < len(o.ConfusionRanges) {
			rng = o.ConfusionRanges[j]
		}
		i := check(name, "confusion row", rng)
		if i < 0 {
			continue
		}
		prev, dup := named[i]
		switch {
		case !dup:
			named[i] = j
		case o.Confusion[prev] != name: // the same text is the parser's error
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate confusion row",
				Detail: fmt.Sprintf("Confusion rows %q and %q both name row %q, whose figures would be drawn twice; list the row once.", o.Confusion[prev], name, tableRows[i].Label), Subject: &rng})
		}
	}
	return diags
}

// tableRowsOf returns the rows of the tables of the cells ids names,
// whose rows show as rows says (see CheckRow).
func tableRowsOf(ids []outcome.ID, rows []setup.Row) []Row {
	results := make([]*outcome.CellResult, len(ids))
	for i, id := range ids {
		results[i] = &outcome.CellResult{Index: i, ID: id}
	}
	tableRows, _, _ := rowsOf(results, newShown(rows))
	return tableRows
}

// CheckRow returns the error FindRow gives for name on the tables of the
// cells ids names (a grid's, in cell order), whose rows show as rows says
// (engine.Grid.Setup; nil: by their names): no row, or several rows,
// match. It checks a baseline or a confusion row before a run.
func CheckRow(ids []outcome.ID, rows []setup.Row, name string) error {
	_, err := FindRow(tableRowsOf(ids, rows), name)
	return err
}
