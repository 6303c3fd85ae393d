package report

import (
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/setup"
)

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
