package report

import (
	"fmt"
	"strings"
)

// latex renders t in LaTeX: plain spans escaped by texEscape, bold as
// \textbf, a subscript in math mode.
func (t text) latex() string {
	var b strings.Builder
	for _, s := range t {
		switch s.Style {
		case bold:
			b.WriteString(`\textbf{` + texEscape(s.S) + `}`)
		case sub:
			b.WriteString(`$_{\mathrm{` + texEscape(s.S) + `}}$`)
		case raw:
			b.WriteString(s.S)
		case perFormat:
			b.WriteString(s.Alt[2])
		default:
			b.WriteString(texPost.Replace(texEscape(s.S)))
		}
	}
	return b.String()
}

// comment is t as a LaTeX comment's text: unescaped, on one line.
func (t text) comment() string {
	var b strings.Builder
	for _, s := range t {
		if s.Style == perFormat {
			b.WriteString(s.Alt[2])
		} else {
			b.WriteString(s.S)
		}
	}
	return strings.ReplaceAll(b.String(), "\n", " ")
}

// texDoc is what every LaTeX float says of the run: the experiment's name
// (the caption's start, the label's prefix) and, for a partial run, why.
type texDoc struct {
	Experiment, Partial string
}

// writeLaTeXSections writes the sections shown in LaTeX.
func writeLaTeXSections(b *strings.Builder, d texDoc, secs []section) {
	for _, s := range secs {
		writeLaTeXSection(b, d, s)
	}
}

// writeLaTeXSection writes the tables of s as floats, each after a blank
// line, the first after the section's title as a comment; its paragraphs
// as comments (for the author, not the paper). Headings are left out.
func writeLaTeXSection(b *strings.Builder, d texDoc, s section) {
	if !s.In.has(texFormat) {
		return
	}
	first := true
	for _, bl := range s.Blocks {
		if !bl.in(texFormat) {
			continue
		}
		switch x := bl.(type) {
		case para:
			fmt.Fprintf(b, "%% %s\n", x.Text.comment())
		case table:
			b.WriteString("\n")
			if first && s.Title != "" {
				fmt.Fprintf(b, "%% %s\n", s.title())
			}
			first = false
			writeLaTeXFloat(b, d, x)
		}
	}
}

// writeLaTeXFloat writes a table float: booktabs rules, text columns left
// and numbers right, captioned "EXPERIMENT: CAPTION" (and the partial
// run's note), labelled tab:EXPERIMENT-LABEL, scaled to the line when
// wider (fitBox).
func writeLaTeXFloat(b *strings.Builder, d texDoc, t table) {
	b.WriteString("\\begin{table}[htbp]\n\\centering\n\\small\n")
	note := ""
	if d.Partial != "" {
		note = " Partial results: " + texEscape(d.Partial) + "."
	}
	fmt.Fprintf(b, "\\caption{%s: %s%s}\n", texEscape(d.Experiment), t.Caption.latex(), note)
	label := texLabel(d.Experiment) + "-" + t.Label
	fmt.Fprintf(b, "\\label{tab:%s}\n", label)
	align, head := make([]string, len(t.Columns)), make([]string, len(t.Columns))
	for i, c := range t.Columns {
		align[i], head[i] = "l", c.Head.latex()
		if c.Num {
			align[i] = "r"
		}
	}
	fmt.Fprintf(b, "\\sbox0{\\begin{tabular}{%s}\n\\toprule\n", strings.Join(align, ""))
	b.WriteString(strings.Join(head, " & ") + ` \\` + "\n\\midrule\n")
	for _, r := range t.Rows {
		cells := make([]string, len(r.Cells))
		for i, c := range r.Cells {
			cells[i] = c.Text.latex()
		}
		b.WriteString(strings.Join(cells, " & ") + ` \\` + "\n")
	}
	b.WriteString("\\bottomrule\n\\end{tabular}}%\n")
	fmt.Fprintf(b, fitBox, label)
	if len(t.Notes) > 0 {
		b.WriteString("\n\\medskip\n\\begin{minipage}{\\linewidth}\\footnotesize\n")
		for _, n := range t.Notes {
			b.WriteString(n.latex() + "\\par\n")
		}
		b.WriteString("\\end{minipage}\n")
	}
	b.WriteString("\\end{table}\n")
}
