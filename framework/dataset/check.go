package dataset

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/data"
	"github.com/polyclass/polyclass/framework/metrics"
	"github.com/polyclass/polyclass/framework/safetext"
	"github.com/polyclass/polyclass/framework/sparse"
)

// targetRange returns where dataset c's target is set, or the dataset
// block when the target is the default "class".
func targetRange(c *config.Dataset) hcl.Range {
	if c.TargetRange.Filename != "" {
		return c.TargetRange
	}
	return c.DeclRange
}

// unknownTarget reports that dataset c has no column named by its target,
// at the target attribute (or the dataset block when target is
// defaulted); hint names the columns (columns) it may mean. For a file
// the reader read as LIBSVM (format, data.UnknownColumnsError's), whose
// features are numbered rather than named and are not among columns, it
// says so, and which column holds the class.
func (ck *checker) unknownTarget(c *config.Dataset, hint string, columns []string, format string) {
	libsvm := ""
	if format == "libsvm" {
		libsvm = ` In a LIBSVM file the labels (the first field of each line) are the column "label" ("label_L" for each label L of a multi-label file) and the features are numbered (1:, 2:, ...), not named columns.`
		if slices.Equal(columns, []string{"label"}) {
			libsvm += ` Set target = "label".`
		}
	}
	if c.TargetDefaulted {
		ck.errorf(targetRange(c), "Unknown column",
			"Dataset %q has no column %q, the default target%s; set target = \"COLUMN\" in the dataset block. Its columns are: %s.%s",
			c.Name, c.Target, hint, listed{names: columns}, libsvm)
		return
	}
	ck.errorf(targetRange(c), "Unknown column", "Dataset %q has no column %q%s; its columns are: %s.%s", c.Name, c.Target, hint, listed{names: columns}, libsvm)
}

// unknownColumns reports the columns that dataset c names and its file
// lacks (e, with the columns each may mean): the target at the target
// (unknownTarget), each name of its categorical, numeric and ignore
// lists at its list. The target is among the categorical names bench
// reads (loadOptions); a defaulted one is left out for an ARFF file,
// which may be a multi-label one without a "class" column (the other
// names kept it from being read as one).
func (ck *checker) unknownColumns(c *config.Dataset, e *data.UnknownColumnsError) {
	for _, u := range e.Unknown {
		attr, rng := "categorical", c.CategoricalRange
		switch {
		case u.List == data.CategoricalList && u.Name == c.Target && !slices.Contains(c.Categorical, c.Target):
			if !c.TargetDefaulted || e.Format != "arff" {
				ck.unknownTarget(c, u.Hint, e.Columns, e.Format)
			}
			continue
		case u.List == data.NumericList:
			attr, rng = "numeric", c.NumericRange
		case u.List == data.IgnoreList:
			attr, rng = "ignore", c.IgnoreRange
		}
		ck.errorf(rng, "Unknown column", "Dataset %q: %s names %q, not a column of %s%s; its columns are: %s.",
			c.Name, attr, u.Name, c.Path, u.Hint, listed{names: e.Columns})
	}
}

// loadOptions returns the data options of dataset c, as the dataset is
// loaded (the target read as categorical).
func loadOptions(c *config.Dataset) data.Options {
	opt := data.Options{Categorical: c.Categorical, Numeric: c.Numeric, Ignore: c.Ignore, Missing: c.Missing}
	if c.Delimiter != "" {
		opt.Delimiter = []rune(c.Delimiter)[0]
	}
	if c.Target != "" {
		// Class values are names, even when they look like numbers.
		opt.Categorical = append(append([]string(nil), opt.Categorical...), c.Target)
	}
	return opt
}

