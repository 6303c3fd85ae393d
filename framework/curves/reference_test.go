package curves_test

import (
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/curves"
	"github.com/polyclass/polyclass/framework/metrics"
)

// reference is testdata/reference.json.gz, written by testdata/reference.py
// (scikit-learn 1.2.1) from the predictions in testdata.
type reference struct {
	Cells []refCell
}

type refCell struct {
	Learner     string
	Classes     []string
	Multilabel  bool
	Rows        int
	Report      map[string]json.RawMessage
	PerClass    []refClass                   `json:"per_class"`
	MicroAUC    float64                      `json:"micro_auc"`
	MicroAP     float64                      `json:"micro_ap"`
	MacroAUC    float64                      `json:"macro_auc"`
	MacroAP     float64                      `json:"macro_ap"`
	MacroROC    struct{ FPR, TPR []float64 } `json:"macro_roc"`
	MicroROC    struct{ FPR, TPR []float64 } `json:"micro_roc"`
	Reliability *struct {
		Count                []int
		Confidence, Accuracy []*float64
		ECE, MCE             float64
	}
}

type refClass struct {
	Class         string
	FPR, TPR      []float64
	ROCThresholds []float64 `json:"roc_thresholds"`
	AUC           float64
	Precision     []float64
	Recall        []float64
	PRThresholds  []float64 `json:"pr_thresholds"`
	AP            float64
}

func readReference(t *testing.T) reference {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "reference.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var r reference
	if err := json.NewDecoder(z).Decode(&r); err != nil {
		t.Fatal(err)
	}
	return r
}

// cell is one cell's predictions from a predictions file: its folds in
// file order, with each fold's predicted classes (multiclass) too.
type cell struct {
	learner string
	classes []string
	folds   []curves.Fold
	pred    [][]int
}

// readPredictions reads a predictions file written by bench (one line per
// cell × test row) into its cells, in file order.
func readPredictions(t *testing.T, name string, multilabel bool) []*cell {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := recs[0]
	var classes []string
	for _, h := range head {
		if c, ok := strings.CutPrefix(h, "score_"); ok {
			classes = append(classes, c)
		}
	}
	k := len(classes)
	var out []*cell
	var cur *cell
	lastFold := ""
	for _, r := range recs[1:] {
		if cur == nil || r[2] != cur.learner {
			cur = &cell{learner: r[2], classes: classes}
			out = append(out, cur)
			lastFold = ""
		}
		if fold := r[5] + "/" + r[6]; fold != lastFold {
			cur.folds = append(cur.folds, curves.Fold{})
			cur.pred = append(cur.pred, nil)
			lastFold = fold
		}
		fo := &cur.folds[len(cur.folds)-1]
		for j := range k {
			v, err := strconv.ParseFloat(r[10+j], 64)
			if err != nil {
				t.Fatal(err)
			}
			fo.Scores = append(fo.Scores, v)
		}
		if multilabel {
			fo.TrueSet = append(fo.TrueSet, indicator(classes, r[8])...)
			fo.PredSet = append(fo.PredSet, indicator(classes, r[9])...)
			continue
		}
		fo.True = append(fo.True, slices.Index(classes, r[8]))
		cur.pred[len(cur.pred)-1] = append(cur.pred[len(cur.pred)-1], slices.Index(classes, r[9]))
	}
	return out
}

func indicator(classes []string, set string) []float64 {
	out := make([]float64, len(classes))
	for _, c := range strings.Split(set, ";") {
		if i := slices.Index(classes, c); i >= 0 {
			out[i] = 1
		}
	}
	return out
}

// near compares with a tolerance of 1e-12 relative (the references are
// computed in numpy's order of operations, not always ours); NaN equals
// NaN.
func near(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b))
}

func sameSlice(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d values, want %d", what, len(got), len(want))
		return
	}
	for i := range got {
		if !near(got[i], want[i]) {
			t.Errorf("%s[%d] = %v, want %v", what, i, got[i], want[i])
			return
		}
	}
}

