package report

import (
	"fmt"
	"strconv"

	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/setup"
)

// The conventions view: the metric values that the folds set by a
// convention, a zero denominator's 0/0 taken as 0 (a class never
// predicted has no precision, one without test rows no recall; an AUC
// with no class or pair to average over), per
// metric, dataset and row (Markdown and HTML). The cell files count them
// (outcome.FoldResult.Warnings); nothing else in the report shows them.

// conventionRow is one line of the conventions' table: the folds of a
// row on a dataset where some value of a metric was set by convention
// (Folds of Of) and how many values were (Values, summed over the folds).
type conventionRow struct {
	Metric  string `json:"metric"`
	Dataset string `json:"dataset"`
	Row     string `json:"row"`
	Folds   int    `json:"folds"`
	Of      int    `json:"of"`
	Values  int    `json:"values"`
}

// conventionsNote explains the conventions' table.
const conventionsNote = "Values whose denominator was zero, set to 0 as scikit-learn's zero_division=0 does: a class never predicted has no precision, " +
	"one without test rows no recall, and a per-class value set so pulls a macro average down. " +
	"A ROC AUC leaves out each class (or pair) without both positive and negative test rows, and a fold with none left has an AUC of 0 (scikit-learn raises an error there), averaged in with the others. " +
	"Folds: the folds where the metric set some value so, of the row's folds; values: how many it set, summed over those folds."

// conventionsCaption is the LaTeX caption of the conventions' table.
const conventionsCaption = "metric values set to 0 by convention (a zero denominator), per row: the folds where some were, and how many."

// conventionRows returns the lines of the conventions' table, by metric
// (t's order), dataset and row; failed cells are left out.
func conventionRows(t *Tables, cells []*outcome.CellResult) []conventionRow {
	rows := tableRows(t)
	index := make(map[setup.Key]int, len(rows))
	for i, r := range rows {
		index[r.key] = i
	}
	type at struct {
		dataset string
		row     int
	}
	cellAt := map[at]*outcome.CellResult{}
	for _, c := range cells {
		key, _ := t.shown.of(c.ID)
		if r, ok := index[key]; ok && !c.Failed() {
			cellAt[at{c.Dataset, r}] = c
		}
	}
	var out []conventionRow
	for _, m := range t.Metrics {
		for _, ds := range datasetsOf(t) {
			for r, row := range rows {
				if c := cellAt[at{ds, r}]; c != nil {
					if cr := conventionsOf(c, m.Metric); cr.Folds > 0 {
						cr.Dataset, cr.Row = ds, row.Label
						out = append(out, cr)
					}
				}
			}
		}
	}
	return out
}

// conventionsOf counts the folds of c where metric set values by
// convention, and the values.
func conventionsOf(c *outcome.CellResult, metric string) conventionRow {
	cr := conventionRow{Metric: metric, Of: len(c.Folds)}
	for _, f := range c.Folds {
		if n := f.Warnings[metric]; n > 0 {
			cr.Folds++
			cr.Values += n
		}
	}
	return cr
}

// conventionsSection is the conventions' view; none when no fold set a
// value by convention.
func conventionsSection(rows []conventionRow) []section {
	if len(rows) == 0 {
		return nil
	}
	t := table{Columns: []column{{Head: txt("metric")}, {Head: txt("dataset")}, {Head: txt("row")},
		{Head: txt("folds"), Num: true}, {Head: txt("values"), Num: true}}}
	for _, r := range rows {
		t.Rows = append(t.Rows, tableRow{Label: r.Row, Cells: cellsOf(r.Metric, r.Dataset, r.Row, fmt.Sprintf("%d of %d", r.Folds, r.Of), strconv.Itoa(r.Values))})
	}
	t.Caption, t.Label, t.Notes = txt(conventionsCaption), "conventions", []text{txt(conventionsNote)}
	return []section{{ID: "conventions", Title: "Values set by convention",
		Blocks: []block{para{Text: txt(conventionsNote), Class: "stats", In: only(mdFormat, htmlFormat)}, t}, JSON: []jsonField{{"conventions", rows}}}}
}
