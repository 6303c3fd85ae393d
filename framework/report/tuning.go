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
	parts := make([]string, len(order))
	for i, v := range order {
		parts[i] = fmt.Sprintf("%s (%d)", mdEscape(v), count[v])
	}
	return strings.Join(parts, ", ")
}