// TestAgainstScikitLearn compares every number of the threshold views and
// of the per-class report with scikit-learn's on the same out-of-fold
// predictions: wine (3 classes, logistic regression with probabilities
// and an SVM's softmax scores, 3 folds × 2 repeats pooled) and emotions
// (6 labels, binary relevance).
func TestAgainstScikitLearn(t *testing.T) {
	ref := readReference(t)
	cells := append(readPredictions(t, "wine_predictions.csv", false), readPredictions(t, "emotions_predictions.csv", true)...)
	if len(cells) != len(ref.Cells) {
		t.Fatalf("%d cells of predictions, %d references", len(cells), len(ref.Cells))
	}
	for i, rc := range ref.Cells {
		c := cells[i]
		t.Run(fmt.Sprintf("%s_%d", rc.Learner, len(rc.Classes)), func(t *testing.T) {
			k := len(rc.Classes)
			set := curves.Compute(k, c.folds, !rc.Multilabel)
			if set.Rows != rc.Rows {
				t.Errorf("%d rows pooled, want %d", set.Rows, rc.Rows)
			}
			checkReport(t, rc, c, set)
			// The curves before thinning, class by class.
			var fprs, tprs [][]float64
			for j, want := range rc.PerClass {
				col, pos := column(c, k, j, rc.Multilabel)
				b := curves.Count(col, pos)
				fpr, tpr, thr := b.ROC()
				sameSlice(t, want.Class+" fpr", fpr, want.FPR)
				sameSlice(t, want.Class+" tpr", tpr, want.TPR)
				sameSlice(t, want.Class+" roc thresholds", thr[1:], want.ROCThresholds)
				prec, rec, pthr := b.PrecisionRecall()
				sameSlice(t, want.Class+" precision", prec, want.Precision)
				sameSlice(t, want.Class+" recall", rec, want.Recall)
				sameSlice(t, want.Class+" pr thresholds", pthr, want.PRThresholds)
				if got := float64(set.ROC.Classes[j].Area); !near(got, want.AUC) {
					t.Errorf("%s AUC %v, want %v", want.Class, got, want.AUC)
				}
				if got := float64(set.PR.Classes[j].Area); !near(got, want.AP) {
					t.Errorf("%s average precision %v, want %v", want.Class, got, want.AP)
				}
				fprs, tprs = append(fprs, fpr), append(tprs, tpr)
			}
			for _, a := range []struct {
				what      string
				got, want curves.Num
			}{{"micro AUC", set.ROC.Micro.Area, curves.Num(rc.MicroAUC)}, {"macro AUC", set.ROC.Macro.Area, curves.Num(rc.MacroAUC)},
				{"micro AP", set.PR.Micro.Area, curves.Num(rc.MicroAP)}, {"macro AP", set.PR.Macro.Area, curves.Num(rc.MacroAP)}} {
				if !near(float64(a.got), float64(a.want)) {
					t.Errorf("%s %v, want %v", a.what, a.got, a.want)
				}
			}
			mx, my := curves.MacroROC(fprs, tprs)
			sameSlice(t, "macro fpr", mx, rc.MacroROC.FPR)
			sameSlice(t, "macro tpr", my, rc.MacroROC.TPR)
			var ms []float64
			var mp []bool
			for j := range k {
				col, pos := column(c, k, j, rc.Multilabel)
				ms, mp = append(ms, col...), append(mp, pos...)
			}
			fpr, tpr, _ := curves.Count(ms, mp).ROC()
			sameSlice(t, "micro fpr", fpr, rc.MicroROC.FPR)
			sameSlice(t, "micro tpr", tpr, rc.MicroROC.TPR)
			checkReliability(t, rc, set)
		})
	}
}

// column returns class j's scores and truth over the cell's pooled rows
// (the folds in order, a row per repeat, as scikit-learn sees the file).
func column(c *cell, k, j int, multilabel bool) ([]float64, []bool) {
	var s []float64
	var p []bool
	for _, f := range c.folds {
		for r := range len(f.Scores) / k {
			s = append(s, f.Scores[r*k+j])
			if multilabel {
				p = append(p, f.TrueSet[r*k+j] != 0)
			} else {
				p = append(p, f.True[r] == j)
			}
		}
	}
	return s, p
}

