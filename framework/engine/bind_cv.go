package engine

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/polyclass/polyclass/framework/cv"
)

// folds assigns the rows of dataset ds to folds (ds.Folds, ds.NumFolds):
// its test file's rows (after the first train) for a dataset with one, a
// folds file's, or the cv block's folds or holdout of each repeat. It
// reports false after an error.
func (r *resolver) folds(ds *Dataset, train int) bool {
	c, cvc, n := ds.Config, r.exp.CV, ds.Table.NumRows
	if c.TestPath != "" {
		// One split: fold 0 (the test part) is the test file's rows.
		folds := make([]int, n)
		for i := range train {
			folds[i] = 1
		}
		ds.Folds, ds.NumFolds = [][]int{folds}, 1
		return true
	}
	foldsFile, foldsRange := cvc.FoldsFile, cvc.FoldsFileRange
	if c.FoldsFile != "" {
		foldsFile, foldsRange = c.FoldsFile, c.FoldsFileRange
	}
	if foldsFile != "" {
		folds, k, err := cv.ReadFoldsFile(foldsFile)
		if err != nil {
			r.errorf(foldsRange, "Cannot read folds file", "%v", err)
			return false
		}
		if len(folds) != n {
			r.errorf(foldsRange, "Folds file does not fit the dataset",
				"%s assigns %d rows, dataset %q has %d.", foldsFile, len(folds), c.Name, n)
			return false
		}
		if c.FoldsFile == "" && !r.foldsAgree(k) {
			return false
		}
		ds.Folds, ds.NumFolds = [][]int{folds}, k
		return true
	}
	ds.NumFolds = cvc.Folds
	if cvc.Holdout > 0 {
		if !r.holdoutFits(ds) {
			return false
		}
		ds.NumFolds = 1
	}
	if a := int64(cvc.Repeats) * int64(n); cvc.Repeats > 1 && a > MaxFoldAssignments {
		r.errorf(cvc.RepeatsRange, "Too many repeats",
			"Dataset %q: repeats = %d of its %d rows make %d fold assignments, more than the %d (%d MiB) a run holds in memory; use fewer repeats.",
			c.Name, cvc.Repeats, n, a, MaxFoldAssignments, MaxFoldAssignments*8>>20)
		return false
	}
	for rep := 0; rep < cvc.Repeats; rep++ {
		folds, ok := r.repeatFolds(ds, rep)
		if !ok {
			return false
		}
		ds.Folds = append(ds.Folds, folds)
	}
	return true
}

// holdoutFits reports whether the holdout of the cv block leaves each
// part of dataset ds at least as many rows as it has classes (one row for
// multi-label data), and reports an error at the holdout attribute saying
// how many rows each part would get, and which fractions fit, when not:
// a part with fewer rows has no score for some class, and its metrics and
// curves are undefined (NaN).
func (r *resolver) holdoutFits(ds *Dataset) bool {
	c, frac, n := ds.Config, r.exp.CV.Holdout, ds.Table.NumRows
	need, what := ds.K(), fmt.Sprintf("as many rows as the dataset has classes (%d)", ds.K())
	if ds.MultiLabel {
		need, what = 1, "a row"
	}
	if cv.HoldoutFits(n, need, frac) {
		return true
	}
	fit := "no fraction fits: the dataset has too few rows for a holdout; use k-fold cross-validation"
	if lo, hi, ok := cv.HoldoutFractions(n, need); ok {
		fit = fmt.Sprintf("use a fraction above %d/%d (%.4g) and at most %d/%d (%.4g)",
			lo, n, float64(lo)/float64(n), hi, n, float64(hi)/float64(n))
	}
	test, train := cv.HoldoutSizes(n, frac)
	r.errorf(r.exp.CV.HoldoutRange, "Holdout leaves a part too small",
		"Dataset %q: holdout = %v of its %d rows gives the test part %s and the training part %s; each part needs at least %s, or its metrics and curves are undefined: %s.",
		c.Name, frac, n, rowsWord(test), rowsWord(train), what, fit)
	return false
}

