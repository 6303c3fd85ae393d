package cv

import (
	"errors"
	"fmt"
)

// Options are a cv block's choices of how to split a dataset's rows into
// folds, afresh for each repeat: k-fold (plain, stratified by class, or
// iteratively stratified for multi-label data) or one holdout split.
type Options struct {
	Folds, Repeats int
	// Stratified stratifies multiclass data by class; Iterative
	// stratifies multi-label data by iterative stratification (else it
	// gets plain shuffled k-fold).
	Stratified, Iterative bool
	// Holdout, when in (0, 1), replaces k-fold by one random train/test
	// split with this fraction of test rows.
	Holdout float64
}

// Rows are the rows Options split: N rows of Classes classes, each
// row's class in Labels (multiclass), or for multi-label data
// (MultiLabel) whether row i has label k in Has(i, k).
type Rows struct {
	N, Classes int
	Labels     []int
	MultiLabel bool
	Has        func(i, k int) bool
}

// Option names of OptionError.
const (
	OptionFolds   = "folds"
	OptionRepeats = "repeats"
	OptionHoldout = "holdout"
)

// OptionError is the failure of one option (Option: OptionFolds,
// OptionRepeats or OptionHoldout), which the caller locates.
type OptionError struct {
	Option string
	Err    error
	// Unfit: the options do not fit the rows (Check), rather than the
	// folds of the rows could not be drawn.
	Unfit bool
}

func (e *OptionError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *OptionError) Unwrap() error { return e.Err }

// NumFolds returns the folds of each repeat: 1 (the test part) for a
// holdout, else Folds.
func (o Options) NumFolds() int {
	if o.Holdout > 0 {
		return 1
	}
	return o.Folds
}

// Check checks the options against rows: a holdout leaves each part
// enough rows (CheckHoldout), and the repeats fit in memory
// (CheckRepeats). The error is an *OptionError.
func (o Options) Check(r Rows) error {
	if o.Holdout > 0 {
		if err := CheckHoldout(r.N, o.Holdout, r.Classes, r.MultiLabel); err != nil {
			return &OptionError{Option: OptionHoldout, Err: err, Unfit: true}
		}
	}
	if err := CheckRepeats(o.Repeats, r.N); err != nil {
		return &OptionError{Option: OptionRepeats, Err: err, Unfit: true}
	}
	return nil
}

// Split checks the options against the rows (Check) and returns the fold
// of each row in each repeat, the seed of repeat rep being Seed(seed,
// "folds", name, rep). The error, an *OptionError, names the option that
// does not fit the rows (Unfit) or whose folds cannot be made.
func (o Options) Split(r Rows, seed uint64, name string) ([][]int, error) {
	if err := o.Check(r); err != nil {
		return nil, err
	}
	var out [][]int
	for rep := 0; rep < o.Repeats; rep++ {
		folds, err := o.repeat(r, Seed(seed, "folds", name, fmt.Sprint(rep)))
		if err != nil {
			return nil, err
		}
		out = append(out, folds)
	}
	return out, nil
}

// repeat returns the fold of each row in one repeat drawn from seed.
func (o Options) repeat(r Rows, seed uint64) ([]int, error) {
	if o.Holdout > 0 {
		var labels []int
		if o.Stratified && !r.MultiLabel {
			labels = r.Labels
		}
		folds, err := Holdout(r.N, labels, o.Holdout, seed)
		if err != nil {
			return nil, &OptionError{Option: OptionHoldout, Err: err}
		}
		return folds, nil
	}
	var folds []int
	var err error
	switch {
	case r.MultiLabel && o.Iterative:
		folds, err = IterativeStratification(labelRows(r), o.Folds, seed)
	case o.Stratified && !r.MultiLabel:
		folds, err = StratifiedKFold(r.Labels, o.Folds, seed)
	default:
		folds, err = KFold(r.N, o.Folds, seed)
	}
	if err != nil {
		return nil, &OptionError{Option: OptionFolds, Err: err}
	}
	return folds, nil
}

