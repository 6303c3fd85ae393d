package report

import (
	"strings"
)

// markdown renders t in Markdown: plain spans escaped by mdEscape, bold
// as **…**, a subscript after "_".
func (t text) markdown() string {
	var b strings.Builder
	for _, s := range t {
		switch s.Style {
		case bold:
			b.WriteString("**" + mdEscape(s.S) + "**")
		case sub:
			b.WriteString("_" + mdEscape(s.S))
		case raw:
			b.WriteString(s.S)
		case perFormat:
			b.WriteString(s.Alt[0])
		default:
			b.WriteString(mdEscape(s.S))
		}
	}
	return b.String()
}

// writeMarkdownSections writes the sections shown in Markdown.
func writeMarkdownSections(b *strings.Builder, secs []section) {
	for _, s := range secs {
		writeMarkdownSection(b, s)
	}
}

// writeMarkdownSection writes s as "## Title" and its blocks, each
// followed by a blank line.
func writeMarkdownSection(b *strings.Builder, s section) {
	if !s.In.has(mdFormat) {
		return
	}
	if s.Title != "" {
		b.WriteString("## " + mdEscape(s.title()) + "\n\n")
	}
	for _, bl := range s.Blocks {
		if !bl.in(mdFormat) {
			continue
		}
		switch x := bl.(type) {
		case para:
			b.WriteString(x.Text.markdown() + "\n\n")
		case heading:
			b.WriteString(strings.Repeat("#", x.Level) + " " + x.Text.markdown() + "\n\n")
		case table:
			writeMarkdownTableOf(b, x)
		case list:
			for _, it := range x.Items {
				b.WriteString("- " + it.markdown() + "\n")
			}
			b.WriteString("\n")
		}
	}
}

// writeMarkdownTableOf writes a table: its head, the alignment line
// (numbers right) and its rows.
func writeMarkdownTableOf(b *strings.Builder, t table) {
	b.WriteString("|")
	for _, c := range t.Columns {
		b.WriteString(" " + c.Head.markdown() + " |")
	}
	b.WriteString("\n|")
	for _, c := range t.Columns {
		if c.Num {
			b.WriteString(" ---: |")
		} else {
			b.WriteString(" --- |")
		}
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		b.WriteString("|")
		for _, c := range r.Cells {
			b.WriteString(" " + c.Text.markdown() + " |")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}
