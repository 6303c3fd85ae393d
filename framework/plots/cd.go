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
	if err := checkCD(names, ranks, cd); err != nil {
		return nil, err
	}
	l := newCDLayout(title, names, ranks, cd, control)
	f := &Figure{Width: l.W, Height: l.H}
	f.draw = l.draw
	return f, nil
}

// checkCD checks a diagram's input: at least two methods, a name each, a
// positive finite critical difference and ranks within [1, k].
func checkCD(names []string, ranks []float64, cd float64) error {
	k := len(ranks)
	switch {
	case k < 2:
		return fmt.Errorf("cd diagram: need at least 2 methods, have %d", k)
	case len(names) != k:
		return fmt.Errorf("cd diagram: %d names for %d ranks", len(names), k)
	case !(cd > 0) || math.IsInf(cd, 0):
		return errors.New("cd diagram: critical difference must be positive and finite")
	}
	for i, r := range ranks {
		if !(r >= 1 && r <= float64(k)) {
			return fmt.Errorf("cd diagram: rank %v of %q outside [1, %d]", r, names[i], k)
		}
	}
	return nil
}

// Fixed measures of a critical-difference diagram.
const (
	cdPad     = vg.Length(12)
	cdLineGap = vg.Length(16)
	cdGroupH  = vg.Length(6)
)

// cdLayout is a critical-difference diagram laid out: its methods' order
// and labels, its groups (or the control), and where each part goes.
type cdLayout struct {
	k            int
	ranks        []float64
	cd           float64
	control      int
	order        []int
	groups       [][]int
	labels       []string
	label, small draw.TextStyle
	half         int
	head         titleLayout
	titleH       vg.Length
	axisFromTop  vg.Length
	groupsH      vg.Length
	x0, x1, W, H vg.Length
}

// newCDLayout lays out the diagram: the better half of the methods left
// of the axis, the rest right, the axis wide enough for its labels.
func newCDLayout(heading string, names []string, ranks []float64, cd float64, control int) *cdLayout {
	k := len(ranks)
	l := &cdLayout{k: k, ranks: ranks, cd: cd, control: control, order: rankOrder(ranks),
		label: sans(10, false), small: sans(9, false), half: (k + 1) / 2}
	if control < 0 {
		l.groups = CDGroups(ranks, cd)
	} else {
		l.groups = [][]int{{control}} // one bar: the control's interval
	}
	l.labels = make([]string, k)
	var leftW, rightW vg.Length
	for pos, i := range l.order {
		l.labels[i] = fmt.Sprintf("%s (%.2f)", shorten(l.label, names[i], maxRowLabel), ranks[i])
		if i == control {
			l.labels[i] += " (control)"
		}
		w := l.label.Width(l.labels[i])
		if pos < l.half {
			leftW = max(leftW, w)
		} else {
			rightW = max(rightW, w)
		}
	}
	axisLen := max(vg.Length(60*(k-1)), 3*vg.Inch)
	l.W = leftW + rightW + axisLen + 2*cdPad + 2*vg.Length(20)
	l.head = newTitle(heading, 11, l.W-8)
	if heading != "" {
		l.titleH = 22 + l.head.extra()
	}
	l.axisFromTop = l.titleH + 48 // room for the CD bar and the tick labels
	l.groupsH = vg.Length(len(l.groups))*cdGroupH + 8
	rowsH := vg.Length(l.half) * cdLineGap
	l.H = l.axisFromTop + l.groupsH + rowsH + 14
	l.x0 = cdPad + leftW + 20 // rank 1
	l.x1 = l.x0 + axisLen     // rank k
	return l
}

// xOf is the x of rank r.
func (l *cdLayout) xOf(r float64) vg.Length {
	return l.x0 + (l.x1-l.x0)*vg.Length((r-1)/float64(l.k-1))
}

// draw draws the diagram on c.
func (l *cdLayout) draw(c draw.Canvas) {
	y := func(fromTop vg.Length) vg.Length { return c.Max.Y - fromTop }
	l.head.draw(c)
	l.drawScale(c, y(l.titleH+14))
	ay := y(l.axisFromTop)
	l.drawAxis(c, ay)
	l.drawMethods(c, ay, y)
	l.drawGroups(c, y)
}

