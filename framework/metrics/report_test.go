package metrics

import (
	"fmt"
	"testing"
)

// TestMulticlassReportAgreesWithMetrics checks that the per-class
// report's macro averages of one fold equal the macro_precision,
// macro_recall and macro_f1 of that fold, with a class that no row has
// and none is predicted as (an ARFF nominal value declared, never
// present: the ghost): it is left out of both, as scikit-learn's
// classification_report and f1_score leave it out by default. A class
// that is only predicted counts in both. On the code before, the report
// averaged the ghost's F1 of 0 in (0.5625 instead of 0.75).
func TestMulticlassReportAgreesWithMetrics(t *testing.T) {
	for _, tc := range []struct {
		name        string
		k           int
		trueY, pred []int
		p, r, f1    string // the macro averages, %.4f
	}{
		{name: "ghost class 3", k: 4,
			trueY: []int{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2},
			pred:  []int{0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 0},
			p:     "0.7500", r: "0.7500", f1: "0.7500"},
		{name: "ghost class 0", k: 4,
			trueY: []int{1, 1, 2, 2, 3, 3},
			pred:  []int{1, 2, 2, 2, 3, 1},
			p:     "0.7222", r: "0.6667", f1: "0.6556"},
		{name: "class 3 only predicted", k: 4,
			trueY: []int{0, 0, 1, 1, 2, 2},
			pred:  []int{0, 3, 1, 1, 2, 2},
			p:     "0.7500", r: "0.6250", f1: "0.6667"},
		{name: "every class present", k: 3,
			trueY: []int{0, 1, 2, 2},
			pred:  []int{0, 2, 2, 1},
			p:     "0.5000", r: "0.5000", f1: "0.5000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := NewMulticlassReport(PerClass(nil, Confusion(tc.trueY, tc.pred, tc.k)))
			in := &Input{K: tc.k, True: tc.trueY, Pred: tc.pred}
			for _, m := range []struct {
				metric string
				report float64
				want   string
			}{{"macro_precision", rep.Macro.Precision, tc.p}, {"macro_recall", rep.Macro.Recall, tc.r}, {"macro_f1", rep.Macro.F1, tc.f1}} {
				metric, err := Lookup(m.metric)
				if err != nil {
					t.Fatal(err)
				}
				v, _, err := metric.Eval(in)
				if err != nil {
					t.Fatal(err)
				}
				if got := fmt.Sprintf("%.4f", m.report); v != m.report || got != m.want {
					t.Errorf("%s: report %s, metric %.4f, want %s", m.metric, got, v, m.want)
				}
			}
			if len(rep.Classes) != tc.k {
				t.Errorf("%d classes listed, want %d", len(rep.Classes), tc.k)
			}
		})
	}
}
