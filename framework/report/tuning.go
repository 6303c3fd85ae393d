package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/polyclass/polyclass/framework/outcome"
)

// writeChosenTable lists, for every tuned cell (sel, see Selection), the
// parameter values its inner cross-validations chose, with the number of
// folds that chose each; a pipeline column tells the cells apart when the
// tuned cells have several pipelines.
func writeChosenTable(b *strings.Builder, sel []Selection) {
	if len(sel) == 0 {
		return
	}
	showEnc := encodersDiffer(sel)
	b.WriteString("## Selected parameters\n\n")
	if showEnc {
		b.WriteString("| dataset | pipeline | learner | reduction | chosen on the training part (folds) |\n| --- | --- | --- | --- | --- |\n")
	} else {
		b.WriteString("| dataset | learner | reduction | chosen on the training part (folds) |\n| --- | --- | --- | --- |\n")
	}
	for _, s := range sel {
		enc := ""
		if showEnc {
			enc = " " + mdEscape(s.Encoder) + " |"
		}
		fmt.Fprintf(b, "| %s |%s %s | %s | %s |\n", mdEscape(s.Dataset), enc, mdEscape(s.Learner), mdEscape(s.Reduction), s.summary(mdEscape))
	}
	b.WriteString("\n")
}

// encodersDiffer reports whether the tuned cells of sel have more than one
// pipeline: the tables then need a pipeline column to tell them apart.
func encodersDiffer(sel []Selection) bool {
	for _, s := range sel {
		if s.Encoder != sel[0].Encoder {
			return true
		}
	}
	return false
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

// selections returns the choices of the tuned cells, in cell order.
func selections(cells []*outcome.CellResult, shown shownNames) []Selection {
	var out []Selection
	for _, c := range cells {
		if chosen := chosenCounts(c); len(chosen) > 0 {
			_, sh := shown.of(c.ID)
			out = append(out, Selection{Dataset: c.Dataset, Encoder: sh.Encoder, Learner: sh.Learner, Reduction: sh.Reduction, Chosen: chosen})
		}
	}
	return out
}
