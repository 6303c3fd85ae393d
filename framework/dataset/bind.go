package dataset

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/data"
	"github.com/polyclass/polyclass/framework/encode"
)

// Bind binds dataset block c under the cv block cvc and the
// experiment's seed: it loads the dataset (its file, and its test file
// when it has one), checks its target, features and classes, assigns its
// rows to folds and checks what the folds leave each class. It returns
// the dataset (nil after an error) and the diagnostics.
func Bind(c *config.Dataset, cvc *config.CV, seed uint64) (*Dataset, hcl.Diagnostics) {
	var ck checker
	ds := ck.loadDataset(c, cvc, seed)
	if ds != nil {
		ck.foldWarnings(ds, cvc)
		ck.iterativeHoldout(ds, cvc)
		ck.trainingClasses(ds, cvc)
		ck.singleRowClasses(ds)
	}
	return ds, ck.diags
}

// loadDataset loads dataset c (its file, and its test file when it has one),
// checks its target, features and classes, and assigns its rows to folds
// (see Bind); it returns nil after reporting an error.
func (ck *checker) loadDataset(c *config.Dataset, cvc *config.CV, seed uint64) *Dataset {
	f, c := ck.readFiles(c)
	if f == nil {
		return nil
	}
	ds := &Dataset{Config: c, Table: f.Rows, SHA256: f.SHA256}
	train := f.Table.NumRows
	if f.Test != nil {
		ds.TestSHA256 = f.Test.SHA256
	}
	var ok bool
	if c.Target != "" {
		ok = ck.classTarget(ds, f)
	} else {
		ok = ck.labelTargets(ds, f)
	}
	if !ok || !ck.hasFeatures(ds) || !ck.testClassesTrained(ds, train) || !ck.folds(ds, train, cvc, seed) {
		return nil
	}
	if !ck.constantFeatures(ds) && f.Test == nil {
		ck.copiedRows(c, f.Files)
	}
	ck.rowNumbers(ds, c, train)
	return ds
}

// readFiles reads the files of dataset c with its options and its target
// in one call (data.LoadTarget), reporting what keeps the files from
// being read and the reader's warnings; it returns the files with the
// target as read (nil after an error) and the dataset's declaration as
// read (a multi-label ARFF without a target takes its labels from the
// file).
func (ck *checker) readFiles(c *config.Dataset) (*data.Bound, *config.Dataset) {
	opt := loadOptions(c)
	f, err := data.LoadTarget(c.Path, c.TestPath, opt, targetOf(c))
	if f == nil && c.TargetDefaulted && errors.Is(err, data.ErrUnknownColumn) {
		// No "class" column: perhaps a multi-label ARFF naming its labels.
		opt.Categorical = c.Categorical
		if f2, err2 := data.LoadTarget(c.Path, c.TestPath, opt, data.Target{}); f2 != nil && len(f2.Table.Labels) > 0 {
			f, err = f2, err2
			cc := *c
			cc.Target, cc.Labels = "", f2.Table.Labels
			c = &cc
		}
	}
	if uc := (*data.UnknownColumnsError)(nil); f == nil && errors.As(err, &uc) {
		ck.unknownColumns(c, uc)
		return nil, c
	}
	if f != nil {
		ck.readWarnings(c.Name, c.PathRange, f.Table)
	}
	if te := (*data.TestError)(nil); errors.As(err, &te) {
		ck.testError(c, f.Test, te.Err)
		return nil, c
	}
	if err != nil { // the training file, or its digest
		ck.errorf(c.PathRange, "Cannot load dataset", "Dataset %q: %v%s", c.Name, err, unexpandedGlob(c.Path, err))
		return nil, c
	}
	if f.Test != nil {
		ck.readWarnings(c.Name, c.TestPathRange, f.Test.Table)
		ck.copiedTestRows(c, f.Test)
	}
	return f, c
}

// copiedRows warns at the path attribute of dataset c, which has no test
// file and is split into folds, when more than half of the rows of its
// file (f.Table) equal another of its rows in every column, the class
// included (f.Copies, counted as the file was read): a fold split puts copies of one row on both of its
// sides, so every model is scored in part on rows it was fitted on. A
// file appended to itself, or rows oversampled before cross-validation,
// has all or most of its rows such. The shipped data sets have at most
// 19.3 % (segment: 446 of 2310 rows; splice 9.7 %, letter's training
// file 9.2 %, dna's 8.0 %, iris 1.3 %, shuttle none). It is not called
// for a dataset without features or whose features are all constant,
// whose rows are copies for that reason, which its own diagnostic says.
func (ck *checker) copiedRows(c *config.Dataset, f *data.Files) {
	t, n := f.Table, f.Table.NumRows
	copies, first, of := f.Copies, f.FirstCopy, f.CopyOf
	if 2*copies <= n {
		return
	}
	name := "" // the column the rows are located at: the first
	if len(t.Columns) > 0 {
		name = t.Columns[0].Name
	}
	ck.warnf(c.PathRange, "Rows copy other rows",
		"Dataset %q: %d of the %d rows of %s (%.1f %%) equal another of its rows in every column, the class included, e.g. %s row %d equals %s row %d: a fold split puts copies of a row on both its training and its test side, so every model is scored in part on rows it was fitted on, and the scores come out inflated. Remove the copies (a file appended to itself, or rows oversampled before cross-validation), unless the data has so few distinct rows that they are real.",
		c.Name, copies, n, c.Path, 100*float64(copies)/float64(n),
		placeOf(c, c.Path, first, name), first+1, placeOf(c, c.Path, of, name), of+1)
}

