package plots

import (
	"fmt"
	"image/color"
	"strconv"

	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ConfusionHeatMap draws a K×K confusion matrix (rows = actual class,
// columns = predicted class) as a heat map annotated with the counts. Each
// cell is shaded by its share of its row (the recall of the actual class
// for diagonal cells), so classes of different sizes read alike.
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
	cell := max(min(vg.Length(320/k), 44), 18)
	numSize := max(min(cell/3, 11), 6)
	lab := sans(9, false)
	var labW vg.Length
	for _, c := range classes {
		labW = max(labW, lab.Width(c))
	}
	titleH := vg.Length(0)
	if title != "" {
		titleH = 24
	}
	const axisTitle = 16
	left := labW + axisTitle + 12
	bottom := labW + axisTitle + 12 // x labels are rotated
	grid := vg.Length(k) * cell
	W := left + grid + 16
	H := titleH + grid + bottom + 8
	f := &Figure{Width: W, Height: H}
	f.draw = func(c draw.Canvas) {
		if title != "" {
			s := sans(11, true)
			s.XAlign, s.YAlign = text.XCenter, text.YTop
			c.FillText(s, vg.Point{X: c.Min.X + W/2, Y: c.Max.Y - 6}, title)
		}
		gx0 := c.Min.X + left
		gy1 := c.Max.Y - titleH - 4 // top of the grid
		for i, row := range counts {
			total := 0
			for _, v := range row {
				total += v
			}
			for j, v := range row {
				frac := 0.0
				if total > 0 {
					frac = float64(v) / float64(total)
				}
				x, y := gx0+vg.Length(j)*cell, gy1-vg.Length(i+1)*cell
				fill := blues(frac)
				c.FillPolygon(fill, []vg.Point{{X: x, Y: y}, {X: x + cell, Y: y}, {X: x + cell, Y: y + cell}, {X: x, Y: y + cell}})
				s := sans(numSize, i == j)
				if frac > 0.55 {
					s.Color = color.White
				}
				s.XAlign, s.YAlign = text.XCenter, text.YCenter
				c.FillText(s, vg.Point{X: x + cell/2, Y: y + cell/2}, strconv.Itoa(v))
			}
		}
		frame := line(0.8, color.Gray{Y: 90})
		c.StrokeLines(frame, []vg.Point{{X: gx0, Y: gy1}, {X: gx0 + grid, Y: gy1}, {X: gx0 + grid, Y: gy1 - grid}, {X: gx0, Y: gy1 - grid}, {X: gx0, Y: gy1}})
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
		c.FillText(at, vg.Point{X: c.Min.X + 4, Y: gy1 - grid/2}, "actual")
	}
	return f, nil
}

// blues maps a share in [0, 1] to a white-to-blue ramp (ColorBrewer Blues
// end points).
func blues(t float64) color.Color {
	t = min(max(t, 0), 1)
	lerp := func(a, b uint8) uint8 { return uint8(float64(a) + t*(float64(b)-float64(a)) + 0.5) }
	return color.RGBA{R: lerp(247, 8), G: lerp(251, 48), B: lerp(255, 107), A: 255}
}
