package plots

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ConfusionWidth is the nominal width of every confusion heat map, whatever
// its number of classes or the length of their names, so that the heat maps
// of a report line up at equal widths.
const ConfusionWidth vg.Length = 330

// RowShares normalises a confusion matrix per true class: entry (i, j) is
// the share of the rows of class i predicted as class j, so every row with
// at least one count sums to 1 (its diagonal entry is the class's recall).
// A class with no rows gets a row of zeros.
func RowShares(counts [][]int) [][]float64 {
	out := make([][]float64, len(counts))
	for i, row := range counts {
		out[i] = make([]float64, len(row))
		total := 0
		for _, v := range row {
			total += v
		}
		if total == 0 {
			continue
		}
		for j, v := range row {
			out[i][j] = float64(v) / float64(total)
		}
	}
	return out
}

// ConfusionHeatMap draws a K×K confusion matrix (rows = true class, columns
// = predicted class) normalised per true class (see RowShares): each cell is
// shaded and, when there is room, labelled with its share of the row, so
// classes of different sizes read alike. A colour bar on the right maps
// shades to shares from 0 to 1. The figure is ConfusionWidth wide; its
// texts never overlap (see heatLayout).
func ConfusionHeatMap(title string, classes []string, counts [][]int) (*Figure, error) {
	k := len(classes)
	if k == 0 || len(counts) != k {
		return nil, fmt.Errorf("confusion heat map: %d classes but %d rows of counts", k, len(counts))
	}
	for i, row := range counts {
		if len(row) != k {
			return nil, fmt.Errorf("confusion heat map: row %d has %d counts, want %d", i, len(row), k)
		}
		for _, v := range row {
			if v < 0 {
				return nil, fmt.Errorf("confusion heat map: negative count %d in row %d", v, i)
			}
		}
	}
	shares := RowShares(counts)
	l := newHeatLayout(title, classes)
	f := &Figure{Width: l.W, Height: l.H}
	f.draw = func(c draw.Canvas) {
		for _, line := range l.Title {
			line.draw(c)
		}
		gx0, gy1 := c.Min.X+l.Grid.Min.X, c.Min.Y+l.Grid.Max.Y
		cell := l.Cell
		for i, row := range shares {
			for j, frac := range row {
				x, y := gx0+vg.Length(j)*cell, gy1-vg.Length(i+1)*cell
				c.FillPolygon(blues(frac), rect(x, y, cell, cell))
				if !l.Annotate {
					continue
				}
				s := sans(l.NumSize, i == j)
				if frac > 0.55 {
					s.Color = color.White
				}
				s.XAlign, s.YAlign = text.XCenter, text.YCenter
				c.FillText(s, vg.Point{X: x + cell/2, Y: y + cell/2}, shareText(frac, counts[i][j]))
			}
		}
		frame := line(0.8, color.Gray{Y: 90})
		g := l.Grid.Size().X
		c.StrokeLines(frame, append(rect(gx0, gy1-g, g, g), vg.Point{X: gx0, Y: gy1 - g}))
		for _, lab := range append(append(slices.Clone(l.Rows), l.Cols...), l.XTitle, l.YTitle) {
			lab.draw(c)
		}
		b := l.Bar
		colourBar(c, c.Min.X+b.Min.X, c.Min.Y+b.Min.Y, b.Size().X, b.Size().Y, frame, l.BarTicks)
	}
	return f, nil
}

// heatLayout places the parts of a confusion heat map. Every text is a
// label whose box (textBox) overlaps no other text, nor the grid or the
// colour bar, and lies within the figure: class names are set in a size
// that fits the grid's pitch (from 9 down to 5 points), shortened with "…"
// when wider than maxClassLabel (a title wider than the figure wraps), and when the pitch is too small even for
// 5 points only every stride-th class is named.
type heatLayout struct {
	W, H vg.Length
	// Grid is the K×K square and Cell the side of one cell.
	Grid vg.Rectangle
	Cell vg.Length
	// Title is the lines of the title (wrapped to the figure's width,
	// never cut); Rows and Cols the class names down the left and along
	// the bottom (read bottom to top); XTitle and YTitle the axis titles.
	Title          []label
	Rows, Cols     []label
	XTitle, YTitle label
	// Bar is the colour bar and BarTicks its tick labels.
	Bar      vg.Rectangle
	BarTicks []label
	// NumSize is the size of the shares written in the cells, when
	// Annotate (cells of at least 16 points).
	NumSize  vg.Length
	Annotate bool
	// Stride is 1 when every class is named, else the step between the
	// classes named.
	Stride int
}

// Sizes of a heat map's parts, in points.
const (
	maxClassLabel = 90 // widest class name; longer ones are shortened
	heatPad       = 4  // figure edge to an axis title
	heatGap       = 4  // between an axis title and the class names, and names and grid
	barGap        = 12 // grid to colour bar
	barW          = 10
	barLabels     = 26 // tick labels right of the bar
	heatRight     = 6
	minClassFont  = 5
	maxClassFont  = 9
)