// copiedTestRows warns at the test_path attribute of dataset c when more
// than half of the rows of its test file tf equal a row of its training
// file in every column (tf.Copies): the scores on them measure what the
// models remember of their training rows. The shipped test files hold at
// most 9.2 % such rows (letter: 458 of 5000; dna 82 of 1186, adult 23 of
// 16281, satimage and shuttle none); a test file cut from a copy of the
// training file, or a split that kept the training rows, holds far more.
func (ck *checker) copiedTestRows(c *config.Dataset, tf *data.TestFile) {
	m := tf.Table.NumRows
	if 2*tf.Copies <= m {
		return
	}
	name := "" // the column the rows are located at: the first
	if len(tf.Table.Columns) > 0 {
		name = tf.Table.Columns[0].Name
	}
	ck.warnf(c.TestPathRange, "Test rows copy training rows",
		"Dataset %q: %d of the %d rows of the test file %s (%.1f %%) equal a row of the training file %s in every column, e.g. %s test row %d equals %s training row %d: every model would be scored mostly on rows it was fitted on. Remove them from one of the files, unless the data has so few distinct rows that a fair split repeats them.",
		c.Name, tf.Copies, m, c.TestPath, 100*float64(tf.Copies)/float64(m), c.Path,
		placeOf(c, c.TestPath, tf.FirstCopy, name), tf.FirstCopy+1, placeOf(c, c.Path, tf.CopyOf, name), tf.CopyOf+1)
}

// targetOf returns the target of dataset c that data.LoadTarget reads.
func targetOf(c *config.Dataset) data.Target {
	return data.Target{Class: c.Target, Labels: c.Labels, LabelsPrefix: c.LabelsPrefix}
}

// classTarget takes the class column of multiclass dataset ds as read
// with its files (f: data.Table.ClassTarget, its error, the positions of
// the rows its messages name), and reports what keeps it from being one.
func (ck *checker) classTarget(ds *Dataset, f *data.Bound) bool {
	c, t := ds.Config, ds.Table
	target, err := f.Class, f.ClassErr
	ck.classPlaces, ck.testPlaces, ck.trainRows = f.ClassPlaces, f.TestPlaces, f.Table.NumRows
	if errors.Is(err, data.ErrUnknownColumn) {
		// A guard: the target is among the categorical names that
		// data.Load checks (loadOptions), and unknownColumns reported it.
		ck.unknownTarget(c, "", t.ColumnNames(), "")
		return false
	}
	if !ck.canonicalClasses(ds, target, err) {
		return false
	}
	ds.Classes = target.Classes
	if len(target.Absent) > 0 {
		ck.warnf(targetRange(c), "Declared class with no rows", "Dataset %q: the target column %q declares %d class(es) no row holds (%s): left out of the classes, as scikit-learn's LabelEncoder, fitted on the rows, leaves them.",
			c.Name, c.Target, len(target.Absent), listed{names: target.Absent, excerpts: true})
	}
	if i := target.Missing; i >= 0 {
		if v := target.Marker; v != "" {
			ck.errorf(c.PathRange, "Missing marker is a class", "Dataset %q: %s holds %q in the target column %q, a class value, which the dataset's missing = %q makes a missing value: a class cannot be missing. Remove %q from missing (it applies to every column), or rename the class.",
				c.Name, ck.classRow(ds, i), v, c.Target, c.Missing, v)
			return false
		}
		ck.errorf(c.PathRange, "Missing class", "Dataset %q: %s has no value in the target column %q.", c.Name, ck.classRow(ds, i), c.Target)
		return false
	}
	ds.Labels = target.Labels
	if len(ds.Classes) < 2 {
		ck.errorf(targetRange(c), "Too few classes", "Dataset %q: the target column %q has %d class(es) [%s] in its %d rows; at least 2 are needed.", c.Name, c.Target, len(ds.Classes), listed{names: ds.Classes, excerpts: true}, t.NumRows)
		return false
	}
	ds.Features = encode.NewFrame(t, map[string]bool{c.Target: true})
	return true
}