// checkReport compares the per-class report: the folds' confusion
// matrices summed (multiclass) or the label counts (multi-label), through
// metrics.NewReport, against classification_report.
func checkReport(t *testing.T, rc refCell, c *cell, set *curves.Set) {
	t.Helper()
	k := len(rc.Classes)
	var scores []metrics.ClassScore
	if rc.Multilabel {
		for _, l := range set.Labels {
			scores = append(scores, metrics.NewClassScore(float64(l.TP), float64(l.FP), float64(l.FN)))
		}
	} else {
		sum := mat.NewDense(k, k, nil)
		for i, f := range c.folds {
			sum.Add(sum, metrics.Confusion(f.True, c.pred[i], k))
		}
		scores = metrics.PerClass(nil, sum)
	}
	rep := metrics.NewReport(scores)
	line := func(name string) map[string]float64 {
		var m map[string]float64
		if err := json.Unmarshal(rc.Report[name], &m); err != nil {
			t.Fatalf("report line %s: %v", name, err)
		}
		return m
	}
	for j, name := range rc.Classes {
		want := line(name)
		s := rep.Classes[j]
		for _, v := range []struct {
			what      string
			got, want float64
		}{{"precision", s.Precision, want["precision"]}, {"recall", s.Recall, want["recall"]},
			{"f1-score", s.F1, want["f1-score"]}, {"support", s.Support, want["support"]}} {
			if !near(v.got, v.want) {
				t.Errorf("%s %s = %v, want %v", name, v.what, v.got, v.want)
			}
		}
	}
	avg := map[string]metrics.PRF{"macro avg": rep.Macro, "weighted avg": rep.Weighted}
	if rc.Multilabel {
		avg["micro avg"] = rep.Micro
	} else {
		var acc float64
		if err := json.Unmarshal(rc.Report["accuracy"], &acc); err != nil {
			t.Fatal(err)
		}
		if !near(rep.Micro.F1, acc) || !near(rep.Micro.Precision, acc) || !near(rep.Micro.Recall, acc) {
			t.Errorf("accuracy %+v, want %v", rep.Micro, acc)
		}
	}
	for name, got := range avg {
		want := line(name)
		if !near(got.Precision, want["precision"]) || !near(got.Recall, want["recall"]) || !near(got.F1, want["f1-score"]) ||
			!near(rep.Support, want["support"]) {
			t.Errorf("%s: %+v support %v, want %v", name, got, rep.Support, want)
		}
	}
}

// checkReliability compares the reliability diagram of a multiclass cell.
func checkReliability(t *testing.T, rc refCell, set *curves.Set) {
	t.Helper()
	if rc.Reliability == nil {
		if set.Reliability != nil {
			t.Error("a reliability diagram for multi-label data")
		}
		return
	}
	r := set.Reliability
	if r == nil {
		t.Fatal("no reliability diagram")
	}
	want := rc.Reliability
	if !slices.Equal(r.Count, want.Count) {
		t.Errorf("bin counts %v, want %v", r.Count, want.Count)
	}
	for b := range curves.Bins {
		w := math.NaN()
		if want.Confidence[b] != nil {
			w = *want.Confidence[b]
		}
		if !near(float64(r.Confidence[b]), w) {
			t.Errorf("bin %d confidence %v, want %v", b, r.Confidence[b], w)
		}
		w = math.NaN()
		if want.Accuracy[b] != nil {
			w = *want.Accuracy[b]
		}
		if !near(float64(r.Accuracy[b]), w) {
			t.Errorf("bin %d accuracy %v, want %v", b, r.Accuracy[b], w)
		}
	}
	if !near(float64(r.ECE), want.ECE) || !near(float64(r.MCE), want.MCE) {
		t.Errorf("ECE %v MCE %v, want %v %v", r.ECE, r.MCE, want.ECE, want.MCE)
	}
}
