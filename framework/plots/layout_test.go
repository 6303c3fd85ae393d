package plots

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	vgdraw "gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// soybeanClasses are the 19 classes of the soybean data set, whose long
// names overran the axis title before the layout measured them.
var soybeanClasses = strings.Fields(`2-4-d-injury alternarialeaf-spot anthracnose bacterial-blight bacterial-pustule
brown-spot brown-stem-rot charcoal-rot cyst-nematode diaporthe-pod-&-stem-blight diaporthe-stem-canker downy-mildew
frog-eye-leaf-spot herbicide-injury phyllosticta-leaf-spot phytophthora-rot powdery-mildew purple-seed-stain rhizoctonia-root-rot`)

// letters returns the class names A, B, … of n classes (then A1, B1, …).
func letters(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = string(rune('A' + i%26))
		if i >= 26 {
			out[i] += fmt.Sprint(i / 26)
		}
	}
	return out
}

// TestHeatLayoutTextsNeverOverlap checks the geometry of the heat map's
// layout: every text lies inside the figure, overlaps no other text, nor
// the grid, nor the colour bar; the class names are at least 5 points and
// one per cell pitch apart; every class is named while 5 points fit the
// pitch, and otherwise every stride-th.
func TestHeatLayoutTextsNeverOverlap(t *testing.T) {
	tests := []struct {
		name    string
		title   string
		classes []string
		stride  int
	}{
		{"iris", "iris: logreg ova", []string{"setosa", "versicolor", "virginica"}, 1},
		{"letter, 26 classes", "letter: RF ovo", letters(26), 1},
		{"soybean, 19 long names", "soybean: logreg C=1 ova", soybeanClasses, 1},
		{"long names", "a title far longer than the figure is wide, which wraps onto a second line to fit it", []string{"a very long class name indeed, longer than any margin", "b"}, 1},
		{"100 classes", "", letters(100), 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := newHeatLayout(tc.title, tc.classes)
			if l.W != ConfusionWidth {
				t.Errorf("width %v, want %v", l.W, ConfusionWidth)
			}
			if l.Stride != tc.stride {
				t.Errorf("stride %d, want %d", l.Stride, tc.stride)
			}
			if want := (len(tc.classes) + tc.stride - 1) / tc.stride; len(l.Rows) != want || len(l.Cols) != want {
				t.Errorf("%d row and %d column names, want %d", len(l.Rows), len(l.Cols), want)
			}
			texts := l.texts()
			for i, a := range texts {
				if !inside(a.Box, l.W, l.H) {
					t.Errorf("%q at %v leaves the figure (%v × %v)", a.Text, a.Box, l.W, l.H)
				}
				for _, b := range texts[i+1:] {
					if overlaps(a.Box, b.Box) {
						t.Errorf("%q %v overlaps %q %v", a.Text, a.Box, b.Text, b.Box)
					}
				}
				for _, r := range []vg.Rectangle{l.Grid, l.Bar} {
					if overlaps(a.Box, r) {
						t.Errorf("%q %v overlaps the grid or bar %v", a.Text, a.Box, r)
					}
				}
			}
			// The stride is the smallest that keeps the names apart.
			if h := lineHeight(sans(minClassFont, false)); l.Stride > 1 && vg.Length(l.Stride-1)*l.Cell >= h {
				t.Errorf("stride %d: %d pitches of %v hold a name %v high", l.Stride, l.Stride-1, l.Cell, h)
			}
			for _, lab := range l.Rows {
				if lab.Style.Font.Size < minClassFont {
					t.Errorf("class name %q in %v points", lab.Text, lab.Style.Font.Size)
				}
			}
			var lines []string
			for _, line := range l.Title {
				lines = append(lines, line.Text)
			}
			if got := strings.Join(lines, " "); got != tc.title {
				t.Errorf("title drawn as %q, want %q whole", lines, tc.title)
			}
		})
	}
}

