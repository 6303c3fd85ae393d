package metrics

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/suggest"
)

// Input is one fold's predictions. A multiclass fold sets True and Pred
// (and Prob for the probability metrics); a multi-label fold sets TrueSet and
// PredSet. Metrics that exist for both (micro_f1, macro_f1, ...) treat the
// input as multi-label whenever TrueSet is non-nil.
type Input struct {
	K                int        // number of classes (multiclass) or labels (multi-label)
	True, Pred       []int      // actual and predicted class indices in [0, K) (multiclass)
	Prob             *mat.Dense // n×K class probabilities (rows sum to 1), may be nil
	TrueSet, PredSet *mat.Dense // n×K 0/1 label indicator matrices (multi-label), may be nil
	FitSeconds       float64    // wall-clock seconds spent fitting
	PredictSeconds   float64    // wall-clock seconds spent predicting
}

// MultiLabel reports whether the input is a multi-label fold.
func (in *Input) MultiLabel() bool { return in.TrueSet != nil }

// Kind says which inputs a metric applies to; values can be or-ed.
type Kind uint8

const (
	// Multiclass metrics read True and Pred (and possibly Prob).
	Multiclass Kind = 1 << iota
	// MultiLabel metrics read TrueSet and PredSet.
	MultiLabel
	// Timing metrics read FitSeconds or PredictSeconds.
	Timing
)

// Has reports whether k includes every kind in o.
func (k Kind) Has(o Kind) bool { return k&o == o }

// String lists the kinds in k, joined by "|".
func (k Kind) String() string {
	var s []string
	for _, c := range []struct {
		k Kind
		n string
	}{{Multiclass, "multiclass"}, {MultiLabel, "multilabel"}, {Timing, "timing"}} {
		if k.Has(c.k) {
			s = append(s, c.n)
		}
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, "|")
}

// evalFunc computes a metric value and its number of zero-division cases
// from validated input.
type evalFunc func(in *Input) (float64, int)

// Metric is a named fold score with what the packages that check, rank
// and footnote its values need to know about it.
type Metric struct {
	Name           string // identifier used in configuration files
	HigherIsBetter bool   // whether larger values are better
	Kind           Kind   // inputs the metric applies to
	// Min and Max bound every value of the metric: [0, 1] for the
	// fractions, [−1, 1] for kappa and mcc, [0, 2] for brier, [0, +Inf)
	// for log_loss and the timings.
	Min, Max float64
	// ReadsScores says that the metric reads the class scores of a
	// multiclass fold (Input.Prob), not only its predicted classes.
	ReadsScores bool
	// ReadsProbabilities says that it reads them as probabilities, their
	// values and not only their order (log_loss and brier, proper scoring
	// rules): a softmax of decision scores in their place changes what it
	// measures. The AUCs read the scores' order alone.
	ReadsProbabilities bool
	Doc                string // one-line definition

	mc evalFunc // multiclass (or timing) evaluation
	ml evalFunc // multi-label evaluation
}

// InRange reports whether v lies in [m.Min, m.Max]; NaN does not.
func (m Metric) InRange(v float64) bool { return v >= m.Min && v <= m.Max }

// Eval computes the metric on one fold. warnings counts the zero-division
// (or otherwise undefined) cases that were set to 0, as described in the
// package documentation. It fails when the input lacks what the metric needs
// or is inconsistent.
func (m Metric) Eval(in *Input) (value float64, warnings int, err error) {
	if in == nil {
		return 0, 0, fmt.Errorf("metric %q: nil input", m.Name)
	}
	switch {
	case m.Kind.Has(Timing):
		if m.mc == nil {
			return 0, 0, fmt.Errorf("metric %q: no evaluator", m.Name)
		}
		v, w := m.mc(in)
		return v, w, nil
	case in.MultiLabel():
		if m.ml == nil {
			return 0, 0, fmt.Errorf("metric %q is not defined for multi-label input", m.Name)
		}
		if err := validateMultiLabel(in); err != nil {
			return 0, 0, fmt.Errorf("metric %q: %w", m.Name, err)
		}
		v, w := m.ml(in)
		return v, w, nil
	default:
		if m.mc == nil {
			return 0, 0, fmt.Errorf("metric %q is not defined for multiclass input", m.Name)
		}
		if err := validateMulticlass(in, m.ReadsScores); err != nil {
			return 0, 0, fmt.Errorf("metric %q: %w", m.Name, err)
		}
		v, w := m.mc(in)
		return v, w, nil
	}
}

// errEmpty reports a fold without rows.
var errEmpty = errors.New("fold has no rows")

