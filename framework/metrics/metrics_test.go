package metrics

import (
	"bufio"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/internal/refdata"
)

// worked is the 3×3 worked example: rows actual, columns predicted.
var worked = [][]float64{{15, 2, 3}, {7, 15, 8}, {2, 3, 45}}

// expand turns a confusion table into label vectors with that table.
func expand(c [][]float64) (trueY, predY []int) {
	for i, row := range c {
		for j, v := range row {
			for r := 0; r < int(v); r++ {
				trueY = append(trueY, i)
				predY = append(predY, j)
			}
		}
	}
	return trueY, predY
}

func TestConfusionWorkedExample(t *testing.T) {
	y, p := expand(worked)
	c := Confusion(y, p, 3)
	if want := rows(worked); !mat.Equal(c, want) {
		t.Fatalf("Confusion = %v, want %v", mat.Formatted(c), mat.Formatted(want))
	}
	s := PerClass(nil, c)
	for k, want := range []struct{ p, r float64 }{{15.0 / 24, 15.0 / 20}, {15.0 / 20, 15.0 / 30}, {45.0 / 56, 45.0 / 50}} {
		if s[k].Precision != want.p || s[k].Recall != want.r {
			t.Errorf("class %d: precision %v recall %v, want %v %v", k, s[k].Precision, s[k].Recall, want.p, want.r)
		}
		if f := 2 * want.p * want.r / (want.p + want.r); !scalar.EqualWithinAbsOrRel(s[k].F1, f, 1e-15, 1e-15) {
			t.Errorf("class %d: F1 %v, want %v", k, s[k].F1, f)
		}
	}
	in := &Input{K: 3, True: y, Pred: p}
	wp := 0.2*15.0/24 + 0.3*15.0/20 + 0.5*45.0/56
	for _, tc := range []struct {
		name string
		want float64
	}{
		{"accuracy", 0.75},
		{"error", 0.25},
		{"micro_precision", 0.75},
		{"micro_recall", 0.75},
		{"micro_f1", 0.75},
		{"weighted_recall", 0.75},
		{"weighted_precision", wp},
		{"macro_precision", (15.0/24 + 15.0/20 + 45.0/56) / 3},
		{"macro_recall", (15.0/20 + 15.0/30 + 45.0/50) / 3},
		{"balanced_accuracy", (15.0/20 + 15.0/30 + 45.0/50) / 3},
		// po = 0.75, pe = (24·20 + 20·30 + 56·50)/100² = 0.388.
		{"kappa", (0.75 - 0.388) / (1 - 0.388)},
	} {
		m, err := Lookup(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		got, w, err := m.Eval(in)
		if err != nil || w != 0 {
			t.Fatalf("%s: warnings %d, err %v", tc.name, w, err)
		}
		if !scalar.EqualWithinAbsOrRel(got, tc.want, 1e-15, 1e-14) {
			t.Errorf("%s = %.17g, want %.17g", tc.name, got, tc.want)
		}
	}
	if math.Abs(wp-0.75) > 0.005 {
		t.Errorf("weighted precision %v is not ≈ 0.75", wp)
	}
}

func TestPairScoresWorkedExample(t *testing.T) {
	c := rows(worked)
	if got, want := PairTable(c, 0, 2), mat.NewDense(2, 2, []float64{15, 3, 2, 45}); !mat.Equal(got, want) {
		t.Fatalf("PairTable(0, 2) = %v, want %v", mat.Formatted(got), mat.Formatted(want))
	}
	s1, s3 := PairScores(c, 0, 2)
	for _, tc := range []struct {
		name      string
		got, want float64
	}{
		{"class 1 precision", s1.Precision, 15.0 / 17},
		{"class 1 recall", s1.Recall, 15.0 / 18},
		{"class 3 precision", s3.Precision, 45.0 / 48},
		{"class 3 recall", s3.Recall, 45.0 / 47},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}

func TestAverageAUCWorkedExample(t *testing.T) {
	auc := []float64{1, 0.8, 0.6}
	for _, tc := range []struct {
		name    string
		x, w    []float64
		want    float64
		skipped int
	}{
		{"macro", auc, nil, 0.8, 0},
		{"weighted", auc, []float64{10, 20, 70}, 0.68, 0},
		{"undefined class skipped", []float64{1, math.NaN(), 0.6}, []float64{10, 0, 70}, (10 + 0.6*70) / 80, 1},
		{"nothing defined", []float64{math.NaN()}, nil, 0, 1},
	} {
		got, skipped := Average(tc.x, tc.w)
		if !scalar.EqualWithinAbsOrRel(got, tc.want, 1e-15, 1e-15) || skipped != tc.skipped {
			t.Errorf("%s: Average = %v (skipped %d), want %v (%d)", tc.name, got, skipped, tc.want, tc.skipped)
		}
	}
}

func TestBinaryAUC(t *testing.T) {
	for _, tc := range []struct {
		name  string
		pos   []bool
		score []float64
		want  float64
	}{
		{"perfect", []bool{false, false, true, true}, []float64{0.1, 0.2, 0.3, 0.4}, 1},
		{"reversed", []bool{true, true, false, false}, []float64{0.1, 0.2, 0.3, 0.4}, 0},
		// Pairs (pos, neg): (0.5,0.5)=½, (0.5,0.1)=1, (0.9,0.5)=1, (0.9,0.1)=1.
		{"tie counts half", []bool{true, false, true, false}, []float64{0.5, 0.5, 0.9, 0.1}, 3.5 / 4},
		{"all tied", []bool{true, false, true}, []float64{0.3, 0.3, 0.3}, 0.5},
		{"one class", []bool{true, true}, []float64{0.3, 0.4}, math.NaN()},
	} {
		got := BinaryAUC(tc.pos, tc.score)
		if !(got == tc.want || math.IsNaN(got) && math.IsNaN(tc.want)) {
			t.Errorf("%s: BinaryAUC = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestHandTill checks M on a hand-computed three-class example.
func TestHandTill(t *testing.T) {
	y := []int{0, 0, 1, 1, 2, 2}
	prob := mat.NewDense(6, 3, []float64{
		0.8, 0.1, 0.1,
		0.3, 0.5, 0.2,
		0.4, 0.4, 0.2,
		0.1, 0.7, 0.2,
		0.2, 0.2, 0.6,
		0.5, 0.1, 0.4,
	})
	// Pair (0,1): A(0|1) on col 0: pos {0.8,0.3} vs neg {0.4,0.1} → 3/4;
	// A(1|0) on col 1: pos {0.4,0.7} vs neg {0.1,0.5} → 3/4. Â = 0.75.
	// Pair (0,2): A(0|2) col 0: {0.8,0.3} vs {0.2,0.5} → 3/4;
	// A(2|0) col 2: {0.6,0.4} vs {0.1,0.2} → 1. Â = 0.875.
	// Pair (1,2): A(1|2) col 1: {0.4,0.7} vs {0.2,0.1} → 1;
	// A(2|1) col 2: {0.6,0.4} vs {0.2,0.2} → 1. Â = 1.
	want := (0.75 + 0.875 + 1) / 3
	m, skipped := HandTillM(y, prob)
	if !scalar.EqualWithinAbsOrRel(m, want, 1e-15, 1e-15) || skipped != 0 {
		t.Errorf("HandTillM = %v (skipped %d), want %v", m, skipped, want)
	}
	if got := PairAUC(y, prob, 0, 2); got != 0.875 {
		t.Errorf("PairAUC(0, 2) = %v, want 0.875", got)
	}
	// Dropping class 1 from the fold leaves the single pair (0, 2).
	y2 := []int{0, 0, 2, 2}
	p2 := mat.NewDense(4, 3, []float64{0.8, 0.1, 0.1, 0.3, 0.5, 0.2, 0.2, 0.2, 0.6, 0.5, 0.1, 0.4})
	m, skipped = HandTillM(y2, p2)
	if m != 0.875 || skipped != 1 {
		t.Errorf("HandTillM without class 1 = %v (skipped %d), want 0.875 (1)", m, skipped)
	}
	if m, skipped = HandTillM([]int{2, 2}, p2.Slice(0, 2, 0, 3)); m != 0 || skipped != 3 {
		t.Errorf("HandTillM with one class = %v (skipped %d), want 0 (3)", m, skipped)
	}
}

// TestWarnings checks the zero-division counts and the degenerate values.
func TestWarnings(t *testing.T) {
	// Class 2 is never predicted, class 3 never occurs nor is predicted.
	mc := &Input{K: 4, True: []int{0, 1, 2, 2, 1}, Pred: []int{0, 1, 1, 0, 1},
		Prob: mat.NewDense(5, 4, []float64{
			0.7, 0.1, 0.1, 0.1,
			0.1, 0.7, 0.1, 0.1,
			0.2, 0.3, 0.4, 0.1,
			0.5, 0.2, 0.2, 0.1,
			0.1, 0.6, 0.2, 0.1,
		})}
	single := &Input{K: 2, True: []int{1, 1}, Pred: []int{1, 1}}
	predOnly := &Input{K: 3, True: []int{0, 0, 1}, Pred: []int{0, 2, 1}}
	ml := &Input{K: 2,
		TrueSet: mat.NewDense(3, 2, []float64{0, 0, 1, 0, 1, 1}),
		PredSet: mat.NewDense(3, 2, []float64{0, 0, 0, 0, 1, 0})}
	for _, tc := range []struct {
		in       *Input
		name     string
		want     float64
		warnings int
	}{
		{mc, "macro_precision", (1.0/2 + 2.0/3 + 0) / 3, 1},
		{mc, "macro_recall", (1 + 1 + 0.0) / 3, 0},
		{mc, "macro_f1", (2.0/3 + 0.8 + 0) / 3, 1},
		{mc, "weighted_precision", (1*0.5 + 2*2.0/3 + 0) / 5, 1},
		{mc, "balanced_accuracy", 2.0 / 3, 0},
		// Class 3 does not occur and is skipped. Column 2 ranks class 2's
		// {0.4, 0.2} against {0.1, 0.1, 0.2}: 5.5 of 6 pairs.
		{mc, "auc_ovr", (1 + 1 + 5.5/6) / 3, 1},
		{mc, "auc_ovr_weighted", (1*1 + 2*1 + 2*5.5/6) / 5, 1},
		// Pairs (0,1) and (0,2) separate perfectly; (1,2): A(1|2) = 1,
		// A(2|1) = 3.5/4.
		{mc, "auc_ovo", (1 + 1 + (1+3.5/4)/2) / 3, 1},
		// Class 2 is predicted but never occurs: sklearn drops it from the mean.
		{predOnly, "balanced_accuracy", 0.75, 1},
		{predOnly, "macro_recall", 1.5 / 3, 1},
		{single, "kappa", 0, 1},
		{single, "mcc", 0, 1},
		{single, "accuracy", 1, 0},
		{ml, "jaccard", 1.0 / 2 / 3, 1},
		{ml, "example_precision", 1.0 / 3, 2},
		{ml, "example_recall", 1.0 / 2 / 3, 1},
		{ml, "example_f1", 2.0 / 3 / 3, 2},
		{ml, "macro_precision", 1.0 / 2, 1},
		{ml, "micro_f1", 0.5, 0},
		{ml, "subset_accuracy", 1.0 / 3, 0},
		{ml, "hamming_loss", 2.0 / 6, 0},
	} {
		m, err := Lookup(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		got, w, err := m.Eval(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !scalar.EqualWithinAbsOrRel(got, tc.want, 1e-15, 1e-14) || w != tc.warnings {
			t.Errorf("%s = %v (%d warnings), want %v (%d)", tc.name, got, w, tc.want, tc.warnings)
		}
	}
}

func TestEvalErrors(t *testing.T) {
	prob := mat.NewDense(2, 2, []float64{0.5, 0.5, 0.2, 0.8})
	for _, tc := range []struct {
		name   string
		metric string
		in     *Input
		want   string
	}{
		{"nil input", "accuracy", nil, "nil input"},
		{"empty fold", "accuracy", &Input{K: 2}, "no rows"},
		{"length mismatch", "accuracy", &Input{K: 2, True: []int{0, 1}, Pred: []int{0}}, "2 true labels but 1 predicted"},
		{"label out of range", "macro_f1", &Input{K: 2, True: []int{0, 2}, Pred: []int{0, 1}}, "outside [0, 2)"},
		{"missing probabilities", "log_loss", &Input{K: 2, True: []int{0, 1}, Pred: []int{0, 1}}, "Prob) are required"},
		{"probability shape", "auc_ovo", &Input{K: 3, True: []int{0, 1}, Prob: prob}, "class probabilities are 2×2, want 2×3"},
		{"not a probability", "brier", &Input{K: 2, True: []int{0, 1}, Prob: mat.NewDense(2, 2, []float64{0.5, 0.5, -1, 2})}, "not a probability"},
		{"multi-label only", "hamming_loss", &Input{K: 2, True: []int{0, 1}, Pred: []int{0, 1}}, "not defined for multiclass"},
		{"multiclass only", "kappa", &Input{K: 2, TrueSet: prob, PredSet: prob}, "not defined for multi-label"},
		{"missing PredSet", "jaccard", &Input{K: 2, TrueSet: mat.NewDense(1, 2, []float64{1, 0})}, "PredSet) are required"},
		{"non-binary label matrix", "micro_f1", &Input{K: 2, TrueSet: prob, PredSet: prob}, "is not 0 or 1"},
	} {
		m, err := Lookup(tc.metric)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = m.Eval(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.metric) {
			t.Errorf("%s: error %v, want one naming %q and containing %q", tc.name, err, tc.metric, tc.want)
		}
	}
}

func TestLookupAndNames(t *testing.T) {
	want := []string{"accuracy", "error", "balanced_accuracy", "micro_precision", "micro_recall", "micro_f1",
		"macro_precision", "macro_recall", "macro_f1", "weighted_precision", "weighted_recall", "weighted_f1",
		"kappa", "mcc", "log_loss", "brier", "auc_ovr", "auc_ovr_weighted", "auc_ovo", "fit_seconds",
		"predict_seconds", "hamming_loss", "jaccard", "example_precision", "example_recall", "example_f1",
		"subset_accuracy"}
	if got := Names(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("Names() = %v, want %v", got, want)
	}
	lower := map[string]bool{"error": true, "log_loss": true, "brier": true, "fit_seconds": true, "predict_seconds": true, "hamming_loss": true}
	for _, m := range Metrics() {
		if m.HigherIsBetter == lower[m.Name] {
			t.Errorf("%s: HigherIsBetter = %v", m.Name, m.HigherIsBetter)
		}
		if m.Doc == "" {
			t.Errorf("%s has no Doc", m.Name)
		}
	}
	_, err := Lookup("f1")
	if err == nil || !strings.Contains(err.Error(), `"f1"`) || !strings.Contains(err.Error(), "macro_f1, weighted_precision") {
		t.Errorf("Lookup(f1) error = %v, want one listing the valid names", err)
	}
	m, _ := Lookup("fit_seconds")
	if v, w, err := m.Eval(&Input{FitSeconds: 1.5}); v != 1.5 || w != 0 || err != nil {
		t.Errorf("fit_seconds = %v, %d, %v", v, w, err)
	}
	m, _ = Lookup("micro_f1")
	if !m.Kind.Has(Multiclass|MultiLabel) || m.Kind.String() != "multiclass|multilabel" {
		t.Errorf("micro_f1 kind = %v", m.Kind)
	}
}

// TestLogLossClipping checks the clipping bound and the row renormalisation.
func TestLogLossClipping(t *testing.T) {
	in := &Input{K: 3, True: []int{0, 1}, Prob: mat.NewDense(2, 3, []float64{0, 1, 0, 0.2, 0.3, 0.5})}
	m, _ := Lookup("log_loss")
	got, _, err := m.Eval(in)
	if err != nil {
		t.Fatal(err)
	}
	// Row 1 after clipping: (ε, 1−ε, ε) with ε = 2⁻⁵², sum 1+ε, so
	// −log p = 52 ln 2 + log1p(ε). scikit-learn 1.2.1 (Debian):
	// log_loss([0, 1], [[0, 1, 0], [.2, .3, .5]], labels=[0, 1, 2])
	// = 18.623813096721545 (eps="auto"); with eps=1e-15 it gives
	// 17.87137459961831, the old default's value.
	want := (-math.Log(LogLossEps/(1+LogLossEps)) - math.Log(0.3)) / 2
	if !scalar.EqualWithinAbsOrRel(got, want, 0, 1e-15) {
		t.Errorf("log_loss = %v, want %v", got, want)
	}
	if !scalar.EqualWithinAbsOrRel(got, 18.623813096721545, 0, 1e-15) {
		t.Errorf("log_loss = %v, scikit-learn 1.2.1 gives 18.623813096721545", got)
	}
	m, _ = Lookup("brier")
	got, _, _ = m.Eval(in)
	if want := (2 + (0.04 + 0.49 + 0.25)) / 2; !scalar.EqualWithinAbsOrRel(got, want, 0, 1e-15) {
		t.Errorf("brier = %v, want %v", got, want)
	}
}

// TestEmotionsReference scores the binary-relevance predictions of
// testdata/emotions_br_pred.csv (reproduced with scikit-learn by
// testdata/gen_emotions_br.py) on the reference folds of testdata and
// compares every multi-label metric with sklearn_multilabel.jsonl ("br").
func TestEmotionsReference(t *testing.T) {
	trueAll, err := readCSV(refdata.Data(t, "emotions.csv"), "label_")
	if err != nil {
		t.Fatal(err)
	}
	foldCol, err := readCSV(refdata.Reference(t, "folds", "emotions.folds.csv"), "fold")
	if err != nil {
		t.Fatal(err)
	}
	refFile := refdata.ReadFile(t, refdata.Reference(t, "sklearn_multilabel.jsonl"))
	predAll, err := readCSV("testdata/emotions_br_pred.csv", "label_")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Folds []map[string]float64 `json:"folds"`
	}
	for _, line := range strings.Split(strings.TrimSpace(string(refFile)), "\n") {
		var r struct {
			Setup string               `json:"setup"`
			Folds []map[string]float64 `json:"folds"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("decoding reference: %v", err)
		}
		if r.Setup == "br" {
			ref.Folds = r.Folds
		}
	}
	if len(ref.Folds) != 10 || len(trueAll) != len(predAll) || len(trueAll) != len(foldCol) {
		t.Fatalf("inconsistent reference: %d folds, %d true rows, %d predicted rows, %d fold rows",
			len(ref.Folds), len(trueAll), len(predAll), len(foldCol))
	}
	const K = 6
	for f, want := range ref.Folds {
		var ys, zs []float64
		for i, fc := range foldCol {
			if int(fc[0]) == f {
				ys = append(ys, trueAll[i]...)
				zs = append(zs, predAll[i]...)
			}
		}
		n := len(ys) / K
		in := &Input{K: K, TrueSet: mat.NewDense(n, K, ys), PredSet: mat.NewDense(n, K, zs)}
		if len(want) != 8 {
			t.Errorf("fold %d: %d reference metrics, want 8", f, len(want))
		}
		for _, name := range sortedKeys(want) {
			m, err := Lookup(name)
			if err != nil {
				t.Fatalf("reference metric: %v", err)
			}
			got, _, err := m.Eval(in)
			if err != nil {
				t.Fatalf("fold %d %s: %v", f, name, err)
			}
			if !relClose(got, want[name], 1e-12) {
				t.Errorf("fold %d %s = %.17g, reference %.17g", f, name, got, want[name])
			}
		}
	}
}

// readCSV returns the columns of a CSV file whose header starts with prefix.
func readCSV(path, prefix string) ([][]float64, error) {
	f, err := refdata.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var cols []int
	var out [][]float64
	for line := 0; sc.Scan(); line++ {
		fields := strings.Split(sc.Text(), ",")
		if line == 0 {
			for i, h := range fields {
				if strings.HasPrefix(h, prefix) {
					cols = append(cols, i)
				}
			}
			if len(cols) == 0 {
				return nil, errors.New(path + ": no column starts with " + prefix)
			}
			continue
		}
		row := make([]float64, len(cols))
		for j, c := range cols {
			if row[j], err = strconv.ParseFloat(fields[c], 64); err != nil {
				return nil, err
			}
		}
		out = append(out, row)
	}
	return out, sc.Err()
}
