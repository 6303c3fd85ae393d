package report

import (
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
	check := func(name, what string, rng hcl.Range) {
		if skip != nil && skip(name) {
			return
		}
		if err := CheckRow(ids, rows, name); err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown " + what,
				Detail: what + " " + err.Error() + ". Name a row by its short name, as the tables label it (its learner, and what tells it apart from that learner's other rows), or by some of its words in order (\"logreg ova\").", Subject: &rng})
		}
	}
	if o.Baseline != "" {
		check(o.Baseline, "baseline", o.BaselineRange)
	}
	for _, name := range o.Confusion {
		check(name, "confusion row", o.ConfusionRange)
	}
	return diags
}

// CheckRow returns the error FindRow gives for name on the tables of the
// cells ids names (a grid's, in cell order), whose rows show as rows says
// (engine.Grid.Setup; nil: by their names): no row, or several rows,
// match. It checks a baseline or a confusion row before a run.
func CheckRow(ids []outcome.ID, rows []setup.Row, name string) error {
	results := make([]*outcome.CellResult, len(ids))
	for i, id := range ids {
		results[i] = &outcome.CellResult{Index: i, ID: id}
	}
	tableRows, _, _ := rowsOf(results, newShown(rows))
	_, err := FindRow(tableRows, name)
	return err
}
