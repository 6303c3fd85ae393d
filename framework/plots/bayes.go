package plots

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/gonum/stat/distuv"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The posterior plots of the Bayesian comparisons (Benavoli et al. 2017):
// the density of the correlated t-test's posterior on one data set, and
// the simplex of the signed-rank test's Monte Carlo samples across data
// sets, drawn as baycomp draws them.

var (
	ropeColour    = color.RGBA{R: 0xff, G: 0xad, B: 0x2f, A: 0xff} // baycomp's rope lines
	densityColour = color.RGBA{R: 0x2f, G: 0x56, B: 0xe0, A: 0xff}
	densityFill   = color.NRGBA{R: 0x34, G: 0xcc, B: 0xff, A: 0x90}
	ropeFill      = color.NRGBA{R: 0xff, G: 0xad, B: 0x2f, A: 0x70}
)

// Probabilities are the posterior probabilities of the three regions of a
// Bayesian comparison: the left learner better by more than the rope, the
// two within the rope, the right learner better by more than the rope.
type Probabilities struct{ Left, Rope, Right float64 }

// probLine is "P(left better) = 0.012   P(rope) = 0.951   P(right better) = 0.037".
func probLine(p Probabilities, rope float64) string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }
	if rope == 0 {
		return "P(left better) = " + f(p.Left) + "     P(right better) = " + f(p.Right)
	}
	return "P(left better) = " + f(p.Left) + "     P(rope) = " + f(p.Rope) + "     P(right better) = " + f(p.Right)
}

// fitText shortens s with "…" until it is at most w wide in style sty.
func fitText(sty text.Style, s string, w vg.Length) string {
	r := []rune(s)
	for len(r) > 1 && sty.Width(string(r)) > w {
		r = r[:len(r)-1]
		s = string(r) + "…"
		if sty.Width(s) <= w {
			return s
		}
	}
	return s
}

// PosteriorDensity draws the posterior of a mean difference right − left
// (oriented so that positive favours the right learner): Student's t with
// df degrees of freedom, location loc and scale scale, over its central
// 99% and the rope, as baycomp's plot; the area under it filled, the part
// within the rope [−rope, rope] shaded and bounded by two lines. With
// scale 0 the posterior is a point mass, drawn as a spike at loc. Under
// the axis, which learner each side favours and the three probabilities.
// xLabel names the difference (the metric); df > 0, scale ≥ 0 and
// rope ≥ 0 are required.
func PosteriorDensity(title, xLabel, left, right string, loc, scale, df, rope float64, p Probabilities) (*Figure, error) {
	switch {
	case !(df > 0), !(scale >= 0), !(rope >= 0), math.IsNaN(loc), math.IsInf(loc, 0), math.IsInf(scale, 0), math.IsInf(rope, 0):
		return nil, fmt.Errorf("posterior density: need df > 0, scale ≥ 0, rope ≥ 0 and a finite location, have df %v, scale %v, rope %v, location %v",
			df, scale, rope, loc)
	}
	pl := plot.New()
	pl.X.Label.Text = xLabel
	pl.X.Label.TextStyle.Font = sans(9, false).Font
	pl.X.Tick.Label.Font = sans(8, false).Font
	pl.Y.Tick.Label.Font = sans(8, false).Font
	pl.Y.Label.Text = "density"
	pl.Y.Label.TextStyle.Font = sans(9, false).Font
	pl.Add(plotter.NewGrid())
	lo, hi := math.Min(loc, -1.05*rope), math.Max(loc, 1.05*rope)
	t := distuv.StudentsT{Mu: loc, Sigma: scale, Nu: df}
	if scale > 0 {
		lo, hi = math.Min(t.Quantile(0.005), lo), math.Max(t.Quantile(0.995), hi)
	}
	if hi-lo == 0 {
		lo, hi = loc-0.01, loc+0.01
	}
	top := 1.0
	if scale > 0 {
		var err error
		if top, err = addDensity(pl, t, lo, hi, rope); err != nil {
			return nil, err
		}
	} else {
		spike, err := plotter.NewLine(plotter.XYs{{X: loc, Y: 0}, {X: loc, Y: top}})
		if err != nil {
			return nil, fmt.Errorf("posterior density: %w", err)
		}
		spike.LineStyle = line(vg.Points(2.5), densityColour)
		pl.Add(spike)
	}
	if err := addRopeLines(pl, rope, top); err != nil {
		return nil, err
	}
	pl.X.Min, pl.X.Max = lo, hi
	pl.Y.Min, pl.Y.Max = 0, 1.08*top
	W := vg.Length(5.6) * vg.Inch
	head := newTitle(title, 11, W-16)
	// A title of several lines makes the figure taller, not the plot
	// smaller.
	H := vg.Length(3.4)*vg.Inch + head.extra()
	const foot = 40
	f := &Figure{Width: W, Height: H}
	f.draw = func(c draw.Canvas) {
		head.draw(c)
		pc := c
		pc.Rectangle = vg.Rectangle{Min: vg.Point{X: c.Min.X + 4, Y: c.Min.Y + foot}, Max: vg.Point{X: c.Max.X - 8, Y: c.Max.Y - max(head.Height, 4)}}
		pl.Draw(pc)
		s := sans(9, false)
		s.YAlign = text.YTop
		half := W/2 - 12
		s.XAlign = text.XLeft
		c.FillText(s, vg.Point{X: c.Min.X + 8, Y: c.Min.Y + foot - 2}, fitText(s, "← "+left+" better", half))
		s.XAlign = text.XRight
		c.FillText(s, vg.Point{X: c.Max.X - 8, Y: c.Min.Y + foot - 2}, fitText(s, right+" better →", half))
		s.XAlign = text.XCenter
		c.FillText(s, vg.Point{X: c.Min.X + W/2, Y: c.Min.Y + foot - 18}, probLine(p, rope))
	}
	return f, nil
}

