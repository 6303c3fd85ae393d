package report

import "github.com/polyclass/polyclass/framework/engine"

// CheckRow returns the error FindRow gives for name on the tables of the
// grid's cells: no row, or several rows, match. It checks a baseline or a
// confusion row before a run.
func CheckRow(cells []*engine.Cell, name string) error {
	results := make([]*engine.CellResult, len(cells))
	for i, c := range cells {
		results[i] = &engine.CellResult{Index: c.Index, ID: c.ID()}
	}
	rows, _, _ := rowsOf(results)
	_, err := FindRow(rows, name)
	return err
}
