package plots

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Line is one curve of a threshold figure: its points, its name in the
// legend and whether it is an average (drawn black, dashed for the micro
// and dotted for the macro average).
type Line struct {
	Name string
	X, Y []float64
	// Average is "micro", "macro" or "" for a class's curve.
	Average string
}

// maxClassLines is the number of classes whose curves have a colour and a
// legend entry; with more classes every class's curve is drawn thin and
// grey, and the averages carry the figure.
const maxClassLines = 10

// ThresholdCurves draws a ROC panel and a precision–recall panel side by
// side, each with one line per class (that class against the rest, a
// colour each, Colour) and the micro- and macro-averaged curves in black,
// and a legend under the title naming each line. The ROC panel has the
// chance diagonal; every axis runs from 0 to 1.
func ThresholdCurves(title string, roc, pr []Line) (*Figure, error) {
	if len(roc) == 0 && len(pr) == 0 {
		return nil, fmt.Errorf("threshold curves: no curves")
	}
	rp, err := curvePanel("ROC, one class against the rest", "false positive rate", "true positive rate", roc, true)
	if err != nil {
		return nil, err
	}
	pp, err := curvePanel("precision–recall", "recall", "precision", pr, false)
	if err != nil {
		return nil, err
	}
	const panel = 3.2 * vg.Inch
	W := 2*panel + 20
	titleH := vg.Length(0)
	if title != "" {
		titleH = 24
	}
	groups := curveLegend(legendLines(roc, pr))
	legendH := layoutLegend(groups, 8, W-16, 0).H
	H := titleH + legendH + 6 + panel
	legend := layoutLegend(groups, 8, W-16, H-titleH)
	f := &Figure{Width: W, Height: H}
	f.draw = func(c draw.Canvas) {
		if title != "" {
			s := sans(12, true)
			s.XAlign, s.YAlign = -0.5, -1
			c.FillText(s, vg.Point{X: c.Min.X + W/2, Y: c.Max.Y - 6}, title)
		}
		legend.draw(c)
		for i, p := range []*plot.Plot{rp, pp} {
			pc := c
			x0 := c.Min.X + 6 + vg.Length(i)*(panel+8)
			pc.Rectangle = vg.Rectangle{Min: vg.Point{X: x0, Y: c.Min.Y + 4}, Max: vg.Point{X: x0 + panel, Y: c.Min.Y + panel}}
			p.Draw(pc)
		}
	}
	return f, nil
}

// curveStyle returns the line style of a curve: the class's colour, or
// grey when there are more than maxClassLines classes; black dashed
// (micro) or dotted (macro) for an average.
func curveStyle(l Line, class, classes int) draw.LineStyle {
	switch l.Average {
	case "micro":
		s := line(2, color.Black)
		s.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		return s
	case "macro":
		s := line(2, color.Black)
		s.Dashes = []vg.Length{vg.Points(1.5), vg.Points(2.5)}
		return s
	}
	if classes > maxClassLines {
		return line(0.6, color.Gray{Y: 170})
	}
	return line(1.3, Colour(class))
}

// curvePanel draws one panel of lines.
func curvePanel(title, xl, yl string, lines []Line, diagonal bool) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = sans(10, true).Font
	p.X.Label.Text, p.Y.Label.Text = xl, yl
	p.X.Label.TextStyle.Font, p.Y.Label.TextStyle.Font = sans(9, false).Font, sans(9, false).Font
	p.X.Tick.Label.Font, p.Y.Tick.Label.Font = sans(8, false).Font, sans(8, false).Font
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1.02
	p.Add(plotter.NewGrid())
	if diagonal {
		d, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
		if err != nil {
			return nil, err
		}
		d.LineStyle = line(0.8, color.Gray{Y: 150})
		d.LineStyle.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
		p.Add(d)
	}
	classes, class := 0, 0
	for _, l := range lines {
		if l.Average == "" {
			classes++
		}
	}
	// Classes first, averages on top.
	for pass := range 2 {
		class = 0
		for _, l := range lines {
			if (l.Average != "") != (pass == 1) {
				if l.Average == "" {
					class++
				}
				continue
			}
			if len(l.X) >= 2 {
				xy := make(plotter.XYs, len(l.X))
				for i := range l.X {
					xy[i].X, xy[i].Y = l.X[i], l.Y[i]
				}
				pl, err := plotter.NewLine(xy)
				if err != nil {
					return nil, fmt.Errorf("curve %s: %w", l.Name, err)
				}
				pl.LineStyle = curveStyle(l, class, classes)
				p.Add(pl)
			}
			if l.Average == "" {
				class++
			}
		}
	}
	return p, nil
}

