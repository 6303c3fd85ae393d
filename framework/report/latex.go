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
	secs, err := reportSections(reportInput{Tables: t})
	if err != nil {
		return err
	}
	d := texDoc{Experiment: t.Experiment, Partial: t.Partial}
	writeLaTeXSection(&b, d, headSection(t, nil))
	writeLaTeXSections(&b, d, secs)
	_, err = io.WriteString(w, b.String())
	return err
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