// addDensity adds the density of t over [lo, hi] to pl, filled, with the
// part within ±rope filled apart; it returns the density's top, at t's
// location.
func addDensity(pl *plot.Plot, t distuv.StudentsT, lo, hi, rope float64) (float64, error) {
	const n = 200
	curve := make(plotter.XYs, n)
	for i := range curve {
		x := lo + (hi-lo)*float64(i)/(n-1)
		curve[i] = plotter.XY{X: x, Y: t.Prob(x)}
	}
	top := t.Prob(t.Mu)
	area := append(plotter.XYs{{X: lo, Y: 0}}, curve...)
	area = append(area, plotter.XY{X: hi, Y: 0})
	poly, err := plotter.NewPolygon(area)
	if err != nil {
		return 0, fmt.Errorf("posterior density: %w", err)
	}
	poly.Color, poly.LineStyle.Width = densityFill, 0
	pl.Add(poly)
	if rope > 0 {
		in := plotter.XYs{{X: -rope, Y: 0}}
		for i := 0; i <= 50; i++ {
			x := -rope + 2*rope*float64(i)/50
			in = append(in, plotter.XY{X: x, Y: t.Prob(x)})
		}
		in = append(in, plotter.XY{X: rope, Y: 0})
		if poly, err = plotter.NewPolygon(in); err != nil {
			return 0, fmt.Errorf("posterior density: %w", err)
		}
		poly.Color, poly.LineStyle.Width = ropeFill, 0
		pl.Add(poly)
	}
	l, err := plotter.NewLine(curve)
	if err != nil {
		return 0, fmt.Errorf("posterior density: %w", err)
	}
	l.LineStyle = line(vg.Points(1.8), densityColour)
	pl.Add(l)
	return top, nil
}

// addRopeLines adds the vertical lines at −rope and +rope (one at 0 when
// rope is 0) to pl, up to a little above top.
func addRopeLines(pl *plot.Plot, rope, top float64) error {
	for _, x := range []float64{-rope, rope} {
		if rope == 0 && x > 0 {
			break
		}
		v, err := plotter.NewLine(plotter.XYs{{X: x, Y: 0}, {X: x, Y: 1.05 * top}})
		if err != nil {
			return fmt.Errorf("posterior density: %w", err)
		}
		v.LineStyle = line(vg.Points(1.5), ropeColour)
		pl.Add(v)
	}
	return nil
}

// simplexBins is the number of bins across the simplex's base.
const simplexBins = 60