// validateMulticlass checks True/Pred (unless only Prob is needed) and Prob.
func validateMulticlass(in *Input, needProb bool) error {
	if in.K < 1 {
		return fmt.Errorf("number of classes K = %d, want ≥ 1", in.K)
	}
	n := len(in.True)
	if n == 0 {
		return errEmpty
	}
	for i, t := range in.True {
		if t < 0 || t >= in.K {
			return fmt.Errorf("true label %d of row %d outside [0, %d)", t, i, in.K)
		}
	}
	if needProb {
		if in.Prob == nil {
			return errors.New("class probabilities (Prob) are required")
		}
		r, c := in.Prob.Dims()
		if r != n || c != in.K {
			return fmt.Errorf("class probabilities are %d×%d, want %d×%d", r, c, n, in.K)
		}
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				if v := in.Prob.At(i, j); math.IsNaN(v) || v < 0 || v > 1 {
					return fmt.Errorf("class probability [%d][%d] = %v is not a probability", i, j, v)
				}
			}
		}
		return nil
	}
	if len(in.Pred) != n {
		return fmt.Errorf("%d true labels but %d predicted labels", n, len(in.Pred))
	}
	for i, p := range in.Pred {
		if p < 0 || p >= in.K {
			return fmt.Errorf("predicted label %d of row %d outside [0, %d)", p, i, in.K)
		}
	}
	return nil
}

// validateMultiLabel checks that TrueSet and PredSet are n×K 0/1 matrices.
func validateMultiLabel(in *Input) error {
	if in.PredSet == nil {
		return errors.New("predicted label sets (PredSet) are required")
	}
	n, k := in.TrueSet.Dims()
	if n == 0 {
		return errEmpty
	}
	if k != in.K || k < 1 {
		return fmt.Errorf("TrueSet has %d columns, want K = %d", k, in.K)
	}
	if r, c := in.PredSet.Dims(); r != n || c != k {
		return fmt.Errorf("PredSet is %d×%d, TrueSet is %d×%d", r, c, n, k)
	}
	for _, m := range []*mat.Dense{in.TrueSet, in.PredSet} {
		for i := 0; i < n; i++ {
			for j := 0; j < k; j++ {
				if v := m.At(i, j); v != 0 && v != 1 {
					return fmt.Errorf("label matrix entry [%d][%d] = %v is not 0 or 1", i, j, v)
				}
			}
		}
	}
	return nil
}

