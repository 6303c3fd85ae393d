package dataset

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/cv"
)

// folds assigns the rows of dataset ds to folds (ds.Folds, ds.NumFolds)
// under the cv block cvc and the experiment's seed: its test file's rows
// (after the first train) for a dataset with one, else the folds of its
// plan (cvPlan: a folds file's, or the cv block's folds or holdout of
// each repeat). It reports false after an error.
func (ck *checker) folds(ds *Dataset, train int, cvc *config.CV, seed uint64) bool {
	c, n := ds.Config, ds.Table.NumRows
	if c.TestPath != "" {
		// One split: fold 0 (the test part) is the test file's rows.
		folds := make([]int, n)
		for i := range train {
			folds[i] = 1
		}
		ds.Folds, ds.NumFolds = [][]int{folds}, 1
		return true
	}
	rows := cv.Rows{N: n, Classes: ds.K(), Labels: ds.Labels, MultiLabel: ds.MultiLabel,
		Has: func(i, k int) bool { return ds.LabelMatrix.At(i, k) == 1 }}
	folds, k, err := cvPlan(c, cvc).Assign(rows, seed, c.Name)
	if err != nil {
		ck.foldsError(c, cvc, err)
		return false
	}
	ds.Folds, ds.NumFolds = folds, k
	return true
}

// cvPlan returns where the folds of dataset c come from under the cv
// block cvc: its own folds file, else the cv block's, else the cv
// block's options.
func cvPlan(c *config.Dataset, cvc *config.CV) cv.Plan {
	p := cv.Plan{Options: cv.Options{Folds: cvc.Folds, Repeats: cvc.Repeats, Stratified: cvc.Stratified, Iterative: cvc.Iterative, Holdout: cvc.Holdout},
		FoldsSet: cvc.FoldsRange.Filename != "", File: cvc.FoldsFile}
	if c.FoldsFile != "" {
		p.File, p.Own = c.FoldsFile, true
	}
	return p
}

// foldsError reports err, the failure to assign the rows of dataset c to
// folds under the cv block cvc (cv.Plan.Assign), at the attribute it
// concerns: the folds file's, the cv block's folds, holdout or repeats,
// or else the dataset block.
func (ck *checker) foldsError(c *config.Dataset, cvc *config.CV, err error) {
	foldsRange := cvc.FoldsFileRange
	if c.FoldsFile != "" {
		foldsRange = c.FoldsFileRange
	}
	if fe := (*cv.FileError)(nil); errors.As(err, &fe) {
		switch fe.Problem {
		case cv.FileUnread:
			ck.errorf(foldsRange, "Cannot read folds file", "%v", err)
		case cv.FileRows:
			ck.errorf(foldsRange, "Folds file does not fit the dataset", "%v.", err)
		default: // the file's folds would silently win
			ck.errorf(cvc.FoldsRange, "Conflicting fold settings", "%s.", capitalized(err))
		}
		return
	}
	if oe := (*cv.OptionError)(nil); errors.As(err, &oe) && oe.Unfit {
		if oe.Option == cv.OptionHoldout {
			ck.errorf(cvc.HoldoutRange, "Holdout leaves a part too small", "Dataset %q: %v.", c.Name, err)
		} else {
			ck.errorf(cvc.RepeatsRange, "Too many repeats", "Dataset %q: %v.", c.Name, err)
		}
		return
	}
	rng := cvc.HoldoutRange
	if !cv.IsOption(err, cv.OptionHoldout) {
		rng = cvc.FoldsRange // the folds = N that cannot be made
		if rng.Filename == "" {
			rng = c.DeclRange
		}
	}
	ck.errorf(rng, "Cannot make folds", "Dataset %q: %v", c.Name, err)
}

// capitalized returns the text of err as the start of a sentence.
func capitalized(err error) string {
	s := err.Error()
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}

// foldWarnings warns, as scikit-learn's StratifiedKFold does, when the
// least populated class has fewer rows than there are folds, and when a
// test part has fewer rows than there are classes.
func (ck *checker) foldWarnings(d *Dataset, cvc *config.CV) {
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
		ck.warnf(rng, "Class smaller than the number of folds",
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
		ck.warnf(rng, "Fold smaller than the number of classes",
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
func (ck *checker) singleRowClasses(d *Dataset) {
	if d.MultiLabel || d.Config.TestPath != "" || len(d.Labels) < 2 {
		return
	}
	counts := make([]int, d.K())
	for _, y := range d.Labels {
		if counts[y]++; counts[y] > 1 {
			return
		}
	}
	ck.errorf(d.Config.DeclRange, "Every class has a single row",
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

// trainingClasses warns when the training part of a fold lacks a class
// of multiclass dataset d, every row of it being in that fold's test part
// (a folds file whose test folds each hold one class, say): the fold's
// models cannot predict the class, and its test rows of the class all
// count as errors (classes of one row aside). It names the first such fold
// and class, and how many more there are. Folds and repeats are numbered
// from 0, as in folds files and folds.csv.
func (ck *checker) trainingClasses(d *Dataset, cvc *config.CV) {
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
	case cvc.FoldsFile != "":
		rng = cvc.FoldsFileRange
	case cvc.FoldsRange.Filename != "":
		rng = cvc.FoldsRange
	}
	more := ""
	if n > 1 {
		more = fmt.Sprintf(" (and %d more fold/class pair(s) like it)", n-1)
	}
	ck.warnf(rng, "Class missing from a training part",
		"Dataset %q: %s%s: the fold's models cannot predict the class, and its test rows of it all count as errors.", c.Name, first, more)
}

// IterativeRange returns where cvc sets stratified, or the cv block's
// folds, or else the dataset block of c.
func IterativeRange(c *config.Dataset, cvc *config.CV) hcl.Range {
	for _, r := range []hcl.Range{cvc.StratifiedRange, cvc.FoldsRange} {
		if r.Filename != "" {
			return r
		}
	}
	return c.DeclRange
}

// iterativeHoldout warns when multi-label dataset d is split by the cv
// block's holdout under stratified = "iterative": the holdout of
// multi-label rows is a plain random split, not iteratively stratified.
func (ck *checker) iterativeHoldout(d *Dataset, cvc *config.CV) {
	c := d.Config
	if !d.MultiLabel || !cvc.Iterative || cvc.Holdout <= 0 || c.TestPath != "" || c.FoldsFile != "" || cvc.FoldsFile != "" {
		return
	}
	ck.warnf(IterativeRange(c, cvc), "Holdout not stratified",
		`Dataset %q: stratified = "iterative" stratifies the k-fold folds of multi-label data; its holdout = %v is a plain random split of the rows. Use folds (k-fold) for iterative stratification, or drop stratified.`,
		c.Name, cvc.Holdout)
}