// hasFeatures reports whether dataset d keeps a feature column once its
// target (or labels) and its ignore list are set aside, and reports the
// dataset, at its ignore list when it has one, when it keeps none: every
// fold would fail with "the pipeline leaves no features".
func (ck *checker) hasFeatures(d *Dataset) bool {
	f := d.Features
	if len(f.Num)+len(f.Cat)+len(f.Sparse) > 0 {
		return true
	}
	c := d.Config
	what := "the target"
	if c.Target == "" {
		what = "the label columns"
	}
	rng, why := c.PathRange, "the file holds no column besides "+what
	if len(c.Ignore) > 0 {
		rng, why = c.IgnoreRange, "ignore lists every column but "+what
	}
	ck.errorf(rng, "No feature columns", "Dataset %q: %s, so there is nothing to learn from and every fold would fail.", c.Name, why)
	return false
}

// RowInFile returns the 0-based row of table row i in its file: the test
// file's rows follow the training file's.
func (d *Dataset) RowInFile(i int) int {
	if n := trainRows(d); d.Config.TestPath != "" && i >= n {
		return i - n
	}
	return i
}

// trainRows returns the number of rows that come from the dataset's path
// (all rows until the folds are made).
func trainRows(d *Dataset) int {
	if d.Config.TestPath == "" || len(d.Folds) == 0 {
		return d.Table.NumRows
	}
	n := 0
	for _, f := range d.Folds[0] {
		if f == 1 {
			n++
		}
	}
	return n
}

// Locate names the file, line and byte column of table row i in column
// name, as "file:line:col:", or "file:" when the format has no positions
// ("" while the rows of a training and a test file are not told apart,
// before the folds are made).
func (d *Dataset) Locate(i int, name string) string {
	path := d.Config.Path
	if d.Config.TestPath != "" && len(d.Folds) == 0 {
		return "" // the rows of the two files are not told apart yet
	}
	if d.Config.TestPath != "" && i >= trainRows(d) {
		path = d.Config.TestPath
	}
	return placeOf(d.Config, path, d.RowInFile(i), name)
}

// classRow names row i of dataset d while its target is checked (with a
// test file, the training file's rows then the test file's) by the file,
// line and byte column of its class value and its row in that file:
// "train.csv:2:1: data row 1", "test.csv:3:1: test row 2" (from the
// positions its files were read with, ck.classPlaces and ck.testPlaces).
func (ck *checker) classRow(d *Dataset, i int) string {
	if d.Config.TestPath != "" && i >= ck.trainRows {
		r := i - ck.trainRows
		return fmt.Sprintf("%s test row %d", place(d.Config.TestPath, ck.testPlaces[r]), r+1)
	}
	return fmt.Sprintf("%s data row %d", place(d.Config.Path, ck.classPlaces[i]), i+1)
}

// placeOf names the line and byte column of 0-based row in column name
// of path, a file of dataset c, as "file:line:col:", or "file:" when the
// format has no positions.
func placeOf(c *config.Dataset, path string, row int, name string) string {
	return place(path, data.Locate(path, loadOptions(c), row, name))
}

// place names position pos of path as "file:line:col:", or "file:" when
// pos is unknown (zero).
func place(path string, pos data.Position) string {
	if pos.Line == 0 {
		return path + ":"
	}
	return fmt.Sprintf("%s:%d:%d:", path, pos.Line, pos.Byte)
}

// testClassesTrained reports whether every class of the test file of
// multiclass dataset d (its rows from train on) has rows in its training
// file (its first train rows), and reports the first class that has none
// at the test_path attribute, with the test row that holds it: no model
// could learn that class, and its test rows would all count as errors.
func (ck *checker) testClassesTrained(d *Dataset, train int) bool {
	c := d.Config
	if c.TestPath == "" || d.MultiLabel {
		return true
	}
	trained := make([]bool, d.K())
	for _, y := range d.Labels[:train] {
		trained[y] = true
	}
	for i := train; i < len(d.Labels); i++ {
		if y := d.Labels[i]; !trained[y] {
			row := i - train
			ck.errorf(c.TestPathRange, "Class missing from the training file",
				"Dataset %q: %s test row %d has class %s, which no row of the training file %s has: no model can learn it, and every test row of it would count as an error. Add rows of it to the training file, or remove them from the test file.",
				c.Name, place(c.TestPath, ck.testPlaces[row]), row+1, excerpt(d.Classes[y]), c.Path)
			return false
		}
	}
	return true
}

