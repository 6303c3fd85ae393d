package data

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/polyclass/polyclass/framework/safetext"
)

// Causes wrapped by a *LabelColumnError; test with errors.Is.
var (
	// ErrLabelName reports a label column whose name holds a control
	// character.
	ErrLabelName = errors.New("label column name holds a control character")
	// ErrHiddenLabelName reports a label column whose name holds a
	// character that does not show (safetext.Hidden).
	ErrHiddenLabelName = errors.New("label column name holds an invisible character")
	// ErrLabelValue reports a value of a label column that is not 0 or 1.
	ErrLabelValue = errors.New("label value not 0 or 1")
)

// LabelColumnError is the error of a column that Table.LabelColumn
// refuses. It prints without the dataset's name and the value's place
// in the file, which the caller knows.
type LabelColumnError struct {
	Name string // the column's name
	// Row is the 0-based data row of the first value that is not 0 or 1
	// (ErrLabelValue); −1 when the column's name is at fault.
	Row int
	// Value is that value: a number's shortest form in a numeric
	// column (Numeric), the text as the file holds it in another; ""
	// when the row has no value (Missing).
	Value            string
	Missing, Numeric bool
	// Columns are the table's columns (ErrUnknownColumn).
	Columns []string
	Err     error
}

// Error says what is wrong with the column, naming it (and its value).
func (e *LabelColumnError) Error() string {
	switch {
	case errors.Is(e.Err, ErrUnknownColumn):
		return fmt.Sprintf("no label column %s; its columns are: %s", safetext.Show(e.Name), safetext.Few(e.Columns, safetext.Listed, nil))
	case errors.Is(e.Err, ErrLabelName):
		return fmt.Sprintf("label column %s holds a control character; tables, plots and file names cannot show it: rename the column", safetext.Show(e.Name))
	case errors.Is(e.Err, ErrHiddenLabelName):
		i := strings.IndexFunc(e.Name, safetext.Hidden)
		return fmt.Sprintf("label column %s holds a bidi control or other invisible (default-ignorable) character (U+%04X); it would show as another name than the file holds: rename the column", safetext.ShowASCII(e.Name), []rune(e.Name[i:])[0])
	}
	return fmt.Sprintf("label column %s holds %s; a label column must hold 0 or 1 (or true or false)", safetext.Show(e.Name), e.shownValue())
}

// shownValue is the value as a message shows it: a number bare, text
// as a bounded excerpt, "no value" when missing.
func (e *LabelColumnError) shownValue() string {
	switch {
	case e.Missing:
		return "no value"
	case e.Numeric:
		return e.Value
	}
	return safetext.Excerpt(e.Value)
}

// Unwrap returns the cause.
func (e *LabelColumnError) Unwrap() error { return e.Err }

// LabelColumn reads column name of t as a label column of a multi-label
// dataset: each row's value 0 or 1 (1.0, ...), or true or false in any
// case. Its error is a *LabelColumnError: the table has no such column
// (ErrUnknownColumn), its name holds a control or an invisible character
// (ErrLabelName, ErrHiddenLabelName), or a row holds another value
// (ErrLabelValue, at the first such row).
func (t *Table) LabelColumn(name string) ([]float64, error) {
	col, ok := t.Lookup(name)
	switch {
	case !ok:
		return nil, &LabelColumnError{Name: name, Row: -1, Columns: t.ColumnNames(), Err: ErrUnknownColumn}
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return nil, &LabelColumnError{Name: name, Row: -1, Err: ErrLabelName}
	case strings.IndexFunc(name, safetext.Hidden) >= 0:
		return nil, &LabelColumnError{Name: name, Row: -1, Err: ErrHiddenLabelName}
	}
	vals := make([]float64, t.NumRows)
	for i := range vals {
		v, ok := labelValue(col, i)
		if !ok {
			return nil, labelValueError(col, i)
		}
		vals[i] = v
	}
	return vals, nil
}

// labelValue returns the value of row i of label column col: 1 for 1
// (1.0, ...) and true, 0 for 0 and false, in any case; false for any
// other value or a missing one.
func labelValue(col *Column, i int) (float64, bool) {
	if col.Kind == Numeric {
		v := col.Num[i]
		return v, v == 0 || v == 1
	}
	code := col.Codes[i]
	if code < 0 {
		return 0, false
	}
	switch t := strings.TrimSpace(col.Levels[code]); {
	case strings.EqualFold(t, "true"):
		return 1, true
	case strings.EqualFold(t, "false"):
		return 0, true
	default:
		// The numbers of a numeric column (parseNum): a hexadecimal
		// float such as 0x1p0, or 1_0, is text there and here.
		v, kind := parseNum(t)
		return v, kind == numFinite && (v == 0 || v == 1)
	}
}

// labelValueError is the error of row i of label column col, whose
// value is not 0 or 1.
func labelValueError(col *Column, i int) *LabelColumnError {
	e := &LabelColumnError{Name: col.Name, Row: i, Err: ErrLabelValue, Numeric: col.Kind == Numeric}
	switch {
	case col.Kind == Numeric && col.Num[i] == col.Num[i]:
		e.Value = strconv.FormatFloat(col.Num[i], 'g', -1, 64)
	case col.Kind == Numeric || col.Codes[i] < 0:
		e.Missing = true
	default:
		e.Value = col.Levels[col.Codes[i]]
	}
	return e
}
