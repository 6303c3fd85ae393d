package report

import (
	"encoding/base64"
	"fmt"
	"io"
	"strings"
)

const htmlStyle = `body{font-family:"Liberation Sans",Arial,Helvetica,sans-serif;margin:2em auto;max-width:70em;padding:0 1em;color:#222;line-height:1.4}
h1{font-size:1.6em;border-bottom:2px solid #2c5d8f;padding-bottom:.2em}
h2{font-size:1.25em;margin-top:2em;color:#2c5d8f}
table{border-collapse:collapse;margin:1em 0;font-size:.92em}
thead th{border-top:2px solid #222;border-bottom:1px solid #222;padding:.35em .7em;text-align:left}
tbody td{padding:.25em .7em;white-space:nowrap}
tbody tr:last-child td{border-bottom:2px solid #222}
tbody tr:nth-child(even){background:#f4f7fa}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
td.best{font-weight:bold}
td.failed{color:#b00}
.mark{color:#2c5d8f;font-weight:bold;padding-left:.25em}
.stats{font-size:.9em;color:#333;max-width:60em}
.note{color:#8a5a00}
figure{margin:1em 0}
figcaption{font-size:.85em;color:#555}
img{max-width:100%;height:auto}
`

// WriteHTML writes a self-contained HTML report: inline CSS, the comparison
// tables of t with their statistics, and figs embedded as base64 PNG
// images (no external files). Figures with a Metric follow that metric's
// table; the others (confusion matrices) close the report.
func WriteHTML(w io.Writer, t *Tables, figs []Figure) error {
	var b strings.Builder
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n<style>\n%s</style>\n</head>\n<body>\n",
		htmlEscape(t.Experiment), htmlStyle)
	fmt.Fprintf(&b, "<h1>%s</h1>\n", htmlEscape(t.Experiment))
	if t.Partial != "" {
		fmt.Fprintf(&b, "<p><strong>Partial results:</strong> %s.</p>\n", htmlEscape(t.Partial))
	}
	for _, c := range t.Metrics {
		writeHTMLTable(&b, c)
		for _, f := range figs {
			if f.Metric == c.Metric {
				if err := writeHTMLFigure(&b, f); err != nil {
					return err
				}
			}
		}
	}
	heading := false
	for _, f := range figs {
		if f.Metric != "" {
			continue
		}
		if !heading {
			b.WriteString("<h2>Confusion matrices</h2>\n")
			heading = true
		}
		if err := writeHTMLFigure(&b, f); err != nil {
			return err
		}
	}
	b.WriteString("</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func writeHTMLFigure(b *strings.Builder, f Figure) error {
	png, err := f.Fig.PNG()
	if err != nil {
		return fmt.Errorf("html figure %s: %w", f.Name, err)
	}
	// Shown at the figure's nominal size (1 pt = 4/3 CSS px).
	width := int(f.Fig.Width.Points()*4/3 + 0.5)
	fmt.Fprintf(b, "<figure>\n<img alt=\"%s\" width=\"%d\" src=\"data:image/png;base64,%s\">\n<figcaption>%s</figcaption>\n</figure>\n",
		htmlEscape(f.Caption), width, base64.StdEncoding.EncodeToString(png), htmlEscape(f.Caption))
	return nil
}

func writeHTMLTable(b *strings.Builder, c *Comparison) {
	fmt.Fprintf(b, "<h2>%s <small>(%s)</small></h2>\n<table>\n<thead><tr>", htmlEscape(c.Metric), direction(c.HigherIsBetter))
	showEnc := showEncoder(c.Rows)
	head := []string{"learner", "params", "reduction"}
	if showEnc {
		head = append([]string{"encoder"}, head...)
	}
	for _, h := range head {
		fmt.Fprintf(b, "<th>%s</th>", h)
	}
	for _, d := range c.Datasets {
		fmt.Fprintf(b, "<th class=\"num\">%s</th>", htmlEscape(d))
	}
	b.WriteString("<th class=\"num\">avg. rank</th>")
	if c.Baseline >= 0 {
		b.WriteString("<th class=\"num\">w/t/l</th>")
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for r, row := range c.Rows {
		b.WriteString("<tr>")
		fields := []string{row.Learner, orDashPlain(row.Params), row.Reduction}
		if showEnc {
			fields = append([]string{row.Encoder}, fields...)
		}
		for _, f := range fields {
			fmt.Fprintf(b, "<td>%s</td>", htmlEscape(f))
		}
		for d := range c.Datasets {
			e := c.Entries[r][d]
			class := "num"
			switch {
			case e.Failed:
				class += " failed"
			case e.Best && e.ok():
				class += " best"
			}
			v := htmlEscape(entryText(Entry{Present: e.Present, Failed: e.Failed, Mean: e.Mean, Std: e.Std, N: e.N}, "±"))
			if e.Mark != "" {
				v += "<span class=\"mark\">" + htmlEscape(e.Mark) + "</span>"
			}
			fmt.Fprintf(b, "<td class=\"%s\">%s</td>", class, v)
		}
		fmt.Fprintf(b, "<td class=\"num\">%s</td>", fixed(c.AvgRank[r], 2))
		if c.Baseline >= 0 {
			fmt.Fprintf(b, "<td class=\"num\">%s</td>", wtlText(c, r))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table>\n")
	for _, l := range statLines(c, htmlFlavor) {
		class := "stats"
		if strings.HasPrefix(l, "Note: ") {
			class += " note"
		}
		fmt.Fprintf(b, "<p class=\"%s\">%s</p>\n", class, l)
	}
}
