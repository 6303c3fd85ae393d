package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// maxPanelsPerRow is the number of dataset panels side by side in BoxPlots.
const maxPanelsPerRow = 4

// BoxRow is one row of BoxPlots: its name on the y axis, and the learner
// and reduction it belongs to, which give its box's colour and its mean's
// marker.
type BoxRow struct {
	Label, Learner, Reduction string
}

// BoxPlots draws Tukey box plots of fold scores: one panel per dataset,
// one horizontal box per row (method) in each, the rows listed top to bottom
// in the given order. Each learner has its colour (Colour, in the order
// the rows first name them) and each reduction its marker (Marker), drawn
// at the mean of the fold scores; a legend under the title says which.
// scores[d][r] holds the fold scores of row r on dataset d; an empty slice
// (a failed or missing cell) leaves its place empty. xLabel names the
// metric (say whether it is minimised).
func BoxPlots(title, xLabel string, datasets []string, rows []BoxRow, scores [][][]float64) (*Figure, error) {
	if len(datasets) == 0 || len(rows) == 0 {
		return nil, fmt.Errorf("box plots: need datasets and rows, have %d and %d", len(datasets), len(rows))
	}
	if len(scores) != len(datasets) {
		return nil, fmt.Errorf("box plots: scores for %d datasets, want %d", len(scores), len(datasets))
	}
	cols := min(len(datasets), maxPanelsPerRow)
	nrows := (len(datasets) + cols - 1) / cols
	grid := make([][]*plot.Plot, nrows)
	for i := range grid {
		grid[i] = make([]*plot.Plot, cols)
	}
	// Row labels top to bottom: position len(rows)-1-r on the y axis,
	// each at most maxRowLabel wide.
	names := make([]string, len(rows))
	for r, n := range rows {
		names[len(rows)-1-r] = shorten(sans(9, false), n.Label, maxRowLabel)
	}
	learners, reductions := boxKeys(rows)
	for d, ds := range datasets {
		if len(scores[d]) != len(rows) {
			return nil, fmt.Errorf("box plots: dataset %q has %d rows of scores, want %d", ds, len(scores[d]), len(rows))
		}
		p, err := boxPanel(ds, xLabel, rows, scores[d], names, learners, reductions)
		if err != nil {
			return nil, err
		}
		if d%cols != 0 {
			p.Y.Tick.Label.Color = color.Transparent
			p.Y.Tick.Marker = blankTicks(len(rows))
		}
		grid[d/cols][d%cols] = p
	}
	var labelW vg.Length
	sty := sans(9, false)
	for _, n := range names {
		labelW = max(labelW, sty.Width(n)+8)
	}
	panelW := vg.Length(2.3) * vg.Inch
	panelH := vg.Length(len(rows))*vg.Points(20) + vg.Points(70)
	W := labelW + vg.Length(cols)*panelW + 10
	head := newTitle(title, 12, W-8)
	titleH := vg.Length(0)
	if title != "" {
		titleH = 24 + head.extra()
	}
	groups := boxLegend(rows, learners, reductions)
	legendH := layoutLegend(groups, 8, W-16, 0).H
	H := titleH + legendH + 4 + vg.Length(nrows)*panelH
	legend := layoutLegend(groups, 8, W-16, H-titleH)
	titleH += legendH + 4
	f := &Figure{Width: W, Height: H}
	f.draw = func(c draw.Canvas) {
		head.draw(c)
		legend.draw(c)
		// The first column is wider by the row labels, so that every
		// panel's data area has about the same width.
		for i := range grid {
			for j, p := range grid[i] {
				if p == nil {
					continue
				}
				x0 := c.Min.X + vg.Length(j)*panelW
				x1 := x0 + panelW
				if j == 0 {
					x1 += labelW
				} else {
					x0 += labelW
					x1 += labelW
				}
				y1 := c.Max.Y - titleH - vg.Length(i)*panelH
				pc := c
				pc.Rectangle = vg.Rectangle{Min: vg.Point{X: x0 + 4, Y: y1 - panelH + 4}, Max: vg.Point{X: x1 - 6, Y: y1 - 4}}
				p.Draw(pc)
			}
		}
	}
	return f, nil
}

