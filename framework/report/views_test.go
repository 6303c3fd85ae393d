package report

import (
	"fmt"
	"testing"

	"github.com/polyclass/polyclass/framework/metrics"
	"github.com/polyclass/polyclass/framework/outcome"
)

// TestPerClassMacroAgreesWithTable checks that the per-class report's
// "macro avg" line (per_class.csv, the Markdown and HTML reports) and
// the table's macro_f1 agree on a one-fold cell whose data declares a
// class no row has (an ARFF nominal value: the ghost), and on one
// without: both leave such a class out, as scikit-learn does by default.
// On the code before, the report counted the ghost's F1 of 0 (0.5625
// against the table's 0.7500, the 0.6902 against 0.9199).
func TestPerClassMacroAgreesWithTable(t *testing.T) {
	for _, tc := range []struct {
		name        string
		classes     []string
		trueY, pred []int
		want        string // the macro avg line
	}{
		{name: "ghost class", classes: []string{"a", "b", "c", "ghost"},
			trueY: []int{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2},
			pred:  []int{0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 0},
			want:  "[macro avg 0.7500 0.7500 0.7500 12]"},
		{name: "no ghost", classes: []string{"a", "b", "c"},
			trueY: []int{0, 0, 1, 1, 2, 2},
			pred:  []int{0, 1, 1, 1, 2, 0},
			want:  "[macro avg 0.7222 0.6667 0.6556 6]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := len(tc.classes)
			conf := metrics.Confusion(tc.trueY, tc.pred, k)
			counts := make([][]int, k)
			for i := range counts {
				counts[i] = make([]int, k)
				for j := range counts[i] {
					counts[i][j] = int(conf.At(i, j))
				}
			}
			m, err := metrics.Lookup("macro_f1")
			if err != nil {
				t.Fatal(err)
			}
			f1, _, err := m.Eval(&metrics.Input{K: k, True: tc.trueY, Pred: tc.pred})
			if err != nil {
				t.Fatal(err)
			}
			cell := &outcome.CellResult{Classes: tc.classes, Folds: []outcome.FoldResult{{Confusion: counts, Metrics: map[string]float64{"macro_f1": f1}}}}
			rep, ok := classReport(cell)
			if !ok {
				t.Fatal("no per-class report")
			}
			lines := reportLines(ClassReport{Classes: tc.classes, Report: rep})
			macro := lines[len(lines)-2]
			if got := fmt.Sprint(macro); got != tc.want {
				t.Errorf("macro avg line %s, want %s", got, tc.want)
			}
			if table := prf(f1); macro[3] != table {
				t.Errorf("macro avg F1 %s, table's macro_f1 %s", macro[3], table)
			}
		})
	}
}
