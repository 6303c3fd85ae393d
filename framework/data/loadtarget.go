package data

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/polyclass/polyclass/framework/safetext"
)

// Target names the target a dataset binder reads with its files
// (LoadTarget): Class, the class column of a multiclass dataset, or else
// the 0/1 label columns of a multi-label one: Labels, then each column
// whose name starts with LabelsPrefix (when not ""), in file order. With
// none of the three, the label columns are those a multi-label ARFF file
// declares (Table.Labels).
type Target struct {
	Class        string
	Labels       []string
	LabelsPrefix string
}

// Bound are a dataset's files (Load's) with its target read from the rows
// the dataset holds (Rows: the training file's table, or with a test file
// the training rows followed by the test rows, TestFile.Both).
type Bound struct {
	*Files
	Rows *Table
	// Class is the class column of a multiclass dataset
	// (Table.ClassTarget), ClassErr what kept it from being read.
	Class    *ClassTarget
	ClassErr error
	// ClassPlaces are the positions in the training file (LocateRows) of
	// the class values of the rows that Class and ClassErr name (the
	// first row of each spelling, of a label in error, the first row
	// with no value) that are rows of it, by row.
	ClassPlaces map[int]Position
	// TestPlaces are, with a test file, the positions in it of the class
	// values of those rows that are its rows (the rows of Rows from
	// Files.Table.NumRows on, by row of the test file from 0) and of its
	// first row whose class no training row has.
	TestPlaces map[int]Position
	// LabelNames are the label columns of a multi-label dataset (see
	// Target), LabelValues the values of each (Table.LabelColumn) up to
	// the first that could not be read, LabelErr its error.
	LabelNames  []string
	LabelValues [][]float64
	LabelErr    error
}

// LoadTarget reads a dataset's files in one call (Load) and then its
// target (see Target) from the rows it holds. Its result is nil when Load
// returns no files; its error is Load's.
func LoadTarget(path, testPath string, opt Options, target Target) (*Bound, error) {
	f, err := Load(path, testPath, opt)
	if f == nil {
		return nil, err
	}
	b := &Bound{Files: f, Rows: f.Table}
	if f.Test != nil {
		b.Rows = f.Test.Both
	}
	if err != nil {
		return b, err
	}
	f.Table.Warnings = append(f.Table.Warnings, levelSpellings(b.Rows, f.Table.NumRows, path, testPath, opt, target.Class)...)
	if target.Class != "" {
		if w := headerAsData(f.Table, target.Class); w != nil {
			f.Table.Warnings = append(f.Table.Warnings, w)
		}
		b.Class, b.ClassErr = b.Rows.ClassTarget(target.Class)
		rows := classRows(b.Class, b.ClassErr)
		if testPath == "" {
			b.ClassPlaces = LocateRows(path, opt, rows, target.Class)
			return b, nil
		}
		// Rows of the test file, from f.Table.NumRows on, are located
		// in it.
		n := f.Table.NumRows
		var train, test []int
		for _, r := range rows {
			if r < n {
				train = append(train, r)
			} else {
				test = append(test, r-n)
			}
		}
		if b.Class != nil {
			test = append(test, untrainedRows(b.Class.Labels, n)...)
		}
		b.ClassPlaces = LocateRows(path, opt, train, target.Class)
		b.TestPlaces = LocateRows(testPath, opt, test, target.Class)
		return b, nil
	}
	b.LabelNames = labelNames(b.Rows, target)
	for _, name := range b.LabelNames {
		vals, err := b.Rows.LabelColumn(name)
		if err != nil {
			b.LabelErr = err
			break
		}
		b.LabelValues = append(b.LabelValues, vals)
	}
	return b, nil
}

// labelNames returns the label columns of a multi-label dataset of rows
// t that target names (see Target).
func labelNames(t *Table, target Target) []string {
	if len(target.Labels) == 0 && target.LabelsPrefix == "" {
		return t.Labels
	}
	names := slices.Clone(target.Labels)
	if target.LabelsPrefix != "" {
		for _, col := range t.Columns {
			if strings.HasPrefix(col.Name, target.LabelsPrefix) {
				names = append(names, col.Name)
			}
		}
	}
	return names
}

// classRows returns the rows that class target ct, or err, its error,
// names: the row of a label in error, the first row of each spelling
// reported, the first row with no value.
func classRows(ct *ClassTarget, err error) []int {
	var rows []int
	spellings := func(groups []ClassMerge) {
		for _, g := range groups {
			for _, s := range g.Spellings {
				rows = append(rows, s.Row)
			}
		}
	}
	if le := (*LabelError)(nil); errors.As(err, &le) {
		rows = append(rows, le.Row)
	}
	if se := (*SpellingError)(nil); errors.As(err, &se) {
		spellings(se.Groups)
	}
	if ct != nil {
		spellings(ct.Names.Merged)
		spellings(ct.Names.Apart)
		spellings(ct.Names.Confusable)
		spellings(ct.Names.CaseVariants)
		if ct.Names.Apart != nil {
			rows = append(rows, ct.Names.Text.Row)
		}
		rows = append(rows, ct.Missing)
	}
	return slices.DeleteFunc(rows, func(r int) bool { return r < 0 })
}

// untrainedRows returns the first row of a test file (0-based in it)
// whose class no training row has, labels being the class of each
// training row (the first train) and then of each test row; none when
// every test class has training rows.
func untrainedRows(labels []int, train int) []int {
	trained := map[int]bool{}
	for _, y := range labels[:train] {
		trained[y] = true
	}
	for i := train; i < len(labels); i++ {
		if y := labels[i]; y >= 0 && !trained[y] {
			return []int{i - train}
		}
	}
	return nil
}

// headerAsData returns the warning (ErrHeaderData) of table t, a CSV or
// TSV file read with class column class, when its header row looks like
// data, at the header line, else nil: every other column name is a
// number (one at least) and class is a value of the class column. A file
// without a header line (as UCI ships its data) loses its first row to
// the header so, and its target can only be named after a value of that
// row. Numbered columns under a named target ("400,401.5,class":
// wavelengths) are a header.
func headerAsData(t *Table, class string) *ParseError {
	col, ok := t.Lookup(class)
	if t.HeaderLine == 0 || !ok || len(t.Columns) < 2 || !slices.ContainsFunc(col.Levels, func(l string) bool { return strings.TrimSpace(l) == strings.TrimSpace(class) }) {
		return nil
	}
	var names []string
	for _, c := range t.Columns {
		if c.Name == class {
			continue
		}
		if _, kind := parseNum(c.Name); kind != numFinite {
			return nil
		}
		names = append(names, c.Name)
	}
	return &ParseError{Source: t.Source, Line: t.HeaderLine, Err: fmt.Errorf("%w: every column name but the target's is a number (%s), and the target's name %s is a value of the target column, so the first row is likely a data row, yet it is read as the header, its values as column names: if the file has no header line, add one (the column names) before its first row",
		ErrHeaderData, safetext.Few(names, safetext.Listed, nil), safetext.Excerpt(class))}
}
