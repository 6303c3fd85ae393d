package report

import (
	"fmt"
	"math"
	"strings"
)

// The comparison view: per metric, the comparison table with its marks
// and statistics, the Bayesian table and, in HTML, the metric's figures,
// its Bayesian plots folded (Markdown, HTML, LaTeX; JSON has the metrics
// in full, see jsonMetrics).

// metricSections is the comparison view of every metric of t, each with
// the figures of figs drawn for it (HTML): its Bayesian plots, one per
// pair of rows (dozens, each half a screen high), folded under one line,
// so that the next metric's table follows this one's closely.
func metricSections(t *Tables, figs []Figure) []section {
	var out []section
	for _, c := range t.Metrics {
		sec := section{ID: "metric-" + fileSafe(c.Metric), Title: c.Metric, Nav: c.Metric, Aside: direction(c.HigherIsBetter), Class: "metric",
			Data: []dataAttr{{"metric", c.Metric}}, In: only(mdFormat, htmlFormat, texFormat)}
		sec.Blocks = append(sec.Blocks, comparisonTable(c))
		for _, l := range statPara(c) {
			sec.Blocks = append(sec.Blocks, l)
		}
		sec.Blocks = append(sec.Blocks, bayesBlocks(c)...)
		sec.Blocks = append(sec.Blocks, metricGrids(c.Metric, figs)...)
		out = append(out, sec)
	}
	return out
}

// metricGrids are the grids of metric's figures of figs: its other
// figures shown, its Bayesian plots folded under a line that counts
// them; none without figures.
func metricGrids(metric string, figs []Figure) []block {
	var shown, bayes []Figure
	for _, f := range figs {
		switch {
		case f.Metric != metric:
		case f.Kind == "bayes":
			bayes = append(bayes, f)
		default:
			shown = append(shown, f)
		}
	}
	var out []block
	if len(shown) > 0 {
		out = append(out, figureGrid{Class: "figs", Figs: shown})
	}
	if len(bayes) > 0 {
		out = append(out, figureGrid{Class: "figs", Figs: bayes,
			Fold: txt(fmt.Sprintf("%s of %s (click to show)", plural(len(bayes), "Bayesian plot"), metric))})
	}
	return out
}

// comparisonTable is the table of c: each row's short name (Row.Label;
// the set-up table says what it is in full), an entry per dataset, the
// average rank and w/t/l; its statistics are under it in LaTeX (statPara
// in the others).
func comparisonTable(c *Comparison) table {
	t := table{Class: "cmp", Data: []dataAttr{{"metric", c.Metric}}, Label: texLabel(c.Metric),
		Caption: txt(c.Metric + " (" + direction(c.HigherIsBetter) + "), mean ± std over folds.")}
	t.Columns = append(t.Columns, column{Head: txt("row"), Sort: "text"})
	for _, d := range columnHeads(c) {
		t.Columns = append(t.Columns, column{Head: txt(d), Num: true, Sort: "num"})
	}
	for _, h := range rankHeads(c) {
		sort := "num"
		if h == "w/t/l" {
			sort = "text"
		}
		t.Columns = append(t.Columns, column{Head: text{alt(h, h, strings.Replace(h, "avg. ", `avg.\ `, 1))}, Num: true, Sort: sort})
	}
	for r, row := range c.Rows {
		cells := cellsOf(row.Label)
		for d := range c.Datasets {
			cells = append(cells, entryCell(c.Entries[r][d]))
		}
		for i, v := range rankFields(c, r) {
			rc := cell{Text: txt(v)}
			if i == 0 && c.Ranked && !math.IsNaN(c.AvgRank[r]) {
				rc.Data = []dataAttr{{"v", num(c.AvgRank[r])}}
			}
			cells = append(cells, rc)
		}
		t.Rows = append(t.Rows, tableRow{Label: row.Label, Cells: cells})
	}
	for _, l := range statLines(c, texFlavor) {
		t.Notes = append(t.Notes, text{{S: texPost.Replace(l), Style: raw}})
	}
	return t
}

