package plots

import (
	"cmp"
	"errors"
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// CDGroups returns the groups of methods whose average ranks are not
// significantly different by the Nemenyi test: maximal runs of methods, in
// rank order, whose ranks span less than cd. Each group lists method
// indices in rank order (best first) and has at least two members; groups
// are ordered by their best member. Ties in rank keep index order.
func CDGroups(ranks []float64, cd float64) [][]int {
	order := rankOrder(ranks)
	var groups [][]int
	last := -1 // furthest position covered by a group so far
	for i := range order {
		j := i
		for j+1 < len(order) && ranks[order[j+1]]-ranks[order[i]] < cd {
			j++
		}
		if j > i && j > last {
			groups = append(groups, slices.Clone(order[i:j+1]))
			last = j
		}
	}
	return groups
}

// rankOrder returns the method indices sorted by average rank.
func rankOrder(ranks []float64) []int {
	order := make([]int, len(ranks))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ranks[a], ranks[b]) })
	return order
}

// CriticalDifference draws Demšar's critical-difference diagram: an axis of
// average ranks from 1 (best, left) to k, each method hanging from its rank
// with its name and rank, thick bars joining groups of methods that are not
// significantly different (CDGroups), and a scale bar of length cd above the
// axis. Ranks must already respect the metric's direction (1 = best).
func CriticalDifference(title string, names []string, ranks []float64, cd float64) (*Figure, error) {
	return cdDiagram(title, names, ranks, cd, -1)
}

// CriticalDifferenceControl draws the control variant of the diagram
// (Demšar 2006, Figure 1(b)): the methods on the rank axis as in
// CriticalDifference, and instead of the groups one thick bar marking the
// interval of one Bonferroni–Dunn critical difference cd to either side of
// the control's average rank (clipped to the axis). A method whose rank
// lies outside it differs significantly from the control. The control's
// label ends in "(control)".
func CriticalDifferenceControl(title string, names []string, ranks []float64, control int, cd float64) (*Figure, error) {
	if control < 0 || control >= len(ranks) {
		return nil, fmt.Errorf("cd diagram: control %d outside the %d methods", control, len(ranks))
	}
	return cdDiagram(title, names, ranks, cd, control)
}

