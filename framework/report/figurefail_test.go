package report

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/curves"
	"github.com/polyclass/polyclass/framework/outcome"
)

// TestOneClassCurves: the views of 12 test rows of class 0 of 3. Class 0
// has no negative rows and classes 1 and 2 no positive ones, so no class
// joins the macro-averaged ROC curve: its points are not numbers (and its
// AUC "–"). The curves figure is drawn all the same, without that curve,
// and its caption says which curve is left out and why; the micro average
// (12 positive and 24 negative decisions) and the precision–recall macro
// average (class 0's curve) stay.
func TestOneClassCurves(t *testing.T) {
	var f curves.Fold
	for i := range 12 {
		p := 0.6 + 0.03*float64(i%5)
		f.Scores = append(f.Scores, p, (1-p)/2, (1-p)/2)
		f.True = append(f.True, 0)
	}
	v := curves.Compute(3, []curves.Fold{f}, true)
	if !slices.ContainsFunc(v.ROC.Macro.Y, math.IsNaN) || !math.IsNaN(float64(v.ROC.Macro.Area)) {
		t.Fatalf("macro ROC curve %v, area %v: want points that are not numbers", v.ROC.Macro.Y, v.ROC.Macro.Area)
	}
	roc, pr, undefined := curveLines([]string{"a", "b", "c"}, v)
	if want := []string{"the macro-average ROC curve (no class has both positive and negative rows)"}; !slices.Equal(undefined, want) {
		t.Errorf("left out %q, want %q", undefined, want)
	}
	var averages []string
	for _, l := range append(roc, pr...) {
		averages = append(averages, l.Average)
	}
	if want := []string{"", "", "", "micro", "", "", "", "micro", "macro"}; !slices.Equal(averages, want) {
		t.Errorf("lines %q, want %q", averages, want)
	}
	cell := &outcome.CellResult{Classes: []string{"a", "b", "c"}, Curves: v}
	var ff figureFailures
	figs := viewFigures(cell, "d: logreg", "d_logreg", "k", &ff)
	if len(ff) != 0 {
		t.Fatal(ff)
	}
	if len(figs) != 2 || figs[0].Name != "curves_d_logreg" || figs[1].Name != "reliability_d_logreg" {
		t.Fatalf("figures %+v, want curves_d_logreg and reliability_d_logreg", figs)
	}
	if want := "d: logreg: ROC and precision–recall curves of the 12 out-of-fold scores pooled over folds and repeats; areas: ROC AUC and average precision; left out, undefined: the macro-average ROC curve (no class has both positive and negative rows)"; figs[0].Caption != want {
		t.Errorf("caption %q, want %q", figs[0].Caption, want)
	}
	if png, err := figs[0].Fig.PNG(); err != nil || len(png) < 1000 {
		t.Errorf("PNG of %d bytes (%v)", len(png), err)
	}
}

// TestFigureFailureKeepsTables: a figure that cannot be drawn (here a
// reliability diagram whose cell file lists 14 bin confidences for its 15
// bins) costs no table and no other figure. The outputs are all written,
// the figure is left out, the Markdown and HTML reports' warnings and
// Spec.Notes name it and say why, and BuildFigures returns the other figures with an
// error naming it.
func TestFigureFailureKeepsTables(t *testing.T) {
	cells := goldenCells()
	rel := cells[0].Curves.Reliability
	rel.Confidence = rel.Confidence[:curves.Bins-1]
	label := "logreg C=1"
	const name = "reliability_iris_logreg_C=1"
	const why = "reliability diagram: 15 bins, 14 confidences, 15 accuracies"
	var notes bytes.Buffer
	s := Spec{Experiment: "f", Metrics: []string{"accuracy"}, Formats: []string{"markdown", "csv", "html"}, ConfusionRows: []string{label}, Notes: &notes}
	files, err := Files(s, cells)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	text := map[string]string{}
	for _, f := range files {
		names = append(names, f.Name)
		if f.Name == "f.md" || f.Name == "f.html" {
			var b bytes.Buffer
			if err := f.Write(&b); err != nil {
				t.Fatal(err)
			}
			text[f.Name] = b.String()
		}
	}
	md := text["f.md"]
	for _, want := range []string{"f.md", "summary.csv", "folds.csv", "per_class.csv", "plots/box_accuracy.png", "plots/confusion_iris_logreg_C=1.png", "plots/curves_iris_logreg_C=1.png"} {
		if !slices.Contains(names, want) {
			t.Errorf("no output %s among %q", want, names)
		}
	}
	if slices.Contains(names, "plots/"+name+".png") {
		t.Errorf("%s written, though it cannot be drawn", name)
	}
	note := "figure " + name + " is left out: it could not be drawn: " + why
	if !strings.Contains(md, "## Warnings\n\n- "+note+"\n") {
		t.Errorf("f.md does not warn %q:\n%s", note, md)
	}
	if want := "<strong>1 warning</strong> (figures that could not be drawn):\n<ul>\n<li>" + note + "</li>"; !strings.Contains(text["f.html"], want) {
		t.Errorf("f.html lacks %q", want)
	}
	if got := notes.String(); got != "warning: "+note+"\n" {
		t.Errorf("notes %q, want the warning", got)
	}
	tables := BuildTables(s, cells)
	figs, err := BuildFigures(tables, cells, s.ConfusionRows)
	if err == nil || err.Error() != note {
		t.Errorf("BuildFigures: error %v, want %q", err, note)
	}
	if len(figs) < 3 || slices.ContainsFunc(figs, func(f Figure) bool { return f.Name == name }) {
		t.Errorf("BuildFigures gave %d figures, want the others", len(figs))
	}
}
