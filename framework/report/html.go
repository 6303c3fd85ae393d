package report

import (
	"encoding/base64"
	"fmt"
	"io"
	"strings"

	"github.com/polyclass/polyclass/framework/outcome"
)

const htmlStyle = `*{box-sizing:border-box}
body{font-family:"Liberation Sans",Arial,Helvetica,sans-serif;margin:0;padding:1em 2em 3em;color:#222;line-height:1.4}
h1{font-size:1.6em;border-bottom:2px solid #2c5d8f;padding-bottom:.2em}
h2{font-size:1.25em;margin-top:2em;color:#2c5d8f}
h3{font-size:1.05em;margin-top:1.2em}
nav{font-size:.9em}
nav a{margin-right:1em;color:#2c5d8f}
.banner{border:2px solid #c47f00;background:#fff4dc;padding:.6em 1em;margin:1em 0;font-size:1.05em}
.banner.failed{border-color:#b00;background:#fdeaea}
.wide{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:1em 0;font-size:.92em}
thead th{border-top:2px solid #222;border-bottom:1px solid #222;padding:.35em .7em;text-align:left}
tbody td{padding:.25em .7em;white-space:nowrap}
tbody td.wrap{white-space:normal;min-width:16em}
#setup-rows td.wrap{min-width:6em;overflow-wrap:anywhere}
table.cmp td:not(.num),table.bayes td:not(.num){white-space:normal}
table.bayes td.notest{white-space:normal;min-width:8em}
tbody tr:last-child td{border-bottom:2px solid #222}
tbody tr:nth-child(even){background:#f4f7fa}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
td.best{font-weight:bold}
td.failed{color:#b00}
.digest{font-family:"Liberation Mono",monospace;font-size:.8em;color:#555;word-break:break-all}
tbody td.digest{white-space:normal;min-width:18em}
dl.setup{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1.2em;margin:1em 0}
dl.setup dt{font-weight:bold}
dl.setup dd{margin:0}
.mark{color:#2c5d8f;font-weight:bold;padding-left:.25em}
.effect{display:block;font-size:.8em;color:#555;white-space:normal}
.effect span{white-space:nowrap}
table.bayes strong{color:#2c5d8f}
.stats{font-size:.9em;color:#333}
.note{color:#8a5a00}
.figs{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,34em),1fr));gap:1.5em;align-items:start}
.heatmaps{grid-template-columns:repeat(auto-fill,minmax(min(100%,24em),1fr))}
figure{margin:0}
figcaption{font-size:.85em;color:#555}
figure img{display:block;width:100%;height:auto}
details.report{margin:.3em 0}
details.report summary{cursor:pointer;color:#2c5d8f}
tr.avg td{font-style:italic}
pre.source{background:#f4f7fa;border:1px solid #d5dde5;padding:.8em 1em;overflow-x:auto;font-size:.85em;line-height:1.35}
`

// HTMLReport is what the HTML report shows.
type HTMLReport struct {
	Tables  *Tables
	Figures []Figure
	// Cells give the code-matrix table and the count of failed cells.
	Cells []*outcome.CellResult
	// Setup, when set, is shown after the results (the set-up and
	// provenance: data, plugins, rows), before the experiment file.
	Setup *Setup
	// ConfusionRows are the rows whose heat maps were asked for (empty:
	// the best row of each dataset by the first metric).
	ConfusionRows []string
}

// WriteHTML writes a self-contained HTML report (inline CSS and script,
// figures as base64 PNG, nothing fetched from the network, no external
// file) that uses the whole width of the window and opens on the
// results: a banner when the run is partial or cells failed, the
// controls (choose the metric, filter the rows, see htmlScript), the
// comparison table of every metric with its marks, then its comparisons
// (Bayesian table, statistics, figures; a click on a column head sorts,
// the pointer on a score shows its folds), the selected parameters, the
// code-matrix table (dataset, reduction, K, L, distances), the per-class
// reports and threshold views, the confusion heat maps, all at one width,
// with a note of which cells they show and how they are normalised; below
// the results the set-up (run, data, plugins, the set-up table) and the
// experiment file. Every table fits the page's width, wrapping its text
// or scrolling inside its box. Without the script every part shows as it
// is.
func WriteHTML(w io.Writer, r HTMLReport) error {
	t := r.Tables
	var b strings.Builder
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>%s</title>\n<style>\n%s</style>\n</head>\n<body>\n",
		htmlEscape(t.Experiment), htmlStyle+htmlInteractiveStyle)
	fmt.Fprintf(&b, "<h1>%s</h1>\n", htmlEscape(t.Experiment))
	if err := writeHTMLBlocks(&b, headSection(t, r.Cells).Blocks); err != nil {
		return err
	}
	secs, err := reportSections(reportInput{Tables: t, Cells: r.Cells, Figures: r.Figures, Setup: r.Setup, ConfusionRows: r.ConfusionRows})
	if err != nil {
		return err
	}
	writeHTMLNav(&b, secs)
	writeHTMLControls(&b, t)
	if err := writeHTMLSections(&b, secs); err != nil {
		return err
	}
	writeHTMLScript(&b)
	b.WriteString("</body>\n</html>\n")
	_, err = io.WriteString(w, b.String())
	return err
}

// writeHTMLNav writes a link to every section the HTML report shows, in
// the sections' order, named by its Nav (else its Title).
func writeHTMLNav(b *strings.Builder, secs []section) {
	b.WriteString("<nav>")
	for _, s := range secs {
		if s.In.has(htmlFormat) && s.ID != "" {
			fmt.Fprintf(b, "<a href=\"#%s\">%s</a>", s.ID, htmlEscape(s.navText()))
		}
	}
	b.WriteString("</nav>\n")
}

// navText is the text of s's link in the HTML navigation: its Nav, else
// its Title.
func (s section) navText() string {
	if s.Nav != "" {
		return s.Nav
	}
	return s.Title
}

// writeHTMLFigures writes figs as a grid of equal-width columns (class
// names the grid): a figure fills its column's width.
func writeHTMLFigures(b *strings.Builder, class string, figs []Figure) error {
	if len(figs) == 0 {
		return nil
	}
	fmt.Fprintf(b, "<div class=\"%s\">\n", class)
	for _, f := range figs {
		png, err := f.Fig.PNG()
		if err != nil {
			return fmt.Errorf("html figure %s: %w", f.Name, err)
		}
		fmt.Fprintf(b, "<figure id=\"fig-%s\">\n<img alt=\"%s\" src=\"data:image/png;base64,%s\">\n<figcaption>%s</figcaption>\n</figure>\n",
			htmlEscape(f.Name), htmlEscape(f.Caption), base64.StdEncoding.EncodeToString(png), htmlEscape(f.Caption))
	}
	b.WriteString("</div>\n")
	return nil
}

// htmlEffect is effectText on a line of its own under the entry, its
// parts kept whole: a narrow column breaks the line between them only.
func htmlEffect(e Entry) string {
	parts := effectParts(e)
	switch len(parts) {
	case 0:
		return ""
	case 1: // "no test: WHY", which may break anywhere
		return "<span class=\"effect\">" + htmlEscape(parts[0]) + "</span>"
	}
	for i, p := range parts {
		parts[i] = "<span>" + htmlEscape(p) + "</span>"
	}
	return "<span class=\"effect\">" + strings.Join(parts, " ") + "</span>"
}