// rowsWord says n rows in words: "1 row", "0 rows".
func rowsWord(n int) string {
	if n == 1 {
		return "1 row"
	}
	return fmt.Sprintf("%d rows", n)
}

// repeatFolds returns the fold of each row of dataset ds in repeat rep,
// as the cv block asks (holdout, iterative stratification of multi-label
// data, stratified or plain k-fold), reporting false after an error.
func (r *resolver) repeatFolds(ds *Dataset, rep int) ([]int, bool) {
	c, cvc, n := ds.Config, r.exp.CV, ds.Table.NumRows
	seed := cv.Seed(r.exp.Seed, "folds", c.Name, fmt.Sprint(rep))
	var folds []int
	var err error
	if cvc.Holdout > 0 {
		var labels []int
		if cvc.Stratified && !ds.MultiLabel {
			labels = ds.Labels
		}
		if folds, err = cv.Holdout(n, labels, cvc.Holdout, seed); err != nil {
			r.errorf(cvc.HoldoutRange, "Cannot make folds", "Dataset %q: %v", c.Name, err)
			return nil, false
		}
		return folds, true
	}
	// Multi-label data: plain shuffled k-fold, or iterative
	// stratification when asked for.
	switch {
	case ds.MultiLabel && cvc.Iterative:
		rows := make([][]bool, n)
		for i := range rows {
			rows[i] = make([]bool, ds.K())
			for j := range rows[i] {
				rows[i][j] = ds.LabelMatrix.At(i, j) == 1
			}
		}
		folds, err = cv.IterativeStratification(rows, cvc.Folds, seed)
	case cvc.Stratified && !ds.MultiLabel:
		folds, err = cv.StratifiedKFold(ds.Labels, cvc.Folds, seed)
	default:
		folds, err = cv.KFold(n, cvc.Folds, seed)
	}
	if err != nil {
		rng := cvc.FoldsRange // the folds = N that cannot be made
		if rng.Filename == "" {
			rng = c.DeclRange
		}
		r.errorf(rng, "Cannot make folds", "Dataset %q: %v", c.Name, err)
		return nil, false
	}
	return folds, true
}

// foldWarnings warns, as scikit-learn's StratifiedKFold does, when the
// least populated class has fewer rows than there are folds, and when a
// test part has fewer rows than there are classes.
func (r *resolver) foldWarnings(d *Dataset) {
	cvc := r.exp.CV
	c := d.Config
	if !cvc.Stratified || d.MultiLabel || cvc.Holdout > 0 || cvc.FoldsFile != "" || c.FoldsFile != "" || c.TestPath != "" {
		return
	}
	rng := cvc.FoldsRange
	if rng.Filename == "" {
		rng = c.DeclRange
	}
	counts := make([]int, d.K())
	for _, y := range d.Labels {
		counts[y]++
	}
	least := 0
	for k, n := range counts {
		if n < counts[least] {
			least = k
		}
	}
	if counts[least] < d.NumFolds {
		r.warnf(rng, "Class smaller than the number of folds",
			"Dataset %q: the least populated class %q has only %d row(s), fewer than folds = %d, so some test parts have none of it (scikit-learn's StratifiedKFold warns the same).",
			c.Name, d.Classes[least], counts[least], d.NumFolds)
	}
	// The smallest test part of all repeats, the first of them on ties.
	smallest, fold, repeat := -1, 0, 0
	for rep, folds := range d.Folds {
		sizes := make([]int, d.NumFolds)
		for _, f := range folds {
			sizes[f]++
		}
		for f, n := range sizes {
			if smallest < 0 || n < smallest {
				smallest, fold, repeat = n, f, rep
			}
		}
	}
	if smallest >= 0 && smallest < d.K() {
		r.warnf(rng, "Fold smaller than the number of classes",
			"Dataset %q: fold %d of repeat %d has %d test row(s) for %d classes, so it cannot hold every class; use fewer folds.",
			c.Name, fold, repeat, smallest, d.K())
	}
}