// labelTargets takes the 0/1 label columns of multi-label dataset ds as
// read with its files (f), named by labels or by labels_prefix (in file
// order), and reports what keeps them from being its labels.
func (ck *checker) labelTargets(ds *Dataset, f *data.Bound) bool {
	c, t := ds.Config, ds.Table
	names := f.LabelNames
	if c.LabelsPrefix != "" {
		if len(names) == 0 {
			ck.errorf(c.DeclRange, "No label columns", "Dataset %q has no column starting with %q; its columns are: %s.", c.Name, c.LabelsPrefix, listed{names: t.ColumnNames()})
			return false
		}
	}
	if len(names) < 2 {
		ck.errorf(c.DeclRange, "Too few labels", "Dataset %q declares %d label column(s); multi-label data needs at least 2.", c.Name, len(names))
		return false
	}
	ds.MultiLabel = true
	ds.LabelMatrix = mat.NewDense(t.NumRows, len(names), nil)
	exclude := map[string]bool{}
	for k, name := range names {
		if k == len(f.LabelValues) {
			ck.labelColumnError(ds, f.LabelErr)
			return false
		}
		vals := f.LabelValues[k]
		exclude[name] = true
		ds.Classes = append(ds.Classes, name)
		set := 0
		for i, v := range vals {
			ds.LabelMatrix.Set(i, k, v)
			set += int(v)
		}
		if set == 0 || set == t.NumRows {
			ck.warnf(c.PathRange, "Constant label column", "Dataset %q: label column %q is %d on each of its %d rows, so it carries no information: no fold can train a classifier on it, and its scores say nothing. Drop it from labels.", c.Name, name, min(set, 1), t.NumRows)
		}
	}
	ck.summaryRowNames(ds, ds.Classes)
	ds.Features = encode.NewFrame(t, exclude)
	return true
}

// labelColumnError reports err, a *data.LabelColumnError of a label
// column of multi-label dataset ds: a value at its row in the file, a
// column's name at the dataset block.
func (ck *checker) labelColumnError(ds *Dataset, err error) {
	c := ds.Config
	le := (*data.LabelColumnError)(nil)
	switch {
	case errors.Is(err, data.ErrUnknownColumn):
		ck.errorf(c.DeclRange, "Unknown column", "Dataset %q has %v.", c.Name, err)
	case errors.As(err, &le) && errors.Is(err, data.ErrLabelValue):
		ck.errorf(c.PathRange, "Invalid label value", "Dataset %q: %s data row %d: %v.", c.Name, ds.Locate(le.Row, le.Name), le.Row+1, err)
	default:
		ck.errorf(c.DeclRange, "Invalid label name", "Dataset %q: %v.", c.Name, err)
	}
}

// testError reports err, the failure of dataset c's test file
// (data.ReadTest's), at the test_path attribute, after the reader's
// warnings about the test file tf when it was read (nil: not).
func (ck *checker) testError(c *config.Dataset, tf *data.TestFile, err error) {
	if errors.Is(err, data.ErrTestCopiesTrain) {
		ck.errorf(c.TestPathRange, "Test file copies the training file",
			"Dataset %q: test_path names %s, whose %d rows are those of the training file %s, row for row (a copy of it, perhaps compressed or written another way), so every model would be scored on the rows it was fitted on. Name a file of other rows.",
			c.Name, c.TestPath, tf.Table.NumRows, c.Path)
		return
	}
	if errors.Is(err, data.ErrTestIsTrain) {
		ck.errorf(c.TestPathRange, "Test file is the training file",
			"Dataset %q: test_path names the training file %s itself, so every model would be scored on the rows it was fitted on. Name a file of other rows.", c.Name, c.Path)
		return
	}
	if tf != nil {
		ck.readWarnings(c.Name, c.TestPathRange, tf.Table)
	}
	if fit := (*data.TestFitError)(nil); errors.As(err, &fit) {
		ck.errorf(c.TestPathRange, "Test file does not fit the training file", "Dataset %q: %v", c.Name, err)
		return
	}
	ck.errorf(c.TestPathRange, "Cannot load test file", "Dataset %q: %v%s", c.Name, err, unexpandedGlob(c.TestPath, err))
}

// unexpandedGlob returns, when err says that no file is at path and path
// holds a wildcard of a shell's (*, ? or [), the words that say bench does
// not expand it; else "". A file of that very name is read as any: the
// words come only when there is none.
func unexpandedGlob(path string, err error) string {
	if !errors.Is(err, fs.ErrNotExist) || !strings.ContainsAny(filepath.Base(path), "*?[") {
		return ""
	}
	return " (bench does not expand the wildcards *, ? and [...] as a shell does: a path names one file; declare a dataset per file, or join the files into one)"
}