// boxPanel is the panel of dataset ds: a horizontal box plot of each row's
// fold scores (filled in its learner's colour) with the mean marked by
// its reduction's marker, rows top to bottom (names, reversed).
func boxPanel(ds, xLabel string, rows []BoxRow, scores [][]float64, names []string, learners, reductions map[string]int) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = ds
	p.Title.TextStyle.Font = sans(11, true).Font
	p.X.Label.Text = xLabel
	p.X.Label.TextStyle.Font = sans(9, false).Font
	p.X.Tick.Label.Font = sans(8, false).Font
	p.Y.Tick.Label.Font = sans(9, false).Font
	p.Add(plotter.NewGrid())
	lo, hi := math.Inf(1), math.Inf(-1)
	for r, vals := range scores {
		if len(vals) == 0 {
			continue
		}
		b, err := plotter.NewBoxPlot(vg.Points(10), float64(len(rows)-1-r), plotter.Values(vals))
		if err != nil {
			return nil, fmt.Errorf("box plots: %s, %s: %w", ds, rows[r].Label, err)
		}
		b.Horizontal = true
		b.FillColor = lighten(Colour(learners[rows[r].Learner]), 0.35)
		b.MedianStyle.Width = vg.Points(1.5)
		b.GlyphStyle.Radius = vg.Points(2)
		b.GlyphStyle.Shape = draw.CircleGlyph{}
		p.Add(b)
		mean, err := plotter.NewScatter(plotter.XYs{{X: meanOf(vals), Y: float64(len(rows) - 1 - r)}})
		if err != nil {
			return nil, fmt.Errorf("box plots: %s, %s: %w", ds, rows[r].Label, err)
		}
		mean.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(3), Shape: Marker(reductions[rows[r].Reduction])}
		p.Add(mean)
		for _, v := range vals {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if lo <= hi {
		span := hi - lo
		if span == 0 {
			span = math.Max(math.Abs(hi)*0.02, 0.01)
		}
		p.X.Min, p.X.Max = lo-0.08*span, hi+0.08*span
	}
	p.NominalY(names...)
	p.Y.Min, p.Y.Max = -0.6, float64(len(rows))-0.4
	return p, nil
}

// boxKeys numbers the learners and the reductions of rows in the order
// the rows first name them: their colours and markers.
func boxKeys(rows []BoxRow) (learners, reductions map[string]int) {
	learners, reductions = map[string]int{}, map[string]int{}
	for _, r := range rows {
		if _, ok := learners[r.Learner]; !ok {
			learners[r.Learner] = len(learners)
		}
		if _, ok := reductions[r.Reduction]; !ok {
			reductions[r.Reduction] = len(reductions)
		}
	}
	return learners, reductions
}

// boxLegend lists the learners with their colours and the reductions with
// their markers, in the order the rows first name them.
func boxLegend(rows []BoxRow, learners, reductions map[string]int) []legendGroup {
	l := legendGroup{Heading: "learner"}
	red := legendGroup{Heading: "reduction (marker at the mean)"}
	seenL, seenR := map[string]bool{}, map[string]bool{}
	for _, r := range rows {
		if !seenL[r.Learner] {
			seenL[r.Learner] = true
			l.Items = append(l.Items, legendItem{Text: r.Learner, Fill: lighten(Colour(learners[r.Learner]), 0.35)})
		}
		if !seenR[r.Reduction] {
			seenR[r.Reduction] = true
			red.Items = append(red.Items, legendItem{Text: r.Reduction, Glyph: Marker(reductions[r.Reduction])})
		}
	}
	return []legendGroup{l, red}
}

// meanOf returns the mean of x, summed in order.
func meanOf(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// blankTicks keeps the nominal tick positions without labels, so that the
// panels after the first in a row do not repeat the row names.
type blankTicks int

// Ticks returns one unlabelled tick per row.
func (n blankTicks) Ticks(_, _ float64) []plot.Tick {
	t := make([]plot.Tick, int(n))
	for i := range t {
		t[i] = plot.Tick{Value: float64(i)}
	}
	return t
}
