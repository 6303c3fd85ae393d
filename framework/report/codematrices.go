package report

import (
	"strconv"

	"github.com/polyclass/polyclass/framework/outcome"
)

// The code-matrix view: the diagnostics of each reduction's code matrix
// on each dataset (Markdown and HTML).

// codeRow is one line of the code-matrix table: the diagnostics of one
// reduction's code matrix on one dataset.
type codeRow struct {
	Dataset, Reduction string
	K, L, Corrects     int
	DMin, DMean        float64
}

// codeRows returns the code-matrix diagnostics of every reduction that has
// them, once per dataset, in cell order: the same reduction may have a
// different matrix on a dataset with another number of classes.
func codeRows(cells []*outcome.CellResult, shown shownNames) []codeRow {
	type key struct{ dataset, reduction string }
	seen := map[key]bool{}
	var rows []codeRow
	for _, c := range cells {
		if c.Failed() || len(c.Folds) == 0 || c.Folds[0].Diagnostics == nil {
			continue
		}
		k := key{c.Dataset, c.Reduction}
		if seen[k] {
			continue
		}
		seen[k] = true
		d := c.Folds[0].Diagnostics
		_, sh := shown.of(c.ID)
		rows = append(rows, codeRow{Dataset: c.Dataset, Reduction: sh.Reduction, K: d.Classes, L: d.Columns,
			Corrects: d.Correcting, DMin: d.MinDistance, DMean: d.MeanDistance})
	}
	return rows
}

// codeNote explains the code-matrix table's columns (HTML only).
const codeNote = "K classes, L binary problems; d<sub>min</sub> and d<sub>mean</sub> are the smallest and mean Hamming distance between two class codes " +
	"(a 0 entry counts as &frac12;); a code corrects &lfloor;(d<sub>min</sub> &minus; 1)/2&rfloor; errors."

// codeSection is the code-matrix table (see codeRows): dataset,
// reduction, K, L, minimum and mean row distance and the error-correcting
// capability; no section without diagnostics.
func codeSection(rows []codeRow) []section {
	if len(rows) == 0 {
		return nil
	}
	t := table{Columns: []column{{Head: txt("dataset")}, {Head: txt("reduction")}, {Head: txt("K"), Num: true}, {Head: txt("L"), Num: true},
		{Head: text{{S: "d"}, {S: "min", Style: sub}}, Num: true}, {Head: text{{S: "d"}, {S: "mean", Style: sub}}, Num: true},
		{Head: txt("corrects"), Num: true}}}
	for _, r := range rows {
		t.Rows = append(t.Rows, tableRow{Cells: cellsOf(r.Dataset, r.Reduction, strconv.Itoa(r.K), strconv.Itoa(r.L),
			strconv.FormatFloat(r.DMin, 'f', -1, 64), strconv.FormatFloat(r.DMean, 'f', 2, 64), strconv.Itoa(r.Corrects))})
	}
	return []section{{ID: "code-matrices", Title: "Code matrices", Nav: "Code matrices", In: only(mdFormat, htmlFormat),
		Blocks: []block{t, para{Text: text{{S: codeNote, Style: raw}}, Class: "stats", In: only(htmlFormat)}}}}
}
