package report

import "github.com/polyclass/polyclass/framework/engine"

// CheckBaseline returns the error BuildTables would note for baseline name
// on the tables of the grid's cells: no row, or several rows, match (see
// FindRow). An empty name is no baseline and passes.
func CheckBaseline(cells []*engine.Cell, name string) error {
	if name == "" || len(cells) == 0 {
		return nil
	}
	results := make([]*engine.CellResult, len(cells))
	for i, c := range cells {
		results[i] = &engine.CellResult{Index: c.Index, ID: c.ID()}
	}
	rows, _, _ := rowsOf(results)
	_, err := FindRow(rows, name)
	return err
}
