package plots

import (
	"image/color"

	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// legendItem is one entry of a legend: a symbol and its text. The symbol
// is a filled swatch (Fill), a line sample (Line, dashed when Dashes), a
// marker (Glyph, drawn in black), or a combination.
type legendItem struct {
	Text   string
	Fill   color.Color
	Line   color.Color
	Dashes []vg.Length
	Glyph  draw.GlyphDrawer
}

// legendGroup is a heading ("learner") and its entries.
type legendGroup struct {
	Heading string
	Items   []legendItem
}

// legendLayout is a legend placed in a figure: the texts (headings in
// bold, entries) and the symbols' boxes, from Top down to Top − H.
type legendLayout struct {
	H       vg.Length
	Labels  []label
	Symbols []legendSymbol
}

// legendSymbol is an entry's symbol drawn in Box.
type legendSymbol struct {
	Item legendItem
	Box  vg.Rectangle
}

// Legend sizes, in points.
const (
	legendFont    = 9
	legendSymbolW = 14 // symbol box width
	legendGap     = 4  // symbol to text
	legendSpace   = 12 // between entries
	legendLine    = 4  // between lines
)

// layoutLegend flows the groups' entries left to right from x0, wrapping
// at x0 + width, each group starting a new line with its heading, the
// first line's top at top.
func layoutLegend(groups []legendGroup, x0, width, top vg.Length) legendLayout {
	var l legendLayout
	body, head := sans(legendFont, false), sans(legendFont, true)
	body.XAlign, body.YAlign = text.XLeft, text.YCenter
	head.XAlign, head.YAlign = text.XLeft, text.YCenter
	lh := max(lineHeight(body), legendSymbolW*0.8)
	y := top
	for _, g := range groups {
		if len(g.Items) == 0 {
			continue
		}
		x := x0
		mid := y - lh/2
		if g.Heading != "" {
			t := g.Heading + ":"
			l.Labels = append(l.Labels, newLabel(t, head, vg.Point{X: x, Y: mid}))
			x += head.Width(t) + legendSpace/2
		}
		for _, it := range g.Items {
			txt := shorten(body, it.Text, width-legendSymbolW-legendGap)
			w := legendSymbolW + legendGap + body.Width(txt)
			if x > x0 && x+w > x0+width {
				y -= lh + legendLine
				mid = y - lh/2
				x = x0
			}
			sym := vg.Rectangle{Min: vg.Point{X: x, Y: mid - lh/2 + 1}, Max: vg.Point{X: x + legendSymbolW, Y: mid + lh/2 - 1}}
			l.Symbols = append(l.Symbols, legendSymbol{Item: it, Box: sym})
			l.Labels = append(l.Labels, newLabel(txt, body, vg.Point{X: x + legendSymbolW + legendGap, Y: mid}))
			x += w + legendSpace
		}
		y -= lh + legendLine
	}
	l.H = top - y
	return l
}

// draw draws the legend on c (points relative to c's lower left corner).
func (l legendLayout) draw(c draw.Canvas) {
	for _, s := range l.Symbols {
		b := vg.Rectangle{Min: s.Box.Min.Add(c.Min), Max: s.Box.Max.Add(c.Min)}
		it := s.Item
		if it.Fill != nil {
			sz := b.Size()
			side := min(sz.X, sz.Y)
			x := b.Min.X + (sz.X-side)/2
			c.FillPolygon(it.Fill, rect(x, b.Min.Y, side, side))
			c.StrokeLines(line(0.5, color.Gray{Y: 60}), append(rect(x, b.Min.Y, side, side), vg.Point{X: x, Y: b.Min.Y}))
		}
		midY := (b.Min.Y + b.Max.Y) / 2
		if it.Line != nil {
			ls := line(1.6, it.Line)
			ls.Dashes = it.Dashes
			c.StrokeLine2(ls, b.Min.X, midY, b.Max.X, midY)
		}
		if it.Glyph != nil {
			c.DrawGlyph(draw.GlyphStyle{Color: color.Black, Radius: 3, Shape: it.Glyph},
				vg.Point{X: (b.Min.X + b.Max.X) / 2, Y: midY})
		}
	}
	for _, lab := range l.Labels {
		lab.draw(c)
	}
}
