package plots

import (
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// TestLongRowLabelsBounded: a row label of 5,000 letters makes a box plot
// and a critical-difference diagram no wider than one whose label is
// maxRowLabel wide (the label is shortened with "…"), and a short label
// is shown whole: the figure is as wide as before. On the code before,
// the box plot was 23,000 points wide and its PNG some 100 MB.
func TestLongRowLabelsBounded(t *testing.T) {
	box := func(label string) (*Figure, error) {
		return BoxPlots("accuracy", "accuracy", []string{"iris"},
			[]BoxRow{{Label: label, Learner: "logreg", Reduction: "ova"}, {Label: "svm ova", Learner: "svm", Reduction: "ova"}},
			[][][]float64{{{0.9, 0.95, 0.92}, {0.8, 0.85, 0.9}}})
	}
	cd := func(label string) (*Figure, error) {
		return CriticalDifference("accuracy", []string{label, "svm ova", "knn ova"}, []float64{1.5, 2, 2.5}, 1.2)
	}
	for _, tc := range []struct {
		name string
		draw func(label string) (*Figure, error)
		max  vg.Length // the widest the figure may be with the long label
	}{
		{"box plot", box, maxRowLabel + 4*vg.Inch},
		{"critical difference", cd, 2*maxRowLabel + 6*vg.Inch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			long, err := tc.draw(strings.Repeat("x", 5000))
			if err != nil {
				t.Fatal(err)
			}
			if long.Width > tc.max {
				t.Errorf("with a 5,000-letter label the figure is %.0f points wide, more than %.0f", float64(long.Width), float64(tc.max))
			}
			short, err := tc.draw("logreg C=1 ova")
			if err != nil {
				t.Fatal(err)
			}
			if short.Width >= long.Width {
				t.Errorf("short label: %.0f points wide, long one %.0f: the short label lost letters?", float64(short.Width), float64(long.Width))
			}
			if got := shorten(sans(9, false), "logreg C=1 ova", maxRowLabel); got != "logreg C=1 ova" {
				t.Errorf("a short label shown as %q", got)
			}
		})
	}
}