// readWarnings turns the reader's warnings about a file of dataset name
// (data.Table.Warnings, each naming its line and column in the file) into
// warnings at rng, the file's attribute.
//
// The first maxReadWarnings warnings of a kind are given one by one, the
// rest in one more warning that counts them and names their columns
// (safetext.Few): a file of 3,000 such columns gave 3,000 warnings, 1.4 MB
// of text.
func (ck *checker) readWarnings(name string, rng hcl.Range, t *data.Table) {
	shown := map[string]int{}
	rest := map[string][]*data.ParseError{}
	var order []string // the summaries of rest, in first-seen order
	for _, w := range t.Warnings {
		summary := "Suspicious data"
		switch {
		case errors.Is(w, data.ErrMixedColumn):
			summary = "Column of numbers read as categorical"
		case errors.Is(w, data.ErrNumberSpellings):
			summary = "Labels compared as numbers"
		case errors.Is(w, data.ErrHeaderData):
			summary = "Header row looks like data"
		case errors.Is(w, data.ErrLevelSpellings):
			summary = "Values spelled as one"
		}
		if shown[summary] < maxReadWarnings {
			shown[summary]++
			ck.warnf(rng, summary, "Dataset %q: %v", name, w)
			continue
		}
		if rest[summary] == nil {
			order = append(order, summary)
		}
		rest[summary] = append(rest[summary], w)
	}
	for _, summary := range order {
		ws := rest[summary]
		var cols []string
		for _, w := range ws {
			if w.Column != "" {
				cols = append(cols, w.Column)
			}
		}
		what := "warning"
		if len(cols) == len(ws) {
			what = "column"
		}
		if len(ws) > 1 {
			what += "s"
		}
		detail := fmt.Sprintf("Dataset %q: %s: and %d more %s like the %d above", name, ws[0].Source, len(ws), what, maxReadWarnings)
		if len(cols) == len(ws) {
			detail += ": " + safetext.Few(cols, safetext.Listed, safetext.Show)
		}
		ck.warnf(rng, summary, "%s.", detail)
	}
}

// maxReadWarnings is how many warnings of one kind readWarnings gives
// about a file one by one.
const maxReadWarnings = 20

// maxSpellings bounds the spellings a warning about class names lists.
const maxSpellings = 12

