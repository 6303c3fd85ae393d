package data

import (
	"fmt"
	"slices"
	"sort"
)

// ClassTarget is a column of a table read as the class target of a
// multiclass dataset (Table.ClassTarget).
type ClassTarget struct {
	// Column is the column, its levels made canonical
	// (Column.CanonicalClasses); Names says what that did.
	Column *Column
	Names  ClassNames
	// Classes are the levels some row holds, in sorted order, as
	// scikit-learn's LabelEncoder (fitted on the rows) has them, and
	// Labels the class index of each row (−1: the row has no value).
	Classes []string
	Labels  []int
	// Absent are the levels no row holds (an ARFF nominal value declared
	// and never used), in level order: kept, each would be a class of
	// every binary problem with no rows.
	Absent []string
	// Missing is the first row with no value, −1 when every row has one.
	Missing int
	// Marker is, when a marker of the Missing list of the options Read
	// read the table's file with made row Missing missing, that marker:
	// the file read again without the list holds it there, a class value.
	// It is "" otherwise, and for a table Read did not read (one that
	// Append joined, say).
	Marker string
}

// ClassTarget reads column name of t as the class target of a
// multiclass dataset: it makes the column's levels canonical
// (Column.CanonicalClasses, whose *LabelError or *SpellingError it
// returns), takes the levels some row holds as the classes, and gives
// each row its class. A column t lacks is ErrUnknownColumn.
func (t *Table) ClassTarget(name string) (*ClassTarget, error) {
	col, ok := t.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownColumn, name)
	}
	names, err := col.CanonicalClasses()
	if err != nil {
		return nil, err
	}
	ct := &ClassTarget{Column: col, Names: names, Missing: -1}
	index := ct.classIndex()
	ct.Labels = make([]int, t.NumRows)
	for i, code := range col.Codes {
		if code < 0 {
			ct.Labels[i] = -1
			if ct.Missing < 0 {
				ct.Missing = i
			}
			continue
		}
		ct.Labels[i] = index[code]
	}
	if ct.Missing >= 0 {
		ct.Marker = t.marker(name, ct.Missing)
	}
	return ct, nil
}

// marker returns the text of data row i of column name of t's file read
// without the markers of the Missing list of the options it was read
// with, when it is one of them; else "".
func (t *Table) marker(name string, i int) string {
	if t.read == nil || len(t.read.Missing) == 0 {
		return ""
	}
	opt := *t.read
	opt.Missing = nil
	again, err := Read(t.Source, opt)
	if err != nil {
		return ""
	}
	col, ok := again.Lookup(name)
	if !ok || col.Kind != Categorical || i >= len(col.Codes) || col.Codes[i] < 0 {
		return ""
	}
	if v := col.Levels[col.Codes[i]]; slices.Contains(t.read.Missing, v) {
		return v
	}
	return ""
}

// classIndex sets ct.Classes (the levels some row holds, sorted) and
// ct.Absent (the others), and returns each level's class index (−1 for
// a level left out).
func (ct *ClassTarget) classIndex() []int {
	col := ct.Column
	rows := make([]int, len(col.Levels))
	for _, code := range col.Codes {
		if code >= 0 {
			rows[code]++
		}
	}
	var order []int
	for code, n := range rows {
		if n > 0 {
			order = append(order, code)
		} else {
			ct.Absent = append(ct.Absent, col.Levels[code])
		}
	}
	sort.Slice(order, func(a, b int) bool { return col.Levels[order[a]] < col.Levels[order[b]] })
	index := make([]int, len(col.Levels))
	for code := range index {
		index[code] = -1
	}
	for k, code := range order {
		ct.Classes = append(ct.Classes, col.Levels[code])
		index[code] = k
	}
	return index
}