// drawScale draws the CD scale bar at height cdY, above the axis at its
// left end.
func (l *cdLayout) drawScale(c draw.Canvas, cdY vg.Length) {
	black := line(1, color.Black)
	c.StrokeLine2(black, l.x0, cdY, l.xOf(1+l.cd), cdY)
	for _, x := range []vg.Length{l.x0, l.xOf(1 + l.cd)} {
		c.StrokeLine2(black, x, cdY-3, x, cdY+3)
	}
	sty := l.small
	sty.XAlign, sty.YAlign = text.XCenter, text.YBottom
	c.FillText(sty, vg.Point{X: (l.x0 + l.xOf(1+l.cd)) / 2, Y: cdY + 4}, fmt.Sprintf("CD = %.2f", l.cd))
}

// drawAxis draws the axis at height ay, with ticks at every integer rank
// and minor ticks at halves.
func (l *cdLayout) drawAxis(c draw.Canvas, ay vg.Length) {
	black := line(1, color.Black)
	c.StrokeLine2(black, l.x0, ay, l.x1, ay)
	for t := 2; t <= 2*l.k; t++ {
		r := float64(t) / 2
		x := l.xOf(r)
		if t%2 == 0 {
			c.StrokeLine2(black, x, ay, x, ay+6)
			s := l.small
			s.XAlign, s.YAlign = text.XCenter, text.YBottom
			c.FillText(s, vg.Point{X: x, Y: ay + 8}, fmt.Sprint(t/2))
		} else {
			c.StrokeLine2(black, x, ay, x, ay+3)
		}
	}
}

// drawMethods draws each method's line from its rank on the axis (at
// height ay) to its label: the better half to the left, the rest to the
// right.
func (l *cdLayout) drawMethods(c draw.Canvas, ay vg.Length, y func(vg.Length) vg.Length) {
	firstRow := l.axisFromTop + l.groupsH + cdLineGap*0.6
	for pos, i := range l.order {
		x := l.xOf(l.ranks[i])
		var row int
		var ex vg.Length
		s := l.label
		s.YAlign = text.YCenter
		if pos < l.half {
			row = pos
			ex = l.x0 - 10
			s.XAlign = text.XRight
		} else {
			row = l.k - 1 - pos
			ex = l.x1 + 10
			s.XAlign = text.XLeft
		}
		ly := y(firstRow + vg.Length(row)*cdLineGap)
		c.StrokeLines(line(0.8, color.Black), []vg.Point{{X: x, Y: ay}, {X: x, Y: ly}, {X: ex, Y: ly}})
		tx := ex - 3
		if s.XAlign == text.XLeft {
			tx = ex + 3
		}
		c.FillText(s, vg.Point{X: tx, Y: ly}, l.labels[i])
	}
}

// drawGroups draws a bar under each group of methods that are not
// significantly different, or the interval around the control.
func (l *cdLayout) drawGroups(c draw.Canvas, y func(vg.Length) vg.Length) {
	bar := line(3, color.RGBA{R: 200, G: 30, B: 30, A: 255})
	if l.control >= 0 {
		lo, hi := math.Max(1, l.ranks[l.control]-l.cd), math.Min(float64(l.k), l.ranks[l.control]+l.cd)
		gy := y(l.axisFromTop + 7)
		c.StrokeLine2(bar, l.xOf(lo), gy, l.xOf(hi), gy)
		for _, x := range []vg.Length{l.xOf(lo), l.xOf(hi)} {
			c.StrokeLine2(line(1, color.RGBA{R: 200, G: 30, B: 30, A: 255}), x, gy-4, x, gy+4)
		}
		return
	}
	for gi, g := range l.groups {
		gy := y(l.axisFromTop + 7 + vg.Length(gi)*cdGroupH)
		c.StrokeLine2(bar, l.xOf(l.ranks[g[0]])-4, gy, l.xOf(l.ranks[g[len(g)-1]])+4, gy)
	}
}