// canonicalClasses reports err, the failure of data.Table.ClassTarget to
// make the levels of dataset d's target canonical: a class label holding
// a control character, or labels spelled as one (false); else it warns
// when spellings of one number were merged into one class, or were kept
// apart because the column holds text too, and of confusable labels.
func (ck *checker) canonicalClasses(d *Dataset, target *data.ClassTarget, err error) bool {
	c := d.Config
	if le := (*data.LabelError)(nil); errors.As(err, &le) {
		at := "a declared value of"
		if le.Row >= 0 {
			at = ck.classRow(d, le.Row) + ","
		}
		why := "tables, plots and file names cannot show it"
		if errors.Is(err, data.ErrHiddenLabel) {
			why = "it does not show, or changes how the text around it shows, so tables would show another label than the file holds"
		}
		ck.errorf(c.PathRange, "Invalid class label",
			"Dataset %q: %s target column %q: %v: %s; %s: rename the class.", c.Name, at, c.Target, le.Err, le.Quoted(), why)
		return false
	}
	if se := (*data.SpellingError)(nil); errors.As(err, &se) {
		ck.errorf(c.PathRange, "Class labels spelled as one",
			"Dataset %q: the target column %q holds class labels that read as one but differ as text (in Unicode normalisation, NFC, or in blanks around them or inside): %s. Write each class one way.",
			c.Name, c.Target, ck.asciiSpellings(d, se.Groups))
		return false
	}
	if err != nil { // ClassTarget has no other error today
		ck.errorf(c.PathRange, "Invalid class label", "Dataset %q: target column %q: %v.", c.Name, c.Target, err)
		return false
	}
	names := target.Names
	switch {
	case names.Merged != nil && names.Booleans:
		ck.warnf(c.PathRange, "Classes compared as booleans",
			"Dataset %q: every value of the target column %q is true or false, spelled in several ways, so classes are compared as booleans (as pandas reads them) and named true and false: %s.",
			c.Name, c.Target, ck.spellings(d, names.Merged))
	case names.Merged != nil:
		ck.warnf(c.PathRange, "Classes compared as numbers",
			"Dataset %q: every value of the target column %q is a number, and some numbers are spelled in several ways, so classes are compared as numbers (as pandas reads them) and named by each number's shortest form: %s.",
			c.Name, c.Target, ck.spellings(d, names.Merged))
	case names.Apart != nil:
		why := "the column holds text too"
		if names.TextOutOfRange {
			why = "the column holds a number beyond float64's range, which counts as text"
		}
		ck.warnf(c.PathRange, "Classes spelled as one number",
			"Dataset %q: the target column %q spells one number in several ways, and these stay distinct classes because %s (%s, %s): %s. Write each class one way if they are one class.",
			c.Name, c.Target, why, excerpt(names.Text.Text), ck.spellingAt(d, names.Text), ck.spellings(d, names.Apart))
	}
	if names.Confusable != nil {
		ck.warnf(c.PathRange, "Confusable class labels",
			"Dataset %q: the target column %q holds class labels that look alike but differ as text (letters of other scripts that show as Latin ones, a minus sign or dash for a hyphen, curly quotes for straight ones): %s. They stay distinct classes, which the tables would show as one name twice; write each class one way if they are one class.",
			c.Name, c.Target, ck.asciiSpellings(d, names.Confusable))
	}
	if names.CaseVariants != nil {
		ck.warnf(c.PathRange, "Class labels differ only in case",
			"Dataset %q: the target column %q holds class labels that differ only in case: %s. They stay distinct classes; write each class one way if they are one class.",
			c.Name, c.Target, ck.caseSpellings(d, target.Column, names.CaseVariants))
	}
	ck.summaryRowNames(d, target.Column.Levels)
	return true
}

// summaryRowNames warns of each class of dataset d (named classes) that
// bears the name of a summary row of the per-class outputs.
func (ck *checker) summaryRowNames(d *Dataset, classes []string) {
	c := d.Config
	for _, name := range classes {
		if slices.Contains(metrics.SummaryRows(), strings.TrimSpace(name)) {
			ck.warnf(c.PathRange, "Class named like a summary row",
				"Dataset %q: class %s bears the name of a summary row of the per-class outputs (%s): in per_class.csv and the per-class tables its row could not be told from that summary row. Rename the class.",
				c.Name, shown(name), strings.Join(metrics.SummaryRows(), ", "))
		}
	}
}

// spellings lists classes with their spellings and where each first
// occurs, at most maxSpellings spellings in all.
func (ck *checker) spellings(d *Dataset, classes []data.ClassMerge) string {
	return ck.spellingList(d, classes, safetext.Excerpt, true)
}

// asciiSpellings lists groups of spellings that read as one, each
// Go-quoted in ASCII so that the difference shows ("caf\u00e9",
// "cafe\u0301"), with where each first occurs, at most maxSpellings
// spellings in all.
func (ck *checker) asciiSpellings(d *Dataset, groups []data.ClassMerge) string {
	return ck.spellingList(d, groups, safetext.ShowASCII, false)
}

