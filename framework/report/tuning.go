package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/setup"
)

// The selected-parameters view: what the inner cross-validations of the
// tuned cells chose, and the warnings of the choices on the edge of their
// grid (every format).

// selectedCaption is the LaTeX caption of the selected-parameters table.
const selectedCaption = "parameters chosen by the inner cross-validation on each outer training part, with the number of outer folds that chose them."

// selectedSection lists, for every tuned cell (sel, see Selection), by
// dataset and its row's short name, the parameter values its inner
// cross-validations chose, with the number of folds that chose each, then
// a warning for each choice on
// the edge of its grid (edges); JSON holds both in full. No section
// without tuned cells.
func selectedSection(sel []Selection, edges []EdgeChoice) []section {
	if len(sel) == 0 {
		return nil
	}
	t := table{Caption: txt(selectedCaption), Label: "selected",
		Columns: []column{{Head: txt("dataset")}, {Head: txt("row")}, {Head: txt("chosen on the training part (folds)")}}}
	for _, s := range sel {
		t.Rows = append(t.Rows, tableRow{Cells: cellsOf(s.Dataset, s.Row, s.summary(func(x string) string { return x }))})
	}
	sec := section{ID: "selected", Title: "Selected parameters", Nav: "Selected parameters", Blocks: []block{t}, JSON: []jsonField{{"selected_parameters", sel}}}
	for _, l := range edgeLines(edges, func(x string) string { return x }) {
		sec.Blocks = append(sec.Blocks, para{Text: txt(l), Class: "stats note tuning-edge"})
	}
	if len(edges) > 0 {
		sec.JSON = append(sec.JSON, jsonField{"tuning_edges", edges})
	}
	return []section{sec}
}

// summary is "C=10 (6), C=1 (4)": the settings chosen, each escaped with
// esc, and their fold counts.
func (s Selection) summary(esc func(string) string) string {
	parts := make([]string, len(s.Chosen))
	for i, c := range s.Chosen {
		parts[i] = fmt.Sprintf("%s (%d)", esc(c.Params), c.Folds)
	}
	return strings.Join(parts, ", ")
}

// chosenCounts returns the parameter settings a cell's folds chose with
// their counts, most often first (ties in the order first chosen); none
// for a cell that was not tuned.
func chosenCounts(c *outcome.CellResult) []ChosenParams {
	count := map[string]int{}
	var order []string
	for _, f := range c.Folds {
		if f.Chosen == "" {
			continue
		}
		if count[f.Chosen] == 0 {
			order = append(order, f.Chosen)
		}
		count[f.Chosen]++
	}
	sort.SliceStable(order, func(i, j int) bool { return count[order[i]] > count[order[j]] })
	out := make([]ChosenParams, len(order))
	for i, v := range order {
		out[i] = ChosenParams{Params: v, Folds: count[v]}
	}
	return out
}

// selections returns the choices of the tuned cells, in cell order, each
// with its row's short name among rows (what the cells show, when rows
// do not have it).
func selections(cells []*outcome.CellResult, shown shownNames, rows []Row) []Selection {
	var out []Selection
	for _, c := range cells {
		if chosen := chosenCounts(c); len(chosen) > 0 {
			key, sh := shown.of(c.ID)
			out = append(out, Selection{Dataset: c.Dataset, Row: labelOf(rows, key, sh), Encoder: sh.Encoder, Learner: sh.Learner,
				Reduction: sh.Reduction, Chosen: chosen})
		}
	}
	return out
}

// labelOf is the short name of the row of rows whose cells name it key;
// what it shows (show) when rows have no such row.
func labelOf(rows []Row, key, show setup.Key) string {
	for _, r := range rows {
		if r.key == key {
			return r.Label
		}
	}
	return show.Label(false)
}