// legendLines are the lines the legend names: the ROC panel's (with their
// areas), then each average of the precision–recall panel that the ROC
// panel lacks (its ROC curve left out, undefined), so that every line
// drawn has its entry.
func legendLines(roc, pr []Line) []Line {
	lines := slices.Clone(roc)
	for _, l := range pr {
		if l.Average != "" && !slices.ContainsFunc(roc, func(r Line) bool { return r.Average == l.Average }) {
			lines = append(lines, l)
		}
	}
	return lines
}

// curveLegend names the lines: each class in its colour (up to
// maxClassLines; beyond, one grey entry for all), then the averages.
func curveLegend(lines []Line) []legendGroup {
	classes := 0
	for _, l := range lines {
		if l.Average == "" {
			classes++
		}
	}
	g := legendGroup{}
	class := 0
	for _, l := range lines {
		if l.Average != "" {
			continue
		}
		if classes <= maxClassLines {
			g.Items = append(g.Items, legendItem{Text: l.Name, Line: Colour(class)})
		}
		class++
	}
	if classes > maxClassLines {
		g.Items = append(g.Items, legendItem{Text: fmt.Sprintf("each of the %d classes", classes), Line: color.Gray{Y: 170}})
	}
	for _, l := range lines {
		if l.Average != "" {
			st := curveStyle(l, 0, classes)
			g.Items = append(g.Items, legendItem{Text: l.Name, Line: st.Color, Dashes: st.Dashes})
		}
	}
	return []legendGroup{g}
}

// ReliabilityDiagram draws a reliability diagram: for each of the
// equal-width confidence bins with rows, a bar up to the bin's accuracy,
// a marker at its mean confidence against its accuracy, the diagonal of
// perfect calibration, and under it the share of the rows in each bin.
// confidence and accuracy are NaN for an empty bin.
func ReliabilityDiagram(title string, count []int, confidence, accuracy []float64) (*Figure, error) {
	bins := len(count)
	if bins == 0 || len(confidence) != bins || len(accuracy) != bins {
		return nil, fmt.Errorf("reliability diagram: %d bins, %d confidences, %d accuracies", bins, len(confidence), len(accuracy))
	}
	top, err := reliabilityPanel(count, confidence, accuracy)
	if err != nil {
		return nil, err
	}
	hist, err := shareHistogram(count)
	if err != nil {
		return nil, err
	}
	const w, topH, histH = 4.2 * vg.Inch, 3.2 * vg.Inch, 1.3 * vg.Inch
	titleH := vg.Length(0)
	if title != "" {
		titleH = 24
	}
	f := &Figure{Width: w, Height: titleH + topH + histH}
	f.draw = func(c draw.Canvas) {
		if title != "" {
			s := sans(11, true)
			s.XAlign, s.YAlign = -0.5, -1
			c.FillText(s, vg.Point{X: c.Min.X + w/2, Y: c.Max.Y - 6}, title)
		}
		tc := c
		tc.Rectangle = vg.Rectangle{Min: vg.Point{X: c.Min.X + 4, Y: c.Min.Y + histH}, Max: vg.Point{X: c.Max.X - 8, Y: c.Max.Y - titleH}}
		top.Draw(tc)
		hc := c
		hc.Rectangle = vg.Rectangle{Min: vg.Point{X: c.Min.X + 4, Y: c.Min.Y + 2}, Max: vg.Point{X: c.Max.X - 8, Y: c.Min.Y + histH - 4}}
		hist.Draw(hc)
	}
	return f, nil
}