// spellingList lists groups of spellings, each shown by show with where
// it first occurs, at most maxSpellings spellings in all; a group is
// named by its class ("1 from ...") when named (data.ListSpellings).
func (ck *checker) spellingList(d *Dataset, groups []data.ClassMerge, show func(string) string, named bool) string {
	return data.ListSpellings(groups, maxSpellings, show, func(s data.Spelling) string { return ck.spellingAt(d, s) }, named)
}

// caseSpellings lists groups of class labels of column col (the target
// of d) that differ only in case, each with its number of rows and,
// but for the most frequent of its group (the first of those tied), where
// it first occurs, at most maxSpellings spellings in all: the rarer
// spellings are the likely typos.
func (ck *checker) caseSpellings(d *Dataset, col *data.Column, groups []data.ClassMerge) string {
	rows := make(map[string]int, len(col.Levels))
	for _, code := range col.Codes {
		if code >= 0 {
			rows[col.Levels[code]]++
		}
	}
	var parts []string
	count := 0
	for k, g := range groups {
		if count >= maxSpellings {
			parts = append(parts, fmt.Sprintf("and %d more", len(groups)-k))
			break
		}
		most := 0
		for i, s := range g.Spellings {
			if rows[s.Text] > rows[g.Spellings[most].Text] {
				most = i
			}
		}
		sp := make([]string, len(g.Spellings))
		for i, s := range g.Spellings {
			n := rows[s.Text]
			sp[i] = fmt.Sprintf("%s (%d row", safetext.Show(s.Text), n)
			if n != 1 {
				sp[i] += "s"
			}
			if i != most {
				sp[i] += ", the first at " + ck.spellingAt(d, s)
			}
			sp[i] += ")"
			count++
		}
		parts = append(parts, strings.Join(sp[:len(sp)-1], ", ")+" and "+sp[len(sp)-1])
	}
	return strings.Join(parts, "; ")
}

// spellingAt says where spelling s of the target of d first occurs.
func (ck *checker) spellingAt(d *Dataset, s data.Spelling) string {
	if s.Row < 0 {
		return "declared, on no row"
	}
	return ck.classRow(d, s.Row)
}

// constantFeatures warns when every feature column of dataset d holds
// one value in every row (a missing value counting as a value of its
// own): no learner can tell the classes apart by them.
func (ck *checker) constantFeatures(d *Dataset) bool {
	f := d.Features
	for _, c := range f.Num {
		if slices.ContainsFunc(c.Vals, func(v float64) bool { return !sameFloat(v, c.Vals[0]) }) {
			return false
		}
	}
	for _, c := range f.Cat {
		if slices.ContainsFunc(c.Codes, func(v int32) bool { return v != c.Codes[0] }) {
			return false
		}
	}
	for _, b := range f.Sparse {
		if !constantColumns(b.M) {
			return false
		}
	}
	n := len(f.Num) + len(f.Cat)
	for _, b := range f.Sparse {
		n += b.M.Cols
	}
	ck.warnf(d.Config.PathRange, "Every feature is constant",
		"Dataset %q: each of its %d feature column(s) holds one value in every row, so no learner can tell the classes apart: each predicts from the class frequencies alone.", d.Config.Name, n)
	return true
}

// sameFloat reports whether a and b are equal or both NaN (missing).
func sameFloat(a, b float64) bool { return a == b || a != a && b != b }

// constantColumns reports whether each column of m holds one value in
// every row: no entry (0 throughout), or an entry in every row, all
// equal.
func constantColumns(m *sparse.CSR) bool {
	count := make([]int, m.Cols)
	first := make([]float64, m.Cols)
	for k, j := range m.Indices {
		v := m.Values[k]
		if count[j] > 0 && !sameFloat(v, first[j]) {
			return false
		}
		first[j] = v
		count[j]++
	}
	for _, n := range count {
		if n != 0 && n != m.Rows {
			return false
		}
	}
	return true
}
