package stats

import (
	"errors"
	"fmt"
)

// MinFolds is the smallest number of paired fold scores (train/test
// splits) on which a test on one data set is run: a single split has no
// spread to test.
const MinFolds = 2

// MinDatasets is the smallest number of data sets on which a test across
// data sets is run (the Friedman, Wilcoxon and Bayesian signed-rank
// tests): see MinFriedmanDatasets.
const MinDatasets = MinFriedmanDatasets

// PreconditionError is the error of a test whose data do not meet its
// preconditions (too few folds or data sets, differences of zero
// variance, no difference at all): the test is not run rather than reporting numbers the data
// cannot support. Reason says why in words a table cell can show, e.g.
// "1 split (needs at least 2)".
type PreconditionError struct {
	// Test names the test, e.g. "correlated t-test".
	Test string
	// Reason is the unmet precondition.
	Reason string
}

// Error returns "TEST: REASON".
func (e *PreconditionError) Error() string { return e.Test + ": " + e.Reason }

// Unmet returns the reason of the PreconditionError in err's chain, and
// whether there is one.
func Unmet(err error) (string, bool) {
	var pe *PreconditionError
	if errors.As(err, &pe) {
		return pe.Reason, true
	}
	return "", false
}

// CheckFolds returns a PreconditionError of test when n paired fold scores
// are fewer than MinFolds.
func CheckFolds(test string, n int) error {
	if n < MinFolds {
		return &PreconditionError{test, fmt.Sprintf("%s (needs at least %d)", count(n, "split", "splits"), MinFolds)}
	}
	return nil
}

// CheckDatasets returns a PreconditionError of test when n data sets are
// fewer than MinDatasets.
func CheckDatasets(test string, n int) error {
	if n < MinDatasets {
		return &PreconditionError{test, fmt.Sprintf("%s (needs at least %d)", count(n, "dataset", "datasets"), MinDatasets)}
	}
	return nil
}

// checkSpread returns a PreconditionError of test when the differences d
// are all equal (Tied with the first): zero variance, nothing for the
// test to weigh a difference against.
func checkSpread(test string, d []float64) error {
	for _, v := range d[1:] {
		if !Tied(v, d[0]) {
			return nil
		}
	}
	return &PreconditionError{test, fmt.Sprintf("zero variance (all %d differences equal)", len(d))}
}

// checkNonZero returns a PreconditionError of test when the differences
// d are all zero (Tied with 0), or there are none: the rows do not differ
// anywhere, nothing to rank (a rank test would split every sample evenly
// and call the tie a decision).
func checkNonZero(test string, d []float64) error {
	for _, v := range d {
		if !Tied(v, 0) {
			return nil
		}
	}
	return &PreconditionError{test, fmt.Sprintf("all %d differences zero", len(d))}
}

// count is "1 split" or "3 splits".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
