package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/polyclass/polyclass/framework/engine"
)

// writeChosenTable lists, for every tuned cell, the parameter values its
// inner cross-validations chose, with the number of folds that chose each
// (most often first, ties in the order first chosen).
func writeChosenTable(b *strings.Builder, cells []*engine.CellResult) {
	var lines []string
	for _, c := range cells {
		if s := chosenSummary(c); s != "" {
			lines = append(lines, fmt.Sprintf("| %s | %s | %s | %s |", c.Dataset, mdEscape(c.Learner), mdEscape(c.Reduction), s))
		}
	}
	if len(lines) == 0 {
		return
	}
	b.WriteString("## Selected parameters\n\n")
	b.WriteString("| dataset | learner | reduction | chosen on the training part (folds) |\n| --- | --- | --- | --- |\n")
	b.WriteString(strings.Join(lines, "\n") + "\n\n")
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
