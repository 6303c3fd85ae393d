package plots

import (
	"fmt"
	"image/color"
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
// shades to shares from 0 to 1. The figure is ConfusionWidth wide.
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
	lab := sans(9, false)
	var labW vg.Length
	for _, c := range classes {
		labW = max(labW, lab.Width(c))
	}
	labW = min(labW, 90) // longer names overrun the margin rather than shrink the grid
	titleH := vg.Length(0)
	if title != "" {
		titleH = 24
	}
	const (
		axisTitle = 16
		barGap    = 12 // grid to colour bar
		barW      = 10
		barLabels = 26 // tick labels right of the bar
		right     = 6
	)
	left := labW + axisTitle + 12
	grid := ConfusionWidth - left - barGap - barW - barLabels - right
	cell := grid / vg.Length(k)
	bottom := labW + axisTitle + 12 // x labels are rotated
	W := ConfusionWidth
	H := titleH + grid + bottom + 8
	numSize := max(min(cell/3, 11), 6)
	annotate := cell >= 16 // room for "0.93"
	f := &Figure{Width: W, Height: H}
	f.draw = func(c draw.Canvas) {
		if title != "" {
			s := sans(11, true)
			s.XAlign, s.YAlign = text.XCenter, text.YTop
			c.FillText(s, vg.Point{X: c.Min.X + W/2, Y: c.Max.Y - 6}, title)
		}
		gx0 := c.Min.X + left
		gy1 := c.Max.Y - titleH - 4 // top of the grid
		for i, row := range shares {
			for j, frac := range row {
				x, y := gx0+vg.Length(j)*cell, gy1-vg.Length(i+1)*cell
				c.FillPolygon(blues(frac), rect(x, y, cell, cell))
				if !annotate {
					continue
				}
				s := sans(numSize, i == j)
				if frac > 0.55 {
					s.Color = color.White
				}
				s.XAlign, s.YAlign = text.XCenter, text.YCenter
				c.FillText(s, vg.Point{X: x + cell/2, Y: y + cell/2}, shareText(frac, counts[i][j]))
			}
		}
		frame := line(0.8, color.Gray{Y: 90})
		c.StrokeLines(frame, append(rect(gx0, gy1-grid, grid, grid), vg.Point{X: gx0, Y: gy1 - grid}))
		for i, name := range classes {
			s := lab
			s.XAlign, s.YAlign = text.XRight, text.YCenter
			c.FillText(s, vg.Point{X: gx0 - 4, Y: gy1 - (vg.Length(i)+0.5)*cell}, name)
			s.Rotation = 1.5707963267948966 // π/2: read bottom to top
			c.FillText(s, vg.Point{X: gx0 + (vg.Length(i)+0.5)*cell, Y: gy1 - grid - 4}, name)
		}
		at := sans(10, true)
		at.XAlign, at.YAlign = text.XCenter, text.YBottom
		c.FillText(at, vg.Point{X: gx0 + grid/2, Y: c.Min.Y + 4}, "predicted")
		at.Rotation = 1.5707963267948966
		at.YAlign = text.YTop
		c.FillText(at, vg.Point{X: c.Min.X + 4, Y: gy1 - grid/2}, "true class")
		colourBar(c, gx0+grid+barGap, gy1-grid, barW, grid, frame)
	}
	return f, nil
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
// rectangle at (x, y) of size w × h, with ticks at 0, 0.25, 0.5, 0.75, 1.
func colourBar(c draw.Canvas, x, y, w, h vg.Length, frame draw.LineStyle) {
	const steps = 64
	step := h / steps
	for i := range steps {
		c.FillPolygon(blues((float64(i)+0.5)/steps), rect(x, y+vg.Length(i)*step, w, step+0.3))
	}
	c.StrokeLines(frame, append(rect(x, y, w, h), vg.Point{X: x, Y: y}))
	s := sans(8, false)
	s.XAlign, s.YAlign = text.XLeft, text.YCenter
	for _, t := range []float64{0, 0.25, 0.5, 0.75, 1} {
		ty := y + vg.Length(t)*h
		c.StrokeLine2(frame, x+w, ty, x+w+3, ty)
		c.FillText(s, vg.Point{X: x + w + 5, Y: ty}, strconv.FormatFloat(t, 'g', -1, 64))
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
