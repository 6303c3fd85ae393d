package metrics

// NewClassScore returns the scores of a class (or label) from its counts:
// true positives, false positives and false negatives.
func NewClassScore(tp, fp, fn float64) ClassScore { return newClassScore(tp, fp, fn) }

// Report is scikit-learn's classification_report (zero_division=0, every
// class listed): each class's precision, recall, F1 and support, and
// their micro, macro and weighted averages over every class, present or
// not. For multiclass predictions the micro average of each is the
// accuracy (the report's "accuracy" line).
type Report struct {
	Classes                []ClassScore
	Micro, Macro, Weighted PRF
	// Support is the number of rows (multiclass) or of labels set
	// (multi-label) summed over the classes.
	Support float64
}

// NewReport averages the scores of every class as classification_report
// does when it is given every class (labels=range(K)).
func NewReport(scores []ClassScore) Report {
	r := Report{Classes: scores, Micro: AveragePRF(scores, Micro, false), Macro: AveragePRF(scores, Macro, false),
		Weighted: AveragePRF(scores, Weighted, false)}
	for _, s := range scores {
		r.Support += s.Support
	}
	return r
}