// catalog returns every metric, in the order Names reports them.
func catalog() []Metric {
	prf := func(name string, avg Averaging, pick func(PRF) (float64, int), what string) Metric {
		return Metric{
			Name: name, HigherIsBetter: true, Kind: Multiclass | MultiLabel, Min: 0, Max: 1,
			Doc: fmt.Sprintf("%s-averaged %s (multiclass: over classes in true or predicted labels; multi-label: over all labels)", avg, what),
			mc: func(in *Input) (float64, int) {
				v, w := pick(AveragePRF(PerClass(nil, Confusion(in.True, in.Pred, in.K)), avg, true))
				return v, w
			},
			ml: func(in *Input) (float64, int) {
				v, w := pick(AveragePRF(labelScores(in.TrueSet, in.PredSet), avg, false))
				return v, w
			},
		}
	}
	precision := func(r PRF) (float64, int) { return r.Precision, r.PrecisionWarnings }
	recall := func(r PRF) (float64, int) { return r.Recall, r.RecallWarnings }
	fscore := func(r PRF) (float64, int) { return r.F1, r.F1Warnings }
	unit := [2]float64{0, 1}
	mc := func(name string, higher bool, span [2]float64, doc string, f evalFunc) Metric {
		return Metric{Name: name, HigherIsBetter: higher, Kind: Multiclass, Min: span[0], Max: span[1], Doc: doc, mc: f}
	}
	// auc reads the class scores' order, prob their values.
	auc := func(name, doc string, f evalFunc) Metric {
		m := mc(name, true, unit, doc, f)
		m.ReadsScores = true
		return m
	}
	prob := func(name string, span [2]float64, doc string, f evalFunc) Metric {
		m := mc(name, false, span, doc, f)
		m.ReadsScores, m.ReadsProbabilities = true, true
		return m
	}
	timing := func(name, doc string, f evalFunc) Metric {
		return Metric{Name: name, Kind: Timing, Min: 0, Max: math.Inf(1), Doc: doc, mc: f}
	}
	ml := func(name string, higher bool, doc string, f evalFunc) Metric {
		return Metric{Name: name, HigherIsBetter: higher, Kind: MultiLabel, Min: 0, Max: 1, Doc: doc, ml: f}
	}
	return []Metric{
		mc("accuracy", true, unit, "fraction of rows whose predicted class is the true class", accuracy),
		mc("error", false, unit, "1 − accuracy", func(in *Input) (float64, int) {
			a, w := accuracy(in)
			return 1 - a, w
		}),
		mc("balanced_accuracy", true, unit, "mean recall over classes present in the true labels", balancedAccuracy),
		prf("micro_precision", Micro, precision, "precision"),
		prf("micro_recall", Micro, recall, "recall"),
		prf("micro_f1", Micro, fscore, "F1"),
		prf("macro_precision", Macro, precision, "precision"),
		prf("macro_recall", Macro, recall, "recall"),
		prf("macro_f1", Macro, fscore, "F1"),
		prf("weighted_precision", Weighted, precision, "precision"),
		prf("weighted_recall", Weighted, recall, "recall"),
		prf("weighted_f1", Weighted, fscore, "F1"),
		mc("kappa", true, [2]float64{-1, 1}, "Cohen's kappa (po − pe)/(1 − pe)", kappa),
		mc("mcc", true, [2]float64{-1, 1}, "multiclass Matthews correlation coefficient (Gorodkin's R_K)", mcc),
		prob("log_loss", [2]float64{0, math.Inf(1)}, "mean −log p(true class), p clipped to [ε, 1−ε] (ε = 2.22e-16, float64 machine epsilon, as scikit-learn ≥ 1.2) and rows renormalised; for a learner without probabilities, p is the softmax of the decoder's class scores", logLoss),
		prob("brier", [2]float64{0, 2}, "multiclass Brier score: mean over rows of Σ_k (p_k − [y = k])²", brier),
		auc("auc_ovr", "macro mean of one-vs-rest ROC AUCs over classes present in the true labels", func(in *Input) (float64, int) {
			return Average(OvRAUC(nil, in.True, in.Prob), nil)
		}),
		auc("auc_ovr_weighted", "prevalence-weighted mean of one-vs-rest ROC AUCs", func(in *Input) (float64, int) {
			w := make([]float64, in.K)
			for _, t := range in.True {
				w[t]++
			}
			return Average(OvRAUC(nil, in.True, in.Prob), w)
		}),
		auc("auc_ovo", "Hand & Till M: mean over class pairs of (A(i|j) + A(j|i))/2", func(in *Input) (float64, int) {
			return HandTillM(in.True, in.Prob)
		}),
		timing("fit_seconds", "seconds spent fitting the model", func(in *Input) (float64, int) { return in.FitSeconds, 0 }),
		timing("predict_seconds", "seconds spent predicting the test fold", func(in *Input) (float64, int) { return in.PredictSeconds, 0 }),
		ml("hamming_loss", false, "fraction of (row, label) cells predicted wrongly", hammingLoss),
		ml("jaccard", true, "mean over rows of |Y ∩ Z| / |Y ∪ Z| (0 when both are empty)", func(in *Input) (float64, int) {
			return exampleBased(in, func(inter, yn, zn float64) (float64, bool) {
				u := yn + zn - inter
				return ratio(inter, u), u == 0
			})
		}),
		ml("example_precision", true, "mean over rows of |Y ∩ Z| / |Z| (0 when Z is empty)", func(in *Input) (float64, int) {
			return exampleBased(in, func(inter, yn, zn float64) (float64, bool) { return ratio(inter, zn), zn == 0 })
		}),
		ml("example_recall", true, "mean over rows of |Y ∩ Z| / |Y| (0 when Y is empty)", func(in *Input) (float64, int) {
			return exampleBased(in, func(inter, yn, zn float64) (float64, bool) { return ratio(inter, yn), yn == 0 })
		}),
		ml("example_f1", true, "mean over rows of the F1 of that row's precision and recall", func(in *Input) (float64, int) {
			return exampleBased(in, func(inter, yn, zn float64) (float64, bool) {
				return f1(ratio(inter, zn), ratio(inter, yn)), yn == 0 || zn == 0
			})
		}),
		ml("subset_accuracy", true, "fraction of rows whose predicted label set equals the true set", subsetAccuracy),
	}
}

// builtCatalog returns the catalog, built on the first call only: a run
// looks its metrics up in every fold, and building the catalog formats
// every metric's doc. Its metrics are never changed: Lookup hands out
// copies, Metrics a copy of the list.
var builtCatalog = sync.OnceValue(catalog)

// Lookup returns the metric called name, or an error listing the valid names.
func Lookup(name string) (Metric, error) {
	for _, m := range builtCatalog() {
		if m.Name == name {
			return m, nil
		}
	}
	return Metric{}, fmt.Errorf("unknown metric %q%s; the metrics are: %s", name, suggest.DidYouMean(name, Names()), strings.Join(Names(), ", "))
}

// Names returns the names of all metrics.
func Names() []string {
	c := builtCatalog()
	names := make([]string, len(c))
	for i, m := range c {
		names[i] = m.Name
	}
	return names
}

// Metrics returns all metrics.
func Metrics() []Metric { return slices.Clone(builtCatalog()) }