// entryCell is an entry of a comparison table: "mean ± std" (bold where
// best; of class best or failed in HTML), the footnote marks of softmax
// scores (†), tied scores (‡) and fits that did not converge (§), the
// verdict against the baseline (v / *) and the test's p-value and effect
// size, each in its format's markup; its folds for the HTML script.
func entryCell(e Entry) cell {
	v := entryText(Entry{Present: e.Present, Failed: e.Failed, Mean: e.Mean, Std: e.Std, N: e.N}, "±")
	md, html, tex := v, htmlEscape(v), texPost.Replace(entryText(Entry{Present: e.Present, Failed: e.Failed, Mean: e.Mean, Std: e.Std, N: e.N}, `$\pm$`))
	c := cell{Data: entryDataAttrs(e)}
	switch {
	case e.Failed:
		c.Class = "failed"
	case e.Best && e.ok():
		c.Class = "best"
		md, tex = "**"+md+"**", `\textbf{`+tex+`}`
	}
	for _, m := range []struct {
		on bool
		f  func(flavor) string
	}{
		{e.Softmax && e.ok(), func(f flavor) string { return f.dagger }},
		{e.constant(), func(f flavor) string { return f.ddagger }},
		{e.notConverged(), func(f flavor) string { return f.section }},
	} {
		if m.on {
			md, html, tex = md+m.f(mdFlavor), html+m.f(htmlFlavor), tex+texPost.Replace(m.f(texFlavor))
		}
	}
	if e.Mark != "" {
		md += " " + strings.ReplaceAll(e.Mark, "*", `\*`)
		html += "<span class=\"mark\">" + htmlEscape(e.Mark) + "</span>"
		tex += `\,` + e.Mark
	}
	if x := effectText(e); x != "" {
		md += " (" + x + ")"
	}
	c.Text = text{alt(md, html+htmlEffect(e), tex+texEffect(e))}
	return c
}

// statPara are the statistics under a comparison table (Markdown and
// HTML; LaTeX sets them in the table's float): a "Note: " line is of
// class note in HTML.
func statPara(c *Comparison) []para {
	md, html := statLines(c, mdFlavor), statLines(c, htmlFlavor)
	out := make([]para, len(md))
	for i := range md {
		class := "stats"
		if strings.HasPrefix(html[i], "Note: ") {
			class += " note"
		}
		out[i] = para{Text: text{alt(md[i], html[i], "")}, Class: class, In: only(mdFormat, htmlFormat)}
	}
	return out
}

// bayesBlocks are the Bayesian table of c under its heading, and its
// legend; none without Bayesian comparisons.
func bayesBlocks(c *Comparison) []block {
	if c.Bayes == nil || len(c.Bayes.Pairs) == 0 {
		return nil
	}
	t := table{Class: "bayes", Label: texLabel(c.Metric) + "-bayes", Caption: txt(c.bayesTitle() + "."),
		Columns: []column{{Head: txt("left")}, {Head: txt("right")}}, Notes: []text{{{S: texPost.Replace(texBayesLegend(c)), Style: raw}}}}
	for _, h := range c.bayesHeads() {
		t.Columns = append(t.Columns, column{Head: txt(h), Num: true})
	}
	bold := func(s string) string { return "**" + s + "**" }
	strong := func(s string) string { return "<strong>" + s + "</strong>" }
	texBold := func(s string) string { return `\textbf{` + s + `}` }
	for _, p := range c.Bayes.Pairs {
		left, right := c.Rows[p.Left].Label, c.rightLabel(p)
		// The row filter matches the pair when either label holds its text.
		r := tableRow{Label: left + " vs " + c.Rows[p.Right].Label, Cells: cellsOf(left, right)}
		md, html, tex, why := c.bayesCells(p, bold), c.bayesCells(p, strong), c.bayesCells(p, texBold), c.noTestReasons(p)
		for i := range md {
			bc := cell{Text: text{alt(md[i], html[i], texPost.Replace(tex[i]))}}
			if why[i] != "" {
				bc.Class = "notest" // a sentence, which may wrap
			}
			r.Cells = append(r.Cells, bc)
		}
		t.Rows = append(t.Rows, r)
	}
	return []block{heading{Level: 3, Text: txt(c.bayesTitle()), ID: "bayes-" + fileSafe(c.Metric), In: only(mdFormat, htmlFormat)}, t,
		para{Text: text{alt(bayesLegend(c, mdFlavor), bayesLegend(c, htmlFlavor), "")}, Class: "stats", In: only(mdFormat, htmlFormat)}}
}
