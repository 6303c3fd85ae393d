package config

import (
	"slices"

	"github.com/hashicorp/hcl/v2"
)

// How a dataset's rows are split into folds: drawn by the cv block's
// folds or holdout, or fixed by a file (its test file, its own folds
// file, the cv block's folds file).
type split int

const (
	drawnSplit split = iota
	testSplit
	ownFileSplit
	cvFileSplit
)

// splitOf returns how the rows of ds are split under cv (as the engine
// binds them: a test file first, then the dataset's folds file, then the
// cv block's).
func splitOf(ds *Dataset, cv *CV) split {
	switch {
	case ds.TestPath != "":
		return testSplit
	case ds.FoldsFile != "":
		return ownFileSplit
	case cv.FoldsFile != "":
		return cvFileSplit
	}
	return drawnSplit
}

// foldSettings checks the cv block's options against the datasets' own
// splits, so that no option is silently ignored. A folds file (the cv
// block's or a dataset's) fixes one partition of the rows: repeats > 1
// would re-use it, and holdout would not apply to it (errors; folds that
// disagree with a folds file's are the engine's, which reads the file).
// An option that reaches no dataset, every dataset having a split of its
// own, is an error; stratified, often written out at its default, is a
// warning when neither any dataset's folds nor a tune block's inner folds
// use it.
func (d *decoder) foldSettings(exp *Experiment) {
	if len(exp.Datasets) == 0 {
		return
	}
	cv := &exp.CV
	splits := make([]split, len(exp.Datasets))
	for i, ds := range exp.Datasets {
		splits[i] = splitOf(ds, cv)
	}
	d.repeatsOverFile(exp, splits)
	d.holdoutOverFile(exp, splits)
	if slices.Contains(splits, drawnSplit) {
		return
	}
	allTest := !slices.ContainsFunc(splits, func(s split) bool { return s != testSplit })
	d.unreached(exp, splits, allTest)
}

// repeatsOverFile reports repeats > 1 when a dataset's folds come from a
// folds file, which fixes one partition: every repeat would re-use it.
func (d *decoder) repeatsOverFile(exp *Experiment, splits []split) {
	cv := &exp.CV
	if cv.Repeats <= 1 {
		return
	}
	for i, s := range splits {
		ds := exp.Datasets[i]
		switch s {
		case ownFileSplit:
			d.errorf(cv.RepeatsRange, "Conflicting fold settings",
				"Dataset %q takes its folds from its folds_file (at %s), which fixes one partition of its rows: repeats = %d would only re-use the same folds %d times. Drop repeats (one repeat), or drop the dataset's folds_file to draw fresh folds for each repeat.",
				ds.Name, at(ds.FoldsFileRange), cv.Repeats, cv.Repeats)
			return
		case cvFileSplit:
			d.errorf(cv.RepeatsRange, "Conflicting fold settings",
				"The cv block's folds_file (at %s) fixes one partition of each dataset's rows: repeats = %d would only re-use the same folds %d times. Drop repeats (one repeat), or drop folds_file to draw fresh folds for each repeat.",
				at(cv.FoldsFileRange), cv.Repeats, cv.Repeats)
			return
		}
	}
}

// holdoutOverFile reports holdout when a dataset takes its folds from a
// folds file of its own: the file fixes them, and the holdout would not
// apply to it. (The cv block's own folds_file with holdout is reported
// where the cv block is decoded.)
func (d *decoder) holdoutOverFile(exp *Experiment, splits []split) {
	cv := &exp.CV
	if cv.Holdout <= 0 || cv.FoldsFile != "" {
		return
	}
	if i := slices.Index(splits, ownFileSplit); i >= 0 {
		ds := exp.Datasets[i]
		d.errorf(cv.HoldoutRange, "Conflicting fold settings",
			"Dataset %q takes its folds from its folds_file (at %s), which fixes them: holdout = %v would not apply to it. Drop holdout, or drop the dataset's folds_file to split it by the holdout.",
			ds.Name, at(ds.FoldsFileRange), cv.Holdout)
	}
}

// unreached reports the cv block's options that reach no dataset, when
// none draws its folds from the cv block (splits: every dataset's;
// allTest: every one has a test file).
func (d *decoder) unreached(exp *Experiment, splits []split, allTest bool) {
	cv := &exp.CV
	why := "every dataset's split is fixed by a file (its test_path, or a folds_file)"
	if allTest {
		why = "every dataset has a test_path (one fit on its path, one score on its test file)"
	}
	if cv.FoldsFile != "" && !slices.Contains(splits, cvFileSplit) {
		d.errorf(cv.FoldsFileRange, "Fold setting that applies to no dataset",
			"The cv block's folds_file splits no dataset: every dataset has a test_path or a folds_file of its own. Drop it.")
	}
	if allTest {
		if cv.FoldsRange != (hcl.Range{}) {
			d.errorf(cv.FoldsRange, "Fold setting that applies to no dataset",
				"folds = %d splits no dataset: %s. Drop folds.", cv.Folds, why)
		}
		if cv.Holdout > 0 {
			d.errorf(cv.HoldoutRange, "Fold setting that applies to no dataset",
				"holdout = %v splits no dataset: %s. Drop holdout.", cv.Holdout, why)
		}
		if cv.Repeats > 1 {
			d.errorf(cv.RepeatsRange, "Fold setting that applies to no dataset",
				"repeats = %d repeats no dataset's folds: %s, so each cell would run once. Drop repeats.", cv.Repeats, why)
		}
	}
	tunes := slices.ContainsFunc(exp.Learners, func(l *Learner) bool { return l.Tune != nil })
	if cv.StratifiedRange != (hcl.Range{}) && !tunes {
		d.warnf(cv.StratifiedRange, "Fold setting that applies to no dataset",
			"stratified stratifies no folds: %s, and no learner has a tune block (whose inner folds it stratifies). Drop stratified.", why)
	}
}
