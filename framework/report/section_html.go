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
		case perFormat:
			b.WriteString(s.Alt[1])
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
func writeHTMLSections(b *strings.Builder, secs []section) error {
	for _, s := range secs {
		if err := writeHTMLSection(b, s); err != nil {
			return err
		}
	}
	return nil
}

// writeHTMLSection writes s as a section element with its id, an h2 and
// its blocks.
func writeHTMLSection(b *strings.Builder, s section) error {
	if !s.In.has(htmlFormat) {
		return nil
	}
	fmt.Fprintf(b, "<section%s%s%s>\n", attr("id", s.ID), attr("class", s.Class), dataAttrs(s.Data))
	if s.Title != "" {
		aside := ""
		if s.Aside != "" {
			aside = " <small>(" + htmlEscape(s.Aside) + ")</small>"
		}
		fmt.Fprintf(b, "<h2>%s%s</h2>\n", htmlEscape(s.Title), aside)
	}
	if err := writeHTMLBlocks(b, s.Blocks); err != nil {
		return err
	}
	b.WriteString("</section>\n")
	return nil
}

// writeHTMLBlocks writes the blocks shown in HTML.
func writeHTMLBlocks(b *strings.Builder, blocks []block) error {
	for _, bl := range blocks {
		if !bl.in(htmlFormat) {
			continue
		}
		switch x := bl.(type) {
		case para:
			fmt.Fprintf(b, "<p%s>%s</p>\n", attr("class", x.Class), x.Text.html())
		case heading:
			fmt.Fprintf(b, "<h%d%s>%s</h%d>\n", x.Level, attr("id", x.ID), x.Text.html(), x.Level)
		case table:
			writeHTMLTableOf(b, x)
		case list:
			b.WriteString("<ul>\n")
			for _, it := range x.Items {
				fmt.Fprintf(b, "<li>%s</li>\n", it.html())
			}
			b.WriteString("</ul>\n")
		case htmlBlock:
			b.WriteString(string(x))
		case figureGrid:
			if err := writeHTMLFigureGrid(b, x); err != nil {
				return err
			}
		case banner:
			writeHTMLBanner(b, x)
		}
	}
	return nil
}

// writeHTMLBanner writes a banner: a div with its text and its list.
func writeHTMLBanner(b *strings.Builder, x banner) {
	fmt.Fprintf(b, "<div%s%s role=\"status\">%s", attr("class", x.Class), attr("id", x.ID), x.Text.html())
	if len(x.Items) > 0 {
		b.WriteString("\n<ul>\n")
		for _, it := range x.Items {
			fmt.Fprintf(b, "<li>%s</li>\n", it.html())
		}
		b.WriteString("</ul>")
	}
	b.WriteString("</div>\n")
}

// writeHTMLTableOf writes a table in a box that scrolls when the table is
// wider than the page, or folded (table.Fold); number columns are of
// class num.
func writeHTMLTableOf(b *strings.Builder, t table) {
	end := "</table></div>\n"
	if t.Fold != nil {
		fmt.Fprintf(b, "<details class=\"report\"%s><summary>%s</summary>\n<table%s%s>\n<thead><tr>", dataAttrs(t.Data), t.Fold.html(), attr("class", t.Class), attr("id", t.ID))
		end = "</table>\n</details>\n"
	} else {
		fmt.Fprintf(b, "<div class=\"wide\"><table%s%s%s>\n<thead><tr>", attr("class", t.Class), attr("id", t.ID), dataAttrs(t.Data))
	}
	for _, c := range t.Columns {
		fmt.Fprintf(b, "<th%s%s>%s</th>", numClass(c.Num), attr("data-sort", c.Sort), c.Head.html())
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, r := range t.Rows {
		fmt.Fprintf(b, "<tr%s%s>", attr("class", r.Class), attr("data-label", r.Label))
		for i, c := range r.Cells {
			fmt.Fprintf(b, "<td%s%s>%s</td>", cellClass(t.Columns, i, c.Class), dataAttrs(c.Data), c.Text.html())
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n" + end)
}

// cellClass is the class attribute of a cell of column i: num for
// numbers, and the column's class.
func cellClass(cols []column, i int, extra string) string {
	var classes []string
	if i < len(cols) && cols[i].Num {
		classes = append(classes, "num")
	}
	if i < len(cols) && cols[i].Class != "" {
		classes = append(classes, cols[i].Class)
	}
	if extra != "" {
		classes = append(classes, extra)
	}
	return attr("class", strings.Join(classes, " "))
}

// dataAttrs are the data- attributes ds, empty values included.
func dataAttrs(ds []dataAttr) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, " data-%s=\"%s\"", d.Name, htmlEscape(d.Value))
	}
	return b.String()
}

// numClass is the class attribute of a number's cell.
func numClass(num bool) string {
	if num {
		return " class=\"num\""
	}
	return ""
}

// writeHTMLFigureGrid writes g's figures, folded in a details element
// when g.Fold is set.
func writeHTMLFigureGrid(b *strings.Builder, g figureGrid) error {
	if g.Fold == nil || len(g.Figs) == 0 {
		return writeHTMLFigures(b, g.Class, g.Figs)
	}
	fmt.Fprintf(b, "<details class=\"report\"><summary>%s</summary>\n", g.Fold.html())
	if err := writeHTMLFigures(b, g.Class, g.Figs); err != nil {
		return err
	}
	b.WriteString("</details>\n")
	return nil
}