// TestTextBoxHoldsTheInk draws texts as the heat map does (left, right,
// centred, rotated) and checks that every inked pixel lies in the label's
// textBox: the overlap checks above rest on it.
func TestTextBoxHoldsTheInk(t *testing.T) {
	const w, h, dpi = 200, 200, 144
	for _, tc := range []struct {
		name string
		xa   text.XAlignment
		ya   text.YAlignment
		rot  float64
		txt  string
	}{
		{"right centre", text.XRight, text.YCenter, 0, "diaporthe-pod-&-stem-blight"},
		{"rotated", text.XRight, text.YCenter, math.Pi / 2, "Qgjp|ÅÉ"},
		{"centre top", text.XCenter, text.YTop, 0, "letter: RF ovo (gjpqy)"},
		{"rotated top", text.XCenter, text.YTop, math.Pi / 2, "true class"},
		{"bottom left", text.XLeft, text.YBottom, 0, "0.75 gy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := sans(10, true)
			s.XAlign, s.YAlign, s.Rotation = tc.xa, tc.ya, tc.rot
			lab := newLabel(tc.txt, s, vg.Point{X: w / 2, Y: h / 2})
			c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))
			lab.draw(vgdraw.New(c))
			img := image.NewRGBA(c.Image().Bounds())
			draw.Draw(img, img.Bounds(), c.Image(), image.Point{}, draw.Src)
			scale := float64(dpi) / 72 // dots per point
			box := lab.Box
			inked := 0
			for y := 0; y < img.Bounds().Dy(); y++ {
				for x := 0; x < img.Bounds().Dx(); x++ {
					r, _, _, _ := img.At(x, y).RGBA()
					if r > 0xc000 {
						continue // background or faint anti-aliasing
					}
					inked++
					px, py := vg.Length(float64(x)/scale), h-vg.Length(float64(y)/scale) // points, y up
					const slack = 1                                                      // a pixel's rounding
					if px < box.Min.X-slack || px > box.Max.X+slack || py < box.Min.Y-slack || py > box.Max.Y+slack {
						t.Fatalf("ink at (%.1f, %.1f) outside the text box %v", px, py, box)
					}
				}
			}
			if inked == 0 {
				t.Fatal("nothing drawn")
			}
		})
	}
}

// TestBoxPlotStyles: a learner has one colour and a reduction one marker
// across every row, distinct learners and reductions differ, and the
// legend names each once, in the order the rows first name them.
func TestBoxPlotStyles(t *testing.T) {
	rows := []BoxRow{{"lr ova", "lr", "ova"}, {"lr ovo", "lr", "ovo"}, {"svm ova", "svm", "ova"},
		{"svm ovo", "svm", "ovo"}, {"rf", "RF", "none"}}
	learners, reductions := boxKeys(rows)
	if fmt.Sprint(learners) != "map[RF:2 lr:0 svm:1]" || fmt.Sprint(reductions) != "map[none:2 ova:0 ovo:1]" {
		t.Errorf("learners %v, reductions %v", learners, reductions)
	}
	groups := boxLegend(rows, learners, reductions)
	var got []string
	colours := map[color.Color]string{}
	shapes := map[string]string{}
	for _, g := range groups {
		for _, it := range g.Items {
			got = append(got, g.Heading+"="+it.Text)
			if it.Fill != nil {
				if other, ok := colours[it.Fill]; ok {
					t.Errorf("learners %s and %s share colour %v", other, it.Text, it.Fill)
				}
				colours[it.Fill] = it.Text
			}
			if it.Glyph != nil {
				k := fmt.Sprintf("%T", it.Glyph)
				if other, ok := shapes[k]; ok {
					t.Errorf("reductions %s and %s share marker %s", other, it.Text, k)
				}
				shapes[k] = it.Text
			}
		}
	}
	want := "learner=lr learner=svm learner=RF reduction (marker at the mean)=ova reduction (marker at the mean)=ovo reduction (marker at the mean)=none"
	if strings.Join(got, " ") != want {
		t.Errorf("legend %q\nwant %q", strings.Join(got, " "), want)
	}
	// The palette: tab10 first, then colours unlike any before.
	seen := map[color.RGBA]int{}
	for i := range 40 {
		c := Colour(i)
		if j, ok := seen[c]; ok {
			t.Fatalf("colours %d and %d are both %v", j, i, c)
		}
		seen[c] = i
	}
}