// singleRowClasses refuses multiclass dataset d when every one of its
// classes has a single row (and it has at least two): cross-validation
// puts each class's row in a test part or in a training part, never in
// both, so no fold's models can predict the class of any of its test
// rows, and the run computes nothing but accuracy 0 (with 10,000 classes
// it took an hour of dense K-column scores to do so). A dataset with a
// test file is left alone: its training rows are all in every fold.
func (r *resolver) singleRowClasses(d *Dataset) {
	if d.MultiLabel || d.Config.TestPath != "" || len(d.Labels) < 2 {
		return
	}
	counts := make([]int, d.K())
	for _, y := range d.Labels {
		if counts[y]++; counts[y] > 1 {
			return
		}
	}
	r.errorf(d.Config.DeclRange, "Every class has a single row",
		"Dataset %q: each of its %d classes with rows (%s) has a single row, so no training part of a fold holds the class of any of its test rows: every prediction would be wrong. Cross-validation needs classes of at least 2 rows (of at least as many rows as folds, for every test part to hold each class).",
		d.Config.Name, len(d.Labels), firstClasses(d.Classes, 3))
}

// firstClasses returns the first n of classes, quoted and joined by
// commas, and "…" when there are more.
func firstClasses(classes []string, n int) string {
	var out []string
	for _, c := range classes[:min(n, len(classes))] {
		out = append(out, strconv.Quote(c))
	}
	if len(classes) > n {
		out = append(out, "…")
	}
	return strings.Join(out, ", ")
}

// foldsAgree reports whether the cv block's folds, when it sets them,
// equal the k folds of its folds_file; when they differ it reports the
// conflict at folds (the file's folds would silently win).
func (r *resolver) foldsAgree(k int) bool {
	cvc := r.exp.CV
	if cvc.FoldsRange.Filename == "" || cvc.Folds == k {
		return true
	}
	r.errorf(cvc.FoldsRange, "Conflicting fold settings",
		"The cv block sets folds = %d, but its folds_file %s holds %d folds (numbered 0 to %d); drop folds (the file fixes them) or set it to %d.",
		cvc.Folds, cvc.FoldsFile, k, k-1, k)
	return false
}

// trainingClasses warns when the training part of a fold lacks a class
// of multiclass dataset d, every row of it being in that fold's test part
// (a folds file whose test folds each hold one class, say): the fold's
// models cannot predict the class, and its test rows of the class all
// count as errors (classes of one row aside). It names the first such fold
// and class, and how many more there are. Folds and repeats are numbered
// from 0, as in folds files and folds.csv.
func (r *resolver) trainingClasses(d *Dataset) {
	if d.MultiLabel || d.Config.TestPath != "" {
		return // a test file's classes are checked against its training file
	}
	total := make([]int, d.K())
	for _, y := range d.Labels {
		total[y]++
	}
	var first string
	n := 0
	for rep, folds := range d.Folds {
		for f := range d.NumFolds {
			inTest := make([]int, d.K())
			for i, v := range folds {
				if v == f {
					inTest[d.Labels[i]]++
				}
			}
			for k, m := range inTest {
				// A class of one row always misses from one training
				// part; foldWarnings speaks of classes that small.
				if m > 1 && m == total[k] {
					if n == 0 {
						first = fmt.Sprintf("fold %d", f)
						if len(d.Folds) > 1 {
							first += fmt.Sprintf(" of repeat %d", rep)
						}
						first += fmt.Sprintf(" has all %d row(s) of class %q in its test part, so its training part has none", m, d.Classes[k])
					}
					n++
				}
			}
		}
	}
	if n == 0 {
		return
	}
	c := d.Config
	rng := c.DeclRange
	switch {
	case c.FoldsFile != "":
		rng = c.FoldsFileRange
	case r.exp.CV.FoldsFile != "":
		rng = r.exp.CV.FoldsFileRange
	case r.exp.CV.FoldsRange.Filename != "":
		rng = r.exp.CV.FoldsRange
	}
	more := ""
	if n > 1 {
		more = fmt.Sprintf(" (and %d more fold/class pair(s) like it)", n-1)
	}
	r.warnf(rng, "Class missing from a training part",
		"Dataset %q: %s%s: the fold's models cannot predict the class, and its test rows of it all count as errors.", c.Name, first, more)
}