// reliabilityPanel is the reliability diagram's upper panel: each bin's
// accuracy as a bar, the diagonal, and each bin's (confidence, accuracy).
func reliabilityPanel(count []int, confidence, accuracy []float64) (*plot.Plot, error) {
	width := 1 / float64(len(count))
	top := plot.New()
	top.Title.Text = "accuracy by confidence"
	top.Title.TextStyle.Font = sans(10, true).Font
	top.Y.Label.Text = "accuracy"
	top.Y.Label.TextStyle.Font = sans(9, false).Font
	top.X.Tick.Label.Font, top.Y.Tick.Label.Font = sans(8, false).Font, sans(8, false).Font
	top.X.Min, top.X.Max, top.Y.Min, top.Y.Max = 0, 1, 0, 1
	top.Add(plotter.NewGrid())
	var pts plotter.XYs
	for b := range count {
		if count[b] == 0 || math.IsNaN(accuracy[b]) || math.IsInf(accuracy[b], 0) {
			continue
		}
		x0 := float64(b) * width
		bar, err := plotter.NewPolygon(plotter.XYs{{X: x0, Y: 0}, {X: x0 + width, Y: 0}, {X: x0 + width, Y: accuracy[b]}, {X: x0, Y: accuracy[b]}})
		if err != nil {
			return nil, err
		}
		bar.Color = lighten(Colour(0), 0.45)
		bar.LineStyle = line(0.6, color.White)
		top.Add(bar)
		if !math.IsNaN(confidence[b]) && !math.IsInf(confidence[b], 0) {
			pts = append(pts, plotter.XY{X: confidence[b], Y: accuracy[b]})
		}
	}
	diag, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
	if err != nil {
		return nil, err
	}
	diag.LineStyle = line(1, color.Gray{Y: 90})
	diag.LineStyle.Dashes = []vg.Length{vg.Points(3), vg.Points(2)}
	top.Add(diag)
	if len(pts) > 0 {
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
		top.Add(sc)
	}
	return top, nil
}

// shareHistogram is the reliability diagram's lower panel: each bin's
// share of the rows.
func shareHistogram(count []int) (*plot.Plot, error) {
	total := 0
	for _, n := range count {
		total += n
	}
	width := 1 / float64(len(count))
	hist := plot.New()
	hist.X.Label.Text, hist.Y.Label.Text = "confidence (largest class probability)", "share of rows"
	hist.X.Label.TextStyle.Font, hist.Y.Label.TextStyle.Font = sans(9, false).Font, sans(9, false).Font
	hist.X.Tick.Label.Font, hist.Y.Tick.Label.Font = sans(8, false).Font, sans(8, false).Font
	hist.X.Min, hist.X.Max, hist.Y.Min = 0, 1, 0
	maxShare := 0.0
	for b := range count {
		if count[b] == 0 {
			continue
		}
		share := float64(count[b]) / float64(total)
		maxShare = math.Max(maxShare, share)
		x0 := float64(b) * width
		bar, err := plotter.NewPolygon(plotter.XYs{{X: x0, Y: 0}, {X: x0 + width, Y: 0}, {X: x0 + width, Y: share}, {X: x0, Y: share}})
		if err != nil {
			return nil, err
		}
		bar.Color = color.Gray{Y: 150}
		bar.LineStyle = line(0.6, color.White)
		hist.Add(bar)
	}
	hist.Y.Max = math.Max(maxShare*1.1, 0.05)
	return hist, nil
}
