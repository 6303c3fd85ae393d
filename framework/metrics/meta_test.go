package metrics

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestMetadata pins what each metric says about itself: its range,
// direction, the scores it reads and the inputs it applies to, which the
// results, report and engine packages read instead of lists of names.
func TestMetadata(t *testing.T) {
	inf := math.Inf(1)
	type meta struct {
		min, max     float64
		higher       bool
		scores, prob bool
		kind         Kind
	}
	both := Multiclass | MultiLabel
	frac := func(k Kind) meta { return meta{0, 1, true, false, false, k} }
	want := map[string]meta{
		"accuracy": frac(Multiclass), "error": {0, 1, false, false, false, Multiclass}, "balanced_accuracy": frac(Multiclass),
		"micro_precision": frac(both), "micro_recall": frac(both), "micro_f1": frac(both),
		"macro_precision": frac(both), "macro_recall": frac(both), "macro_f1": frac(both),
		"weighted_precision": frac(both), "weighted_recall": frac(both), "weighted_f1": frac(both),
		"kappa": {-1, 1, true, false, false, Multiclass}, "mcc": {-1, 1, true, false, false, Multiclass},
		"log_loss": {0, inf, false, true, true, Multiclass}, "brier": {0, 2, false, true, true, Multiclass},
		"auc_ovr": {0, 1, true, true, false, Multiclass}, "auc_ovr_weighted": {0, 1, true, true, false, Multiclass},
		"auc_ovo":     {0, 1, true, true, false, Multiclass},
		"fit_seconds": {0, inf, false, false, false, Timing}, "predict_seconds": {0, inf, false, false, false, Timing},
		"hamming_loss": {0, 1, false, false, false, MultiLabel}, "jaccard": frac(MultiLabel),
		"example_precision": frac(MultiLabel), "example_recall": frac(MultiLabel), "example_f1": frac(MultiLabel),
		"subset_accuracy": frac(MultiLabel),
	}
	for _, m := range Metrics() {
		w, ok := want[m.Name]
		if !ok {
			t.Errorf("%s: no expected metadata", m.Name)
			continue
		}
		got := meta{m.Min, m.Max, m.HigherIsBetter, m.ReadsScores, m.ReadsProbabilities, m.Kind}
		if got != w {
			t.Errorf("%s: metadata %+v, want %+v", m.Name, got, w)
		}
		delete(want, m.Name)
	}
	for n := range want {
		t.Errorf("%s: expected but not in the catalog", n)
	}
}

// randomFold returns a multiclass fold of n rows and k classes with
// random labels, predictions and class probabilities, and a multi-label
// fold of the same size.
func randomFold(rng *rand.Rand, n, k int) (mc, ml *Input) {
	mc = &Input{K: k, True: make([]int, n), Pred: make([]int, n), Prob: mat.NewDense(n, k, nil),
		FitSeconds: rng.Float64(), PredictSeconds: rng.Float64()}
	for i := range n {
		mc.True[i], mc.Pred[i] = rng.IntN(k), rng.IntN(k)
		row := mc.Prob.RawRowView(i)
		s := 0.0
		for j := range row {
			row[j] = rng.Float64()
			s += row[j]
		}
		for j := range row {
			row[j] /= s
		}
	}
	ml = &Input{K: k, TrueSet: mat.NewDense(n, k, nil), PredSet: mat.NewDense(n, k, nil)}
	for i := range n {
		for j := range k {
			ml.TrueSet.Set(i, j, float64(rng.IntN(2)))
			ml.PredSet.Set(i, j, float64(rng.IntN(2)))
		}
	}
	return mc, ml
}

// TestValuesInRange: every metric's value on random folds (small and
// large, few and many classes, predictions that agree with the truth or
// not) lies in its [Min, Max], and the bounds are tight for the bounded
// metrics that reach them (a perfect fold reaches one end).
func TestValuesInRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n, k := 1+rng.IntN(40), 2+rng.IntN(5)
		mc, ml := randomFold(rng, n, k)
		if trial%3 == 0 {
			copy(mc.Pred, mc.True) // perfect predictions
			ml.PredSet.Copy(ml.TrueSet)
		}
		for _, m := range Metrics() {
			for _, in := range []*Input{mc, ml} {
				if in.MultiLabel() && !m.Kind.Has(MultiLabel) || !in.MultiLabel() && !m.Kind.Has(Multiclass) && !m.Kind.Has(Timing) {
					continue
				}
				v, _, err := m.Eval(in)
				if err != nil {
					t.Fatalf("trial %d: %s: %v", trial, m.Name, err)
				}
				if !m.InRange(v) {
					t.Errorf("trial %d: %s = %v outside [%v, %v]", trial, m.Name, v, m.Min, m.Max)
				}
			}
		}
	}
	if m, _ := Lookup("mcc"); m.InRange(math.NaN()) {
		t.Error("InRange(NaN) is true")
	}
}

// TestReadsScores: a metric that says it reads the class scores fails on
// a multiclass fold without them, and one that does not, does not; a
// metric that reads them as probabilities changes when each class's
// column goes through a monotone map (p ↦ p², which keeps every column's
// order), one that reads their order only (the AUCs) does not.
func TestReadsScores(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	in, _ := randomFold(rng, 50, 4)
	squared := *in
	squared.Prob = mat.NewDense(50, 4, nil)
	squared.Prob.Apply(func(_, _ int, v float64) float64 { return v * v }, in.Prob)
	noScores := *in
	noScores.Prob = nil
	for _, m := range Metrics() {
		if !m.Kind.Has(Multiclass) {
			continue
		}
		_, _, err := m.Eval(&noScores)
		if (err != nil) != m.ReadsScores {
			t.Errorf("%s: ReadsScores %v, but without class scores Eval gives error %v", m.Name, m.ReadsScores, err)
		}
		if !m.ReadsScores {
			continue
		}
		a, _, errA := m.Eval(in)
		b, _, errB := m.Eval(&squared)
		if errA != nil || errB != nil {
			t.Fatalf("%s: %v, %v", m.Name, errA, errB)
		}
		if changed := math.Abs(a-b) > 1e-12; changed != m.ReadsProbabilities {
			t.Errorf("%s: ReadsProbabilities %v, but a monotone map of the scores moves it from %v to %v", m.Name, m.ReadsProbabilities, a, b)
		}
	}
}
