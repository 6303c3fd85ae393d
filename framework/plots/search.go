package plots

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// SearchSeries is one outer fold of a tuning search: every candidate's
// inner score in every round (Resource, Score: one point each) and, per
// round, the best (Best: one line per successive halving, a point per
// round in round order; hyperband has a line per bracket).
type SearchSeries struct {
	Name   string
	Points plotter.XYs
	Best   []plotter.XYs
}

// maxSearchLegend is the number of series named in a search figure's
// legend; with more the series still have their colours.
const maxSearchLegend = 10

// SearchScores draws a tuning search's scores against the resource each
// round gave its candidates (rows, or a budget parameter's value): each
// series' candidates as small markers of its colour and its rounds' best
// joined by a line. The resource axis is logarithmic when it spans a
// factor of 10 or more, as successive halving's rounds grow by a factor.
func SearchScores(title, resource, score string, series []SearchSeries) (*Figure, error) {
	lo, hi := 0.0, 0.0
	for _, s := range series {
		for _, p := range s.Points {
			if lo == 0 || p.X < lo {
				lo = p.X
			}
			hi = max(hi, p.X)
		}
	}
	if len(series) == 0 || lo <= 0 {
		return nil, fmt.Errorf("search figure: no positive resource in %d series", len(series))
	}
	p := plot.New()
	p.X.Label.Text, p.Y.Label.Text = resource, score
	p.X.Label.TextStyle.Font, p.Y.Label.TextStyle.Font = sans(9, false).Font, sans(9, false).Font
	p.X.Tick.Label.Font, p.Y.Tick.Label.Font = sans(8, false).Font, sans(8, false).Font
	if hi/lo >= 10 {
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{}
	}
	p.X.Min, p.X.Max = lo/1.2, hi*1.2
	p.Add(plotter.NewGrid())
	p.Legend.Top, p.Legend.Left = false, false
	p.Legend.TextStyle.Font = sans(8, false).Font
	for i, s := range series {
		sc, err := plotter.NewScatter(s.Points)
		if err != nil {
			return nil, fmt.Errorf("search figure: %w", err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: lighten(Colour(i), 0.35), Radius: vg.Points(1.8), Shape: draw.CircleGlyph{}}
		p.Add(sc)
		for j, best := range s.Best {
			if len(best) == 0 {
				continue
			}
			ln, pts, err := plotter.NewLinePoints(best)
			if err != nil {
				return nil, fmt.Errorf("search figure: %w", err)
			}
			ln.LineStyle = line(1.2, Colour(i))
			pts.GlyphStyle = draw.GlyphStyle{Color: Colour(i), Radius: vg.Points(2.6), Shape: Marker(i)}
			p.Add(ln, pts)
			if j == 0 && i < maxSearchLegend {
				p.Legend.Add(s.Name, ln, pts)
			}
		}
	}
	const w, h = 5 * vg.Inch, 3.4 * vg.Inch
	titleH := vg.Length(0)
	if title != "" {
		titleH = 24
	}
	f := &Figure{Width: w, Height: h + titleH}
	f.draw = func(c draw.Canvas) {
		if title != "" {
			s := sans(11, true)
			s.XAlign, s.YAlign = -0.5, -1
			c.FillText(s, vg.Point{X: c.Min.X + w/2, Y: c.Max.Y - 6}, title)
		}
		pc := c
		pc.Rectangle = vg.Rectangle{Min: vg.Point{X: c.Min.X + 4, Y: c.Min.Y + 2}, Max: vg.Point{X: c.Max.X - 8, Y: c.Max.Y - titleH}}
		p.Draw(pc)
	}
	return f, nil
}
