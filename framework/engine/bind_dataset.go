package engine

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/data"
	"github.com/polyclass/polyclass/framework/encode"
	"github.com/polyclass/polyclass/framework/safetext"
)

// dataset loads dataset c (its file, and its test file when it has one),
// checks its target, features and classes, and assigns its rows to folds;
// it returns nil after reporting an error.
func (r *resolver) dataset(c *config.Dataset) *Dataset {
	t, c, opt := r.readDataset(c)
	if t == nil {
		return nil
	}
	sum, err := data.FileSHA256(c.Path)
	if err != nil {
		r.errorf(c.PathRange, "Cannot load dataset", "Dataset %q: %v", c.Name, err)
		return nil
	}
	ds := &Dataset{Config: c, Table: t, SHA256: sum}
	train := t.NumRows
	if c.TestPath != "" {
		if ds.Table, ds.TestSHA256 = r.testFile(c, t, opt); ds.Table == nil {
			return nil
		}
	}
	var ok bool
	if c.Target != "" {
		ok = r.classTarget(ds)
	} else {
		ok = r.labelTargets(ds)
	}
	if !ok || !r.hasFeatures(ds) || !r.testClassesTrained(ds, train) || !r.folds(ds, train) {
		return nil
	}
	r.constantFeatures(ds)
	return ds
}

// readDataset reads the file of dataset c with its options, reporting
// what keeps it from being read; it returns the table (nil after an
// error), the dataset's declaration as read (a multi-label ARFF without a
// target takes its labels from the file) and the options.
func (r *resolver) readDataset(c *config.Dataset) (*data.Table, *config.Dataset, data.Options) {
	opt := loadOptions(c)
	t, err := data.Read(c.Path, opt)
	if c.TargetDefaulted && errors.Is(err, data.ErrUnknownColumn) {
		// No "class" column: perhaps a multi-label ARFF naming its labels.
		opt.Categorical = c.Categorical
		if t2, err2 := data.Read(c.Path, opt); err2 == nil && len(t2.Labels) > 0 {
			t, err = t2, nil
			cc := *c
			cc.Target, cc.Labels = "", t2.Labels
			c = &cc
		}
	}
	if uc := (*data.UnknownColumnsError)(nil); errors.As(err, &uc) {
		r.unknownColumns(c, uc)
		return nil, c, opt
	}
	if err != nil {
		r.errorf(c.PathRange, "Cannot load dataset", "Dataset %q: %v", c.Name, err)
		return nil, c, opt
	}
	r.readWarnings(c.Name, c.PathRange, t)
	return t, c, opt
}

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
	test, train := cv.HoldoutSizes(n, frac)
	if test >= need && train >= need {
		return true
	}
	fit := "no fraction fits: the dataset has too few rows for a holdout; use k-fold cross-validation"
	if n >= 2*need {
		fit = fmt.Sprintf("use a fraction above %d/%d (%.4g) and at most %d/%d (%.4g)",
			need-1, n, float64(need-1)/float64(n), n-need, n, float64(n-need)/float64(n))
	}
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

// classTarget reads the class column of a multiclass dataset.
func (r *resolver) classTarget(ds *Dataset) bool {
	c, t := ds.Config, ds.Table
	target, ok := t.Lookup(c.Target)
	if !ok {
		r.unknownTarget(c, columnNames(t))
		return false
	}
	if !r.canonicalClasses(ds, target) {
		return false
	}
	// Classes in sorted order, as scikit-learn's LabelEncoder.
	order := make([]int, len(target.Levels))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return target.Levels[order[a]] < target.Levels[order[b]] })
	index := make([]int, len(target.Levels))
	for k, code := range order {
		ds.Classes = append(ds.Classes, target.Levels[code])
		index[code] = k
	}
	ds.Labels = make([]int, t.NumRows)
	for i, code := range target.Codes {
		if code < 0 {
			r.errorf(c.PathRange, "Missing class", "Dataset %q: %s data row %d has no value in the target column %q.", c.Name, r.locate(ds, i, c.Target), i+1, c.Target)
			return false
		}
		ds.Labels[i] = index[code]
	}
	if len(ds.Classes) < 2 {
		r.errorf(targetRange(c), "Too few classes", "Dataset %q: the target column %q has %d class(es) %q in its %d rows; at least 2 are needed.", c.Name, c.Target, len(ds.Classes), ds.Classes, t.NumRows)
		return false
	}
	ds.Features = encode.NewFrame(t, map[string]bool{c.Target: true})
	return true
}