// newHeatLayout lays out the heat map of classes with title.
func newHeatLayout(title string, classes []string) *heatLayout {
	k := len(classes)
	l := &heatLayout{W: ConfusionWidth, Stride: 1}
	head := newTitle(title, 11, l.W-2*heatPad)
	titleH := vg.Length(0)
	if len(head.Lines) > 0 {
		titleH = vg.Length(len(head.Lines))*lineHeight(head.Style) + 2*heatPad
	}
	axis := sans(10, true)
	axisH := lineHeight(axis)
	// The pitch depends on the names' width (the left margin), and the
	// names' size on the pitch: a smaller size only widens the grid, so
	// one pass at the size the widest names allow, then one at the size
	// the resulting pitch allows, settle it.
	size := vg.Length(maxClassFont)
	var names []string
	var labW, grid vg.Length
	for range 3 {
		s := sans(size, false)
		names, labW = make([]string, k), 0
		for i, c := range classes {
			names[i] = shorten(s, c, maxClassLabel)
			labW = max(labW, s.Width(names[i]))
		}
		left := heatPad + axisH + heatGap + labW + heatGap
		grid = l.W - left - barGap - barW - barLabels - heatRight
		pitch := grid / vg.Length(k)
		perPoint := lineHeight(sans(1, false))
		size = min(max(pitch*0.95/perPoint, minClassFont), maxClassFont)
		if size == minClassFont {
			l.Stride = int(math.Ceil(float64(lineHeight(sans(size, false)) / pitch)))
		}
	}
	left := heatPad + axisH + heatGap + labW + heatGap
	l.Cell = grid / vg.Length(k)
	tick := sans(8, false)
	// Above the grid: room for half the top class name (centred on a
	// pitch that may be smaller than its height) and half the colour
	// bar's top tick label.
	top := titleH + max(lineHeight(sans(size, false))-l.Cell, lineHeight(tick))/2 + 1
	bottom := heatPad + axisH + heatGap + labW + heatGap
	l.H = top + grid + bottom
	l.Grid = vg.Rectangle{Min: vg.Point{X: left, Y: bottom}, Max: vg.Point{X: left + grid, Y: bottom + grid}}
	for i, line := range head.Lines {
		l.Title = append(l.Title, newLabel(line, head.Style, vg.Point{X: l.W / 2, Y: l.H - heatPad - vg.Length(i)*lineHeight(head.Style)}))
	}
	s := sans(size, false)
	s.XAlign, s.YAlign = text.XRight, text.YCenter
	r := s
	r.Rotation = math.Pi / 2 // read bottom to top
	for i, name := range names {
		if i%l.Stride != 0 {
			continue
		}
		mid := (vg.Length(i) + 0.5) * l.Cell
		l.Rows = append(l.Rows, newLabel(name, s, vg.Point{X: left - heatGap, Y: l.Grid.Max.Y - mid}))
		l.Cols = append(l.Cols, newLabel(name, r, vg.Point{X: left + mid, Y: l.Grid.Min.Y - heatGap}))
	}
	axis.XAlign, axis.YAlign = text.XCenter, text.YBottom
	l.XTitle = newLabel("predicted", axis, vg.Point{X: left + grid/2, Y: heatPad})
	axis.Rotation, axis.YAlign = math.Pi/2, text.YTop
	l.YTitle = newLabel("true class", axis, vg.Point{X: heatPad, Y: l.Grid.Min.Y + grid/2})
	bx := left + grid + barGap
	l.Bar = vg.Rectangle{Min: vg.Point{X: bx, Y: l.Grid.Min.Y}, Max: vg.Point{X: bx + barW, Y: l.Grid.Max.Y}}
	tick.XAlign, tick.YAlign = text.XLeft, text.YCenter
	for _, t := range []float64{0, 0.25, 0.5, 0.75, 1} {
		at := vg.Point{X: bx + barW + 5, Y: l.Grid.Min.Y + vg.Length(t)*grid}
		l.BarTicks = append(l.BarTicks, newLabel(strconv.FormatFloat(t, 'g', -1, 64), tick, at))
	}
	l.NumSize = max(min(l.Cell/3, 11), 6)
	l.Annotate = l.Cell >= 16 // room for "0.93"
	return l
}

// texts returns every text of the layout.
func (l *heatLayout) texts() []label {
	out := append(append(slices.Clone(l.Rows), l.Cols...), l.XTitle, l.YTitle)
	out = append(out, l.BarTicks...)
	return append(out, l.Title...)
}

// shareText labels a heat-map cell: its share with two decimals, "0" for
// an empty cell, and "<.01" for a share that rounds to 0 but is not empty.
func shareText(frac float64, count int) string {
	switch {
	case count == 0:
		return "0"
	case frac < 0.005:
		return "<.01"
	}
	return strconv.FormatFloat(frac, 'f', 2, 64)
}

// colourBar draws the shade scale from 0 (bottom) to 1 (top) in the
// rectangle at (x, y) of size w × h, with a tick at each of ticks (laid
// out relative to the figure, as heatLayout places them).
func colourBar(c draw.Canvas, x, y, w, h vg.Length, frame draw.LineStyle, ticks []label) {
	const steps = 64
	step := h / steps
	for i := range steps {
		c.FillPolygon(blues((float64(i)+0.5)/steps), rect(x, y+vg.Length(i)*step, w, step+0.3))
	}
	c.StrokeLines(frame, append(rect(x, y, w, h), vg.Point{X: x, Y: y}))
	for _, t := range ticks {
		ty := c.Min.Y + t.At.Y
		c.StrokeLine2(frame, x+w, ty, x+w+3, ty)
		t.draw(c)
	}
}

// rect returns the corners of the rectangle at (x, y) of size w × h.
func rect(x, y, w, h vg.Length) []vg.Point {
	return []vg.Point{{X: x, Y: y}, {X: x + w, Y: y}, {X: x + w, Y: y + h}, {X: x, Y: y + h}}
}

// blues maps a share in [0, 1] to a white-to-blue ramp (ColorBrewer Blues
// end points).
func blues(t float64) color.Color {
	t = min(max(t, 0), 1)
	lerp := func(a, b uint8) uint8 { return uint8(float64(a) + t*(float64(b)-float64(a)) + 0.5) }
	return color.RGBA{R: lerp(247, 8), G: lerp(251, 48), B: lerp(255, 107), A: 255}
}
