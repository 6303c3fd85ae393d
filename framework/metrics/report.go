package metrics

// NewClassScore returns the scores of a class (or label) from its counts:
// true positives, false positives and false negatives.
func NewClassScore(tp, fp, fn float64) ClassScore { return newClassScore(tp, fp, fn) }

// Report is scikit-learn's classification_report (zero_division=0, every
// class listed): each class's precision, recall, F1 and support, and
// their micro, macro and weighted averages (over every label for
// multi-label predictions, NewReport; over the classes present among the
// true or predicted labels for multiclass ones, NewMulticlassReport). For
// multiclass predictions the micro average of each is the
// accuracy (the report's "accuracy" line).
type Report struct {
	Classes                []ClassScore
	Micro, Macro, Weighted PRF
	// Support is the number of rows (multiclass) or of labels set
	// (multi-label) summed over the classes.
	Support float64
}

// The names of a Report's summary lines, as classification_report prints
// them below the classes: "accuracy" (multiclass) or "micro avg"
// (multi-label), then "macro avg" and "weighted avg".
const (
	AccuracyRow = "accuracy"
	MicroRow    = "micro avg"
	MacroRow    = "macro avg"
	WeightedRow = "weighted avg"
)

// SummaryRows returns the names of every summary line a Report prints
// (AccuracyRow, MicroRow, MacroRow, WeightedRow): a class of one of these
// names could not be told from its line.
func SummaryRows() []string { return []string{AccuracyRow, MacroRow, WeightedRow, MicroRow} }

// NewReport averages the scores of every class as classification_report
// does when it is given every class (labels=range(K)): the report of
// multi-label predictions, whose metrics average over every label.
func NewReport(scores []ClassScore) Report {
	return newReport(scores, false)
}

// NewMulticlassReport averages the scores of multiclass predictions over
// the classes that occur among their true or predicted labels, as
// classification_report does by default (labels=None) and as the
// multiclass metrics (macro_f1, ...) do: a class that the data file
// declares (an ARFF nominal value) but no row has, and that no row is
// predicted as, is listed in Classes, with support 0, and left out of
// the macro average instead of counting an F1 of 0. The micro and
// weighted averages are the same either way.
func NewMulticlassReport(scores []ClassScore) Report {
	return newReport(scores, true)
}

// newReport averages scores, over the present classes only when
// onlyPresent is true (see AveragePRF).
func newReport(scores []ClassScore, onlyPresent bool) Report {
	r := Report{Classes: scores, Micro: AveragePRF(scores, Micro, onlyPresent), Macro: AveragePRF(scores, Macro, onlyPresent),
		Weighted: AveragePRF(scores, Weighted, onlyPresent)}
	for _, s := range scores {
		r.Support += s.Support
	}
	return r
}