// labelTargets reads the 0/1 label columns of a multi-label dataset, named
// by labels or by labels_prefix (in file order).
func (r *resolver) labelTargets(ds *Dataset) bool {
	c, t := ds.Config, ds.Table
	names := c.Labels
	if c.LabelsPrefix != "" {
		for _, col := range t.Columns {
			if strings.HasPrefix(col.Name, c.LabelsPrefix) {
				names = append(names, col.Name)
			}
		}
		if len(names) == 0 {
			r.errorf(c.DeclRange, "No label columns", "Dataset %q has no column starting with %q; its columns are: %s.", c.Name, c.LabelsPrefix, strings.Join(columnNames(t), ", "))
			return false
		}
	}
	if len(names) < 2 {
		r.errorf(c.DeclRange, "Too few labels", "Dataset %q declares %d label column(s); multi-label data needs at least 2.", c.Name, len(names))
		return false
	}
	ds.MultiLabel = true
	ds.LabelMatrix = mat.NewDense(t.NumRows, len(names), nil)
	exclude := map[string]bool{}
	for k, name := range names {
		col, ok := t.Lookup(name)
		if !ok {
			r.errorf(c.DeclRange, "Unknown column", "Dataset %q has no label column %q; its columns are: %s.", c.Name, name, strings.Join(columnNames(t), ", "))
			return false
		}
		if strings.IndexFunc(name, unicode.IsControl) >= 0 {
			r.errorf(c.DeclRange, "Invalid label name", "Dataset %q: label column %q holds a control character; tables, plots and file names cannot show it: rename the column.", c.Name, name)
			return false
		}
		if i := strings.IndexFunc(name, safetext.Hidden); i >= 0 {
			r.errorf(c.DeclRange, "Invalid label name", "Dataset %q: label column %q holds a bidi control or zero-width character (U+%04X); it would show as another name than the file holds: rename the column.", c.Name, name, []rune(name[i:])[0])
			return false
		}
		exclude[name] = true
		ds.Classes = append(ds.Classes, name)
		set := 0
		for i := 0; i < t.NumRows; i++ {
			v, text := labelValue(col, i)
			if v != 0 && v != 1 {
				r.errorf(c.PathRange, "Invalid label value", "Dataset %q: %s data row %d: label column %q holds %s; a label column must hold 0 or 1 (or true or false).", c.Name, r.locate(ds, i, name), i+1, name, text)
				return false
			}
			ds.LabelMatrix.Set(i, k, v)
			set += int(v)
		}
		if set == 0 || set == t.NumRows {
			r.warnf(c.PathRange, "Constant label column", "Dataset %q: label column %q is %d on each of its %d rows, so it carries no information: no fold can train a classifier on it, and its scores say nothing. Drop it from labels.", c.Name, name, min(set, 1), t.NumRows)
		}
	}
	ds.Features = encode.NewFrame(t, exclude)
	return true
}

// labelValue returns the value of row i of label column col: 1 for 1
// (1.0, ...) and true, 0 for 0 and false, in any case; NaN otherwise,
// with text, the value as the file holds it, for an error message.
func labelValue(col *data.Column, i int) (float64, string) {
	if col.Kind == data.Numeric {
		v := col.Num[i]
		if v != v {
			return v, "no value"
		}
		return v, strconv.FormatFloat(v, 'g', -1, 64)
	}
	code := col.Codes[i]
	if code < 0 {
		return math.NaN(), "no value"
	}
	s := col.Levels[code]
	switch t := strings.TrimSpace(s); {
	case strings.EqualFold(t, "true"):
		return 1, s
	case strings.EqualFold(t, "false"):
		return 0, s
	}
	if v, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil && (v == 0 || v == 1) {
		return v, s
	}
	return math.NaN(), strconv.Quote(s)
}

func columnNames(t *data.Table) []string {
	var names []string
	for _, col := range t.Columns {
		names = append(names, col.Name)
	}
	return names
}

// testFile reads dataset c's test file with the options of its training
// file and returns the training rows followed by the test rows, with the
// test file's SHA-256.
func (r *resolver) testFile(c *config.Dataset, train *data.Table, opt data.Options) (*data.Table, string) {
	if sameFile(c.Path, c.TestPath) {
		r.errorf(c.TestPathRange, "Test file is the training file",
			"Dataset %q: test_path names the training file %s itself, so every model would be scored on the rows it was fitted on. Name a file of other rows.", c.Name, c.Path)
		return nil, ""
	}
	test, err := data.Read(c.TestPath, opt)
	if err != nil {
		r.errorf(c.TestPathRange, "Cannot load test file", "Dataset %q: %v", c.Name, err)
		return nil, ""
	}
	r.readWarnings(c.Name, c.TestPathRange, test)
	sum, err := data.FileSHA256(c.TestPath)
	if err != nil {
		r.errorf(c.TestPathRange, "Cannot load test file", "Dataset %q: %v", c.Name, err)
		return nil, ""
	}
	both, err := data.Append(train, test)
	if err != nil {
		r.errorf(c.TestPathRange, "Test file does not fit the training file", "Dataset %q: %v", c.Name, err)
		return nil, ""
	}
	return both, sum
}