// labelRows returns the labels of each row of multi-label rows r.
func labelRows(r Rows) [][]bool {
	rows := make([][]bool, r.N)
	for i := range rows {
		rows[i] = make([]bool, r.Classes)
		for k := range rows[i] {
			rows[i][k] = r.Has(i, k)
		}
	}
	return rows
}

// IsOption reports whether err is the failure of option name.
func IsOption(err error, name string) bool {
	oe := (*OptionError)(nil)
	return errors.As(err, &oe) && oe.Option == name
}

// The checks of the cv options against a dataset: each returns nil when
// the option fits, else an error that says why in the options' own words
// (the caller names the dataset and locates the option).

// MaxFoldAssignments bounds repeats × rows, the fold assignments of a
// dataset's repeats, which a run holds in memory (8 bytes each, 512 MiB
// in all): repeats = 1e9 made validate allocate until the machine ran out
// of memory. 100 repeats of a dataset of 671,088 rows fit.
const MaxFoldAssignments = 1 << 26

// CheckRepeats checks that repeats of a dataset of rows rows make at most
// MaxFoldAssignments fold assignments.
func CheckRepeats(repeats, rows int) error {
	if a := int64(repeats) * int64(rows); repeats > 1 && a > MaxFoldAssignments {
		return fmt.Errorf("repeats = %d of its %d rows make %d fold assignments, more than the %d (%d MiB) a run holds in memory; use fewer repeats",
			repeats, rows, a, MaxFoldAssignments, MaxFoldAssignments*8>>20)
	}
	return nil
}

// CheckHoldout checks that a holdout of frac of rows rows leaves each part
// at least as many rows as the dataset has classes, or one row for
// multi-label data: a part with fewer rows has no score for some class,
// and its metrics and curves are undefined (NaN). The error says how many
// rows each part would get, and which fractions fit.
func CheckHoldout(rows int, frac float64, classes int, multiLabel bool) error {
	need, what := classes, fmt.Sprintf("as many rows as the dataset has classes (%d)", classes)
	if multiLabel {
		need, what = 1, "a row"
	}
	if HoldoutFits(rows, need, frac) {
		return nil
	}
	fit := "no fraction fits: the dataset has too few rows for a holdout; use k-fold cross-validation"
	if lo, hi, ok := HoldoutFractions(rows, need); ok {
		fit = fmt.Sprintf("use a fraction above %d/%d (%.4g) and at most %d/%d (%.4g)",
			lo, rows, float64(lo)/float64(rows), hi, rows, float64(hi)/float64(rows))
	}
	test, train := HoldoutSizes(rows, frac)
	return fmt.Errorf("holdout = %v of its %d rows gives the test part %s and the training part %s; each part needs at least %s, or its metrics and curves are undefined: %s",
		frac, rows, rowsWord(test), rowsWord(train), what, fit)
}

// rowsWord says n rows in words: "1 row", "0 rows".
func rowsWord(n int) string {
	if n == 1 {
		return "1 row"
	}
	return fmt.Sprintf("%d rows", n)
}

// CheckFoldsAgree checks that the folds a cv block sets (set: it sets
// them at all) equal the k folds of its folds file path, which would
// otherwise silently win.
func CheckFoldsAgree(folds int, set bool, path string, k int) error {
	if !set || folds == k {
		return nil
	}
	return fmt.Errorf("the cv block sets folds = %d, but its folds_file %s holds %d folds (numbered 0 to %d); drop folds (the file fixes them) or set it to %d",
		folds, path, k, k-1, k)
}

// CheckDatasetFoldsAgree checks that the folds a cv block sets (set: it
// sets them at all) equal the k folds of the folds file path of dataset
// name, which would otherwise silently win for that dataset.
func CheckDatasetFoldsAgree(folds int, set bool, name, path string, k int) error {
	if !set || folds == k {
		return nil
	}
	return fmt.Errorf("the cv block sets folds = %d, but dataset %q takes its folds from its folds_file %s, which holds %d folds (numbered 0 to %d); set folds to %d (or drop it), or drop the dataset's folds_file to draw %d folds",
		folds, name, path, k, k-1, k, folds)
}
