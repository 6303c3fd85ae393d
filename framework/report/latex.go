package report

import (
	"fmt"
	"io"
	"strings"
)

// texPost replaces the Unicode characters the shared sentences contain.
var texPost = strings.NewReplacer("–", "--", "−", "$-$", "∞", `$\infty$`)

// texLabel turns s into a string safe inside \label{}.
func texLabel(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	return b.String()
}

// WriteLaTeX writes the comparison tables of t as LaTeX table floats for
// \input: booktabs rules (\usepackage{booktabs} in the preamble), the best
// mean of each column in bold, v / * marks against the baseline, an
// average-rank column and the statistics under each table, then, when
// cells were tuned, the parameters their inner cross-validations chose (as
// the Markdown report's "Selected parameters"). Nothing else is required
// of the document; with graphicx loaded, a table wider than the line is
// scaled down to fit it (see fitBox).
func WriteLaTeX(w io.Writer, t *Tables) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%% Tables of experiment %s; needs \\usepackage{booktabs}; with \\usepackage{graphicx}, tables wider than the line are scaled to fit.\n", t.Experiment)
	if t.Partial != "" {
		fmt.Fprintf(&b, "%% Partial results: %s.\n", t.Partial)
	}
	for _, w := range t.Warnings {
		fmt.Fprintf(&b, "%% Warning: %s\n", strings.ReplaceAll(w, "\n", " ")) // for the author, not the paper
	}
	for _, c := range t.Metrics {
		writeLaTeXTable(&b, t.Experiment, t.Partial, c)
		writeLaTeXBayes(&b, t.Experiment, t.Partial, c)
	}
	writeLaTeXSections(&b, texDoc{Experiment: t.Experiment, Partial: t.Partial}, selectedSection(t.Selected, t.Edges))
	_, err := io.WriteString(w, b.String())
	return err
}

// writeLaTeXTable writes one table float; a partial run says so in the
// caption, where a reader of the paper sees it.
func writeLaTeXTable(b *strings.Builder, experiment, partial string, c *Comparison) {
	showEnc := showEncoder(c.Rows)
	head := []string{"learner", "params", "reduction"}
	if showEnc {
		head = append([]string{"pipeline"}, head...)
	}
	nID := len(head)
	for _, d := range columnHeads(c) {
		head = append(head, texEscape(d))
	}
	for _, h := range rankHeads(c) {
		head = append(head, strings.Replace(h, "avg. ", `avg.\ `, 1))
	}
	fmt.Fprintf(b, "\n%% %s (%s)\n", c.Metric, direction(c.HigherIsBetter))
	b.WriteString("\\begin{table}[htbp]\n\\centering\n\\small\n")
	note := ""
	if partial != "" {
		note = " Partial results: " + texEscape(partial) + "."
	}
	fmt.Fprintf(b, "\\caption{%s: %s (%s), mean %s std over folds.%s}\n", texEscape(experiment), texEscape(c.Metric),
		direction(c.HigherIsBetter), `$\pm$`, note)
	fmt.Fprintf(b, "\\label{tab:%s-%s}\n", texLabel(experiment), texLabel(c.Metric))
	// The tabular is set in box 0 first, to be scaled down to the line
	// when it is wider (fitBox).
	fmt.Fprintf(b, "\\sbox0{\\begin{tabular}{%s%s}\n\\toprule\n", strings.Repeat("l", nID), strings.Repeat("r", len(head)-nID))
	b.WriteString(strings.Join(head, " & ") + ` \\` + "\n\\midrule\n")
	for r, row := range c.Rows {
		fields := []string{texEscape(row.Learner), texEscape(orDashPlain(row.Params)), texEscape(row.Reduction)}
		if showEnc {
			fields = append([]string{texEscape(row.Encoder)}, fields...)
		}
		for d := range c.Datasets {
			e := c.Entries[r][d]
			v := entryText(Entry{Present: e.Present, Failed: e.Failed, Mean: e.Mean, Std: e.Std, N: e.N}, `$\pm$`)
			if e.Best && e.ok() {
				v = `\textbf{` + v + `}`
			}
			if e.Softmax && e.ok() {
				v += texFlavor.dagger
			}
			if e.tied() {
				v += texFlavor.ddagger
			}
			if e.notConverged() {
				v += texFlavor.section
			}
			if e.Mark != "" {
				v += `\,` + e.Mark
			}
			fields = append(fields, texPost.Replace(v)+texEffect(e))
		}
		for _, v := range rankFields(c, r) {
			fields = append(fields, texPost.Replace(v))
		}
		b.WriteString(strings.Join(fields, " & ") + ` \\` + "\n")
	}
	b.WriteString("\\bottomrule\n\\end{tabular}}%\n")
	fmt.Fprintf(b, fitBox, texLabel(experiment)+"-"+texLabel(c.Metric))
	if lines := statLines(c, texFlavor); len(lines) > 0 {
		b.WriteString("\n\\medskip\n\\begin{minipage}{\\linewidth}\\footnotesize\n")
		for _, l := range lines {
			b.WriteString(texPost.Replace(l) + "\\par\n")
		}
		b.WriteString("\\end{minipage}\n")
	}
	b.WriteString("\\end{table}\n")
}

// fitBox sets box 0 (a table's tabular) at its natural width when it fits
// the line, else scaled down to \linewidth with graphicx's \resizebox
// (as papers do with wide tables); a document without graphicx gets the
// table at its natural width and a note in the log saying how to fit it.
// Its verb is the table's label.
const fitBox = `\ifdim\wd0>\linewidth
  \ifdefined\resizebox\resizebox{\linewidth}{!}{\usebox0}%%
  \else\usebox0\typeout{polyclass: table tab:%s is wider than the line; \string\usepackage{graphicx} scales it to fit}\fi
\else\usebox0\fi
`

// orDashPlain is orDash without Markdown escaping.
func orDashPlain(s string) string {
	if s == "" {
		return "–"
	}
	return s
}