// Simplex draws Monte Carlo samples of a posterior over the three regions
// (left, rope, right: masses summing to 1) in a triangle, as baycomp's
// plot_simplex: each sample at the point whose barycentric coordinates are
// its masses, the left learner's corner bottom left, the right learner's
// bottom right, the rope's at the top; the samples are binned and each bin
// shaded by the logarithm of its count (a hexbin in baycomp). The lines
// from the centre to the sides' midpoints bound the regions in which one
// mass is the largest: the share of samples in each region is that
// region's probability, printed at its corner. rope 0 puts every sample on
// the base.
func Simplex(title, left, right string, samples [][3]float64, p Probabilities) (*Figure, error) {
	if len(samples) == 0 {
		return nil, fmt.Errorf("simplex: no samples")
	}
	const bins = simplexBins
	rowsN := int(math.Ceil(bins * math.Sqrt(3) / 2))
	counts := make([]int, bins*rowsN)
	maxCount := 0
	for i, s := range samples {
		for _, v := range s {
			if math.IsNaN(v) || v < -1e-9 || v > 1+1e-9 {
				return nil, fmt.Errorf("simplex: sample %d (%v) is not on the simplex", i, s)
			}
		}
		x, y := s[2]+0.5*s[1], s[1]*math.Sqrt(3)/2 // left (0, 0), right (1, 0), rope (½, √3/2)
		bx := min(max(int(x*bins), 0), bins-1)
		by := min(max(int(y*bins), 0), rowsN-1)
		counts[by*bins+bx]++
		maxCount = max(maxCount, counts[by*bins+bx])
	}
	W := vg.Length(4.6) * vg.Inch
	head := newTitle(title, 11, W-8)
	titleH := max(head.Height, 24)
	const (
		margin = 16
		topH   = 22 // P(rope) above the apex
		footH  = 40 // names and probabilities under the base
	)
	side := W - 2*margin
	H := titleH + topH + side*vg.Length(math.Sqrt(3)/2) + footH
	f := &Figure{Width: W, Height: H}
	f.draw = func(c draw.Canvas) {
		head.draw(c)
		x0, y0 := c.Min.X+margin, c.Min.Y+footH
		at := func(x, y float64) vg.Point {
			return vg.Point{X: x0 + side*vg.Length(x), Y: y0 + side*vg.Length(y)}
		}
		cell := side / bins
		for by := range rowsN {
			for bx := range bins {
				n := counts[by*bins+bx]
				if n == 0 {
					continue
				}
				t := 0.25 + 0.75*math.Log1p(float64(n))/math.Log1p(float64(maxCount))
				pt := at(float64(bx)/bins, float64(by)/bins)
				c.FillPolygon(simplexShade(t), []vg.Point{pt, {X: pt.X + cell + 0.2, Y: pt.Y}, {X: pt.X + cell + 0.2, Y: pt.Y + cell + 0.2}, {X: pt.X, Y: pt.Y + cell + 0.2}})
			}
		}
		h := math.Sqrt(3) / 2
		edge := line(vg.Points(1.5), ropeColour)
		c.StrokeLines(edge, []vg.Point{at(0, 0), at(1, 0), at(0.5, h), at(0, 0)})
		centre := at(0.5, h/3)
		for _, m := range [][2]float64{{0.5, 0}, {0.75, h / 2}, {0.25, h / 2}} {
			c.StrokeLine2(edge, centre.X, centre.Y, at(m[0], m[1]).X, at(m[0], m[1]).Y)
		}
		f3 := func(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }
		name, prob := sans(9, true), sans(9, false)
		half := W/2 - 8
		name.YAlign, prob.YAlign = text.YTop, text.YTop
		name.XAlign, prob.XAlign = text.XLeft, text.XLeft
		c.FillText(name, vg.Point{X: c.Min.X + 6, Y: y0 - 6}, fitText(name, left, half))
		c.FillText(prob, vg.Point{X: c.Min.X + 6, Y: y0 - 20}, "P(better) = "+f3(p.Left))
		name.XAlign, prob.XAlign = text.XRight, text.XRight
		c.FillText(name, vg.Point{X: c.Max.X - 6, Y: y0 - 6}, fitText(name, right, half))
		c.FillText(prob, vg.Point{X: c.Max.X - 6, Y: y0 - 20}, "P(better) = "+f3(p.Right))
		prob.XAlign, prob.YAlign = text.XCenter, text.YBottom
		c.FillText(prob, vg.Point{X: at(0.5, h).X, Y: at(0.5, h).Y + 6}, "P(rope) = "+f3(p.Rope))
	}
	return f, nil
}

// simplexShade maps t in [0, 1] to a light-to-dark blue.
func simplexShade(t float64) color.Color {
	t = min(max(t, 0), 1)
	lerp := func(a, b uint8) uint8 { return uint8(float64(a) + t*(float64(b)-float64(a)) + 0.5) }
	return color.RGBA{R: lerp(222, 8), G: lerp(235, 48), B: lerp(247, 107), A: 255}
}