// cdDiagram draws either variant: groups (control < 0) or the interval
// around the control.
func cdDiagram(title string, names []string, ranks []float64, cd float64, control int) (*Figure, error) {
	k := len(ranks)
	switch {
	case k < 2:
		return nil, fmt.Errorf("cd diagram: need at least 2 methods, have %d", k)
	case len(names) != k:
		return nil, fmt.Errorf("cd diagram: %d names for %d ranks", len(names), k)
	case !(cd > 0) || math.IsInf(cd, 0):
		return nil, errors.New("cd diagram: critical difference must be positive and finite")
	}
	for i, r := range ranks {
		if !(r >= 1 && r <= float64(k)) {
			return nil, fmt.Errorf("cd diagram: rank %v of %q outside [1, %d]", r, names[i], k)
		}
	}
	order := rankOrder(ranks)
	var groups [][]int
	if control < 0 {
		groups = CDGroups(ranks, cd)
	} else {
		groups = [][]int{{control}} // one bar: the control's interval
	}
	label := sans(10, false)
	small := sans(9, false)
	labels := make([]string, k)
	var leftW, rightW vg.Length
	half := (k + 1) / 2
	for pos, i := range order {
		labels[i] = fmt.Sprintf("%s (%.2f)", shorten(label, names[i], maxRowLabel), ranks[i])
		if i == control {
			labels[i] += " (control)"
		}
		w := label.Width(labels[i])
		if pos < half {
			leftW = max(leftW, w)
		} else {
			rightW = max(rightW, w)
		}
	}
	const (
		pad     = vg.Length(12)
		lineGap = vg.Length(16)
		groupH  = vg.Length(6)
	)
	axisLen := max(vg.Length(60*(k-1)), 3*vg.Inch)
	W := leftW + rightW + axisLen + 2*pad + 2*vg.Length(20)
	head := newTitle(title, 11, W-8)
	titleH := vg.Length(0)
	if title != "" {
		titleH = 22 + head.extra()
	}
	axisFromTop := titleH + 48 // room for the CD bar and the tick labels
	groupsH := vg.Length(len(groups))*groupH + 8
	rowsH := vg.Length(half) * lineGap
	H := axisFromTop + groupsH + rowsH + 14
	x0 := pad + leftW + 20 // rank 1
	x1 := x0 + axisLen     // rank k
	xOf := func(r float64) vg.Length { return x0 + (x1-x0)*vg.Length((r-1)/float64(k-1)) }

	f := &Figure{Width: W, Height: H}
	f.draw = func(c draw.Canvas) {
		top := c.Max.Y
		y := func(fromTop vg.Length) vg.Length { return top - fromTop }
		black := line(1, color.Black)
		head.draw(c)
		// CD scale bar, above the axis at its left end.
		cdY := y(titleH + 14)
		c.StrokeLine2(black, x0, cdY, xOf(1+cd), cdY)
		for _, x := range []vg.Length{x0, xOf(1 + cd)} {
			c.StrokeLine2(black, x, cdY-3, x, cdY+3)
		}
		sty := small
		sty.XAlign, sty.YAlign = text.XCenter, text.YBottom
		c.FillText(sty, vg.Point{X: (x0 + xOf(1+cd)) / 2, Y: cdY + 4}, fmt.Sprintf("CD = %.2f", cd))
		// Axis with ticks at every integer rank and minor ticks at halves.
		ay := y(axisFromTop)
		c.StrokeLine2(black, x0, ay, x1, ay)
		for t := 2; t <= 2*k; t++ {
			r := float64(t) / 2
			x := xOf(r)
			if t%2 == 0 {
				c.StrokeLine2(black, x, ay, x, ay+6)
				s := small
				s.XAlign, s.YAlign = text.XCenter, text.YBottom
				c.FillText(s, vg.Point{X: x, Y: ay + 8}, fmt.Sprint(t/2))
			} else {
				c.StrokeLine2(black, x, ay, x, ay+3)
			}
		}
		// Methods: the better half to the left, the rest to the right.
		firstRow := axisFromTop + groupsH + lineGap*0.6
		for pos, i := range order {
			x := xOf(ranks[i])
			var row int
			var ex vg.Length
			s := label
			s.YAlign = text.YCenter
			if pos < half {
				row = pos
				ex = x0 - 10
				s.XAlign = text.XRight
			} else {
				row = k - 1 - pos
				ex = x1 + 10
				s.XAlign = text.XLeft
			}
			ly := y(firstRow + vg.Length(row)*lineGap)
			c.StrokeLines(line(0.8, color.Black), []vg.Point{{X: x, Y: ay}, {X: x, Y: ly}, {X: ex, Y: ly}})
			tx := ex - 3
			if s.XAlign == text.XLeft {
				tx = ex + 3
			}
			c.FillText(s, vg.Point{X: tx, Y: ly}, labels[i])
		}
		// Groups of methods that are not significantly different.
		bar := line(3, color.RGBA{R: 200, G: 30, B: 30, A: 255})
		if control >= 0 {
			lo, hi := math.Max(1, ranks[control]-cd), math.Min(float64(k), ranks[control]+cd)
			gy := y(axisFromTop + 7)
			c.StrokeLine2(bar, xOf(lo), gy, xOf(hi), gy)
			for _, x := range []vg.Length{xOf(lo), xOf(hi)} {
				c.StrokeLine2(line(1, color.RGBA{R: 200, G: 30, B: 30, A: 255}), x, gy-4, x, gy+4)
			}
			return
		}
		for gi, g := range groups {
			gy := y(axisFromTop + 7 + vg.Length(gi)*groupH)
			c.StrokeLine2(bar, xOf(ranks[g[0]])-4, gy, xOf(ranks[g[len(g)-1]])+4, gy)
		}
	}
	return f, nil
}
