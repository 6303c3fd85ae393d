package report

import "strings"

// The confusion view: the confusion heat maps of the rows drawn (HTML).

// heatmapNote explains how the heat maps are normalised.
const heatmapNote = " Rows are true classes, columns predicted classes; the test rows of every fold and repeat are summed and each row is then divided by its total, " +
	"so every row sums to 1 and the diagonal is the class&rsquo;s recall. The colour bar maps shades to shares from 0 to 1."

// confusionSection is the heat maps of figs (those of kind confusion),
// with which rows they show (rows, as output { confusion } names them)
// and how they are normalised; none without heat maps.
func confusionSection(t *Tables, figs []Figure, rows []string) []section {
	var maps []Figure
	for _, f := range figs {
		if f.Kind == "confusion" {
			maps = append(maps, f)
		}
	}
	if len(maps) == 0 {
		return nil
	}
	return []section{{ID: "confusion", Title: "Confusion matrices", Nav: "Confusion matrices", In: only(htmlFormat), Blocks: []block{
		para{Text: text{{S: confusionChoice(rows, t)}, {S: heatmapNote, Style: raw}}, Class: "stats"},
		figureGrid{Class: "figs heatmaps", Figs: maps}}}}
}

// confusionChoice says which cells have a heat map.
func confusionChoice(rows []string, t *Tables) string {
	if len(rows) > 0 {
		return "One heat map per dataset for each row named by output { confusion }: " + strings.Join(rows, ", ") + "."
	}
	metric := ""
	if len(t.Metrics) > 0 {
		metric = " by " + t.Metrics[0].Metric
	}
	return "One heat map per dataset, for its best row" + metric + " (output { confusion = [...] } names others)."
}