// TestLegendLayoutWraps: a legend wider than its box wraps its entries
// onto further lines, its texts overlapping neither each other nor the
// symbols, all within the box's width.
func TestLegendLayoutWraps(t *testing.T) {
	var items []legendItem
	for i := range 12 {
		items = append(items, legendItem{Text: fmt.Sprintf("learner number %d", i), Fill: Colour(i)})
	}
	const x0, width, top = 8, 300, 500
	l := layoutLegend([]legendGroup{{"learner", items}, {"reduction", []legendItem{{Text: "ova", Glyph: Marker(0)}}}}, x0, width, top)
	lh := lineHeight(sans(legendFont, false))
	if lines := int(l.H / lh); lines < 4 {
		t.Errorf("legend %v high, %d lines: did not wrap", l.H, lines)
	}
	boxes := []vg.Rectangle{}
	for _, lab := range l.Labels {
		boxes = append(boxes, lab.Box)
	}
	for _, s := range l.Symbols {
		boxes = append(boxes, s.Box)
	}
	for i, a := range boxes {
		if a.Min.X < x0 || a.Max.X > x0+width || a.Max.Y > top || a.Min.Y < top-l.H {
			t.Errorf("box %v outside the legend [%v, %v] × [%v, %v]", a, x0, x0+width, top-l.H, top)
		}
		for _, b := range boxes[i+1:] {
			if overlaps(a, b) {
				t.Errorf("%v overlaps %v", a, b)
			}
		}
	}
}

// TestThresholdFigures draws the ROC and precision–recall panels of three
// classes and of 26 (grey lines, one legend entry), and a reliability
// diagram with empty bins.
func TestThresholdFigures(t *testing.T) {
	curve := func(bend float64) ([]float64, []float64) {
		var x, y []float64
		for i := 0; i <= 20; i++ {
			v := float64(i) / 20
			x, y = append(x, v), append(y, math.Pow(v, bend))
		}
		return x, y
	}
	for _, k := range []int{3, 26} {
		var roc, pr []Line
		for c := range k {
			x, y := curve(0.1 + 0.4*float64(c)/float64(k))
			roc = append(roc, Line{Name: fmt.Sprintf("class %d (AUC 0.9)", c), X: x, Y: y})
			pr = append(pr, Line{Name: fmt.Sprintf("class %d", c), X: x, Y: y})
		}
		x, y := curve(0.2)
		roc = append(roc, Line{Name: "micro-average (AUC 0.95)", X: x, Y: y, Average: "micro"}, Line{Name: "macro-average", X: x, Y: y, Average: "macro"})
		pr = append(pr, Line{Name: "micro", X: x, Y: y, Average: "micro"})
		f, err := ThresholdCurves(fmt.Sprintf("wine: LR ova, %d classes", k), roc, pr)
		if err != nil {
			t.Fatal(err)
		}
		save(t, fmt.Sprintf("curves_%d", k), f)
		entries := 0
		for _, g := range curveLegend(roc) {
			entries += len(g.Items)
		}
		if want := min(k, maxClassLines+1) + 2; k > maxClassLines && entries != 1+2 || k <= maxClassLines && entries != want {
			t.Errorf("%d classes: %d legend entries", k, entries)
		}
	}
	nan := math.NaN()
	f, err := ReliabilityDiagram("wine: LR ova (ECE 0.041)", []int{0, 0, 0, 0, 0, 0, 2, 5, 0, 10, 20, 30, 40, 100, 150},
		[]float64{nan, nan, nan, nan, nan, nan, 0.41, 0.5, nan, 0.63, 0.7, 0.76, 0.83, 0.9, 0.97},
		[]float64{nan, nan, nan, nan, nan, nan, 0.5, 0.4, nan, 0.7, 0.75, 0.8, 0.85, 0.93, 0.99})
	if err != nil {
		t.Fatal(err)
	}
	save(t, "reliability", f)
	if _, err := ReliabilityDiagram("", []int{1}, []float64{1, 2}, []float64{1}); err == nil {
		t.Error("mismatched bins accepted")
	}
}
