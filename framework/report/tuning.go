package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/polyclass/polyclass/framework/engine"
)

// writeChosenTable lists, for every tuned cell, the parameter values its
// inner cross-validations chose, with the number of folds that chose each
// (most often first, ties in the order first chosen); an encoder column
// tells the cells apart when the tuned cells have several encoders.
func writeChosenTable(b *strings.Builder, cells []*engine.CellResult) {
	var tuned []*engine.CellResult
	encoders := map[string]bool{}
	for _, c := range cells {
		if chosenSummary(c) != "" {
			tuned = append(tuned, c)
			encoders[c.Encoder] = true
		}
	}
	if len(tuned) == 0 {
		return
	}
	showEnc := len(encoders) > 1
	b.WriteString("## Selected parameters\n\n")
	if showEnc {
		b.WriteString("| dataset | encoder | learner | reduction | chosen on the training part (folds) |\n| --- | --- | --- | --- | --- |\n")
	} else {
		b.WriteString("| dataset | learner | reduction | chosen on the training part (folds) |\n| --- | --- | --- | --- |\n")
	}
	for _, c := range tuned {
		enc := ""
		if showEnc {
			enc = " " + mdEscape(c.Encoder) + " |"
		}
		fmt.Fprintf(b, "| %s |%s %s | %s | %s |\n", c.Dataset, enc, mdEscape(c.Learner), mdEscape(c.Reduction), chosenSummary(c))
	}
	b.WriteString("\n")
}

// chosenSummary is "C=10 (6), C=1 (4)" for a tuned cell, "" otherwise.
func chosenSummary(c *engine.CellResult) string {
	chosen := chosenCounts(c)
	parts := make([]string, len(chosen))
	for i, p := range chosen {
		parts[i] = fmt.Sprintf("%s (%d)", mdEscape(p.Params), p.Folds)
	}
	return strings.Join(parts, ", ")
}

// chosenCounts returns the parameter settings a cell's folds chose with
// their counts, most often first (ties in the order first chosen); none
// for a cell that was not tuned.
func chosenCounts(c *engine.CellResult) []ChosenParams {
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

// selections returns the choices of the tuned cells, in cell order.
func selections(cells []*engine.CellResult) []Selection {
	var out []Selection
	for _, c := range cells {
		if chosen := chosenCounts(c); len(chosen) > 0 {
			out = append(out, Selection{Dataset: c.Dataset, Encoder: c.Encoder, Learner: c.Learner, Reduction: c.Reduction, Chosen: chosen})
		}
	}
	return out
}
