package plots

import (
	"math"
	"strings"

	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// label is one text of a figure laid out before drawing: the text, its
// style (alignment and rotation included), the point it is drawn at, and
// the rectangle its glyphs may cover (textBox), which the layout tests
// check for overlaps. Points are relative to the figure's lower left
// corner.
type label struct {
	Text  string
	Style text.Style
	At    vg.Point
	Box   vg.Rectangle
}

// newLabel lays out txt drawn with s at at.
func newLabel(txt string, s text.Style, at vg.Point) label {
	return label{Text: txt, Style: s, At: at, Box: textBox(s, at, txt)}
}

// draw draws l on c, offset by c's lower left corner.
func (l label) draw(c draw.Canvas) {
	if l.Text == "" {
		return
	}
	c.FillText(l.Style, l.At.Add(c.Min), l.Text)
}

// textBox returns the rectangle that the glyphs of a one-line txt may
// cover when drawn with s at pt: from the font's descent below the
// baseline to its ascent above it, over the text's advance width, placed
// and rotated as gonum's plain text handler places them (text.Plain.Draw:
// the baseline lies at y + h·YAlign − ascent + size in the rotated frame,
// with h = ascent + descent, and the text starts at x + w·XAlign).
func textBox(s text.Style, pt vg.Point, txt string) vg.Rectangle {
	e := s.FontExtents()
	w := s.Width(txt)
	h := s.Height(txt)
	sin, cos := math.Sincos(s.Rotation)
	// pt in the frame rotated by s.Rotation.
	u := float64(pt.Y)*sin + float64(pt.X)*cos
	v := float64(pt.Y)*cos - float64(pt.X)*sin
	base := v + float64(h)*float64(s.YAlign) - float64(e.Ascent) + float64(s.Font.Size)
	x0 := u + float64(w)*float64(s.XAlign)
	corners := [4][2]float64{
		{x0, base - float64(e.Descent)}, {x0 + float64(w), base - float64(e.Descent)},
		{x0, base + float64(e.Ascent)}, {x0 + float64(w), base + float64(e.Ascent)},
	}
	r := vg.Rectangle{Min: vg.Point{X: vg.Length(math.Inf(1)), Y: vg.Length(math.Inf(1))},
		Max: vg.Point{X: vg.Length(math.Inf(-1)), Y: vg.Length(math.Inf(-1))}}
	for _, p := range corners {
		// Back to the canvas: rotate by +Rotation.
		x := vg.Length(p[0]*cos - p[1]*sin)
		y := vg.Length(p[0]*sin + p[1]*cos)
		r.Min.X, r.Min.Y = min(r.Min.X, x), min(r.Min.Y, y)
		r.Max.X, r.Max.Y = max(r.Max.X, x), max(r.Max.Y, y)
	}
	return r
}

// lineHeight is the height textBox gives one line of text in s.
func lineHeight(s text.Style) vg.Length {
	e := s.FontExtents()
	return e.Ascent + e.Descent
}

// maxRowLabel is the widest row label of a box plot or a critical
// difference diagram; a longer one is shortened (shorten), so that a very
// long label cannot make a figure, and its PNG, as wide as it is (a
// 5,000-letter label made a box plot 23,000 points wide).
const maxRowLabel = 6 * vg.Inch

// shorten returns txt when it is at most width wide in s, else its longest
// prefix that fits with "…" appended (just "…" when nothing fits).
func shorten(s text.Style, txt string, width vg.Length) string {
	if s.Width(txt) <= width {
		return txt
	}
	r := []rune(txt)
	lo, hi := 0, len(r) // the longest prefix that fits lies in [lo, hi)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if s.Width(string(r[:mid])+"…") <= width {
			lo = mid
		} else {
			hi = mid
		}
	}
	return string(r[:lo]) + "…"
}

// wrapText breaks txt into lines at most width wide in s, between words;
// a word wider than width on its own is broken between its letters. No
// letter is dropped: the lines joined by single spaces are txt with its
// runs of spaces made single (words broken apart join without one).
func wrapText(s text.Style, txt string, width vg.Length) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(txt) {
		switch {
		case line == "":
			line = w
		case s.Width(line+" "+w) <= width:
			line += " " + w
			continue
		default:
			lines = append(lines, line)
			line = w
		}
		for s.Width(line) > width {
			r := []rune(line)
			n := 1 // the longest prefix that fits, at least one letter
			for n < len(r) && s.Width(string(r[:n+1])) <= width {
				n++
			}
			lines = append(lines, string(r[:n]))
			line = string(r[n:])
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// overlaps reports whether two rectangles share more than an edge.
func overlaps(a, b vg.Rectangle) bool {
	return a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
}

// inside reports whether r lies within [0, w] × [0, h].
func inside(r vg.Rectangle, w, h vg.Length) bool {
	return r.Min.X >= 0 && r.Min.Y >= 0 && r.Max.X <= w && r.Max.Y <= h
}

// titlePad is the space above and below a figure's title.
const titlePad = 6

// titleLayout is a figure's title laid out: bold, centred, wrapped to the
// figure's width so that it is never cut.
type titleLayout struct {
	Style text.Style
	Lines []string
	// Height is the height of its lines with titlePad above and below
	// them; 0 without a title.
	Height vg.Length
}

// newTitle lays out txt in bold size points, in lines at most width wide.
func newTitle(txt string, size, width vg.Length) titleLayout {
	s := sans(size, true)
	s.XAlign, s.YAlign = text.XCenter, text.YTop
	t := titleLayout{Style: s, Lines: wrapText(s, txt, width)}
	if len(t.Lines) > 0 {
		t.Height = 2*titlePad + vg.Length(len(t.Lines))*lineHeight(s)
	}
	return t
}

// extra is the height of the lines after the first: what a wrapped
// title adds to a figure laid out for one line.
func (t titleLayout) extra() vg.Length {
	return vg.Length(max(len(t.Lines)-1, 0)) * lineHeight(t.Style)
}

// draw draws the lines centred across c, the first titlePad under its
// top.
func (t titleLayout) draw(c draw.Canvas) {
	for i, l := range t.Lines {
		c.FillText(t.Style, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: c.Max.Y - titlePad - vg.Length(i)*lineHeight(t.Style)}, l)
	}
}
