package report

import (
	"fmt"
	"strings"
)

// html renders t in HTML: plain spans escaped by htmlEscape, bold as
// <strong>, a subscript as <sub>.
func (t text) html() string {
	var b strings.Builder
	for _, s := range t {
		switch s.Style {
		case bold:
			b.WriteString("<strong>" + htmlEscape(s.S) + "</strong>")
		case sub:
			b.WriteString("<sub>" + htmlEscape(s.S) + "</sub>")
		case raw:
			b.WriteString(s.S)
		default:
			b.WriteString(htmlEscape(s.S))
		}
	}
	return b.String()
}

// attr is ` name="value"` (value escaped), or nothing when value is
// empty.
func attr(name, value string) string {
	if value == "" {
		return ""
	}
	return fmt.Sprintf(" %s=\"%s\"", name, htmlEscape(value))
}

// writeHTMLSections writes the sections shown in HTML.
func writeHTMLSections(b *strings.Builder, secs []section) {
	for _, s := range secs {
		writeHTMLSection(b, s)
	}
}

// writeHTMLSection writes s as a section element with its id, an h2 and
// its blocks.
func writeHTMLSection(b *strings.Builder, s section) {
	if !s.In.has(htmlFormat) {
		return
	}
	fmt.Fprintf(b, "<section%s>\n", attr("id", s.ID))
	if s.Title != "" {
		fmt.Fprintf(b, "<h2>%s</h2>\n", htmlEscape(s.Title))
	}
	for _, bl := range s.Blocks {
		if !bl.in(htmlFormat) {
			continue
		}
		switch x := bl.(type) {
		case para:
			fmt.Fprintf(b, "<p%s>%s</p>\n", attr("class", x.Class), x.Text.html())
		case heading:
			fmt.Fprintf(b, "<h%d>%s</h%d>\n", x.Level, x.Text.html(), x.Level)
		case table:
			writeHTMLTableOf(b, x)
		}
	}
	b.WriteString("</section>\n")
}

// writeHTMLTableOf writes a table in a box that scrolls when the table is
// wider than the page; number columns are of class num.
func writeHTMLTableOf(b *strings.Builder, t table) {
	fmt.Fprintf(b, "<div class=\"wide\"><table%s%s>\n<thead><tr>", attr("id", t.ID), attr("class", t.Class))
	for _, c := range t.Columns {
		fmt.Fprintf(b, "<th%s>%s</th>", numClass(c.Num), c.Head.html())
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, r := range t.Rows {
		fmt.Fprintf(b, "<tr%s>", attr("data-label", r.Label))
		for i, c := range r.Cells {
			fmt.Fprintf(b, "<td%s>%s</td>", numClass(i < len(t.Columns) && t.Columns[i].Num), c.html())
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table></div>\n")
}

// numClass is the class attribute of a number's cell.
func numClass(num bool) string {
	if num {
		return " class=\"num\""
	}
	return ""
}
