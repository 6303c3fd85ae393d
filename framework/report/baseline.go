package report

import "github.com/polyclass/polyclass/framework/outcome"

// CheckRow returns the error FindRow gives for name on the tables of the
// cells ids names (a grid's, in cell order): no row, or several rows,
// match. It checks a baseline or a confusion row before a run.
func CheckRow(ids []outcome.ID, name string) error {
	results := make([]*outcome.CellResult, len(ids))
	for i, id := range ids {
		results[i] = &outcome.CellResult{Index: i, ID: id}
	}
	rows, _, _ := rowsOf(results)
	_, err := FindRow(rows, name)
	return err
}
