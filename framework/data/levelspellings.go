package data

import (
	"errors"
	"fmt"
	"strings"

	"github.com/polyclass/polyclass/framework/safetext"
)

// ErrLevelSpellings is the warning (Table.Warnings, added by LoadTarget)
// of a categorical column whose values read as one but differ as text
// (Column.LookAlikeLevels): in Unicode normalisation, as a file written on
// macOS (NFD) and one written elsewhere (NFC) differ, in full-width forms
// or letters of other scripts that look alike, or in blanks around them
// or inside. Each is a level of its own: one-hot encoding gives
// each a column, and a row of one spelling matches none of the other's.
var ErrLevelSpellings = errors.New("values read as one but spelled differently")

// maxLevelSpellings bounds the spellings one warning of ErrLevelSpellings
// lists.
const maxLevelSpellings = 12

// levelSpellings returns a warning (ErrLevelSpellings) for each
// categorical column of rows but the one named skip (the target, whose
// spellings are an error: CanonicalClasses), whose values read as one but
// differ as text, listing the spellings in ASCII (so that the difference
// shows) with their rows. rows are a dataset's rows: those of path, then,
// from row train on, those of testPath. The warning is located at the
// first row of the second spelling of the column's first such group, in
// the file that row is of.
func levelSpellings(rows *Table, train int, path, testPath string, opt Options, skip string) []*ParseError {
	var out []*ParseError
	for i := range rows.Columns {
		c := &rows.Columns[i]
		groups := c.LookAlikeLevels()
		if c.Name == skip || groups == nil {
			continue
		}
		at := groups[0].Spellings[1].Row
		file, fileRow := path, at
		if at >= train && testPath != "" {
			file, fileRow = testPath, at-train
		}
		pos := Locate(file, opt, fileRow, c.Name)
		out = append(out, &ParseError{Source: file, Line: pos.Line, Byte: pos.Byte, Column: c.Name,
			Err: fmt.Errorf("%w: %s (they differ in Unicode normalisation, as files written on macOS and elsewhere do, in full-width forms or letters of other scripts that look alike, or in blanks around them or inside); each is a level of its own: one-hot encoding gives each a column, and a row of one spelling matches none of the other's; write each value one way",
				ErrLevelSpellings, spellingRows(groups, train, testPath))})
	}
	return out
}

// spellingRows lists groups of spellings, each in ASCII with the row
// where it first occurs ("data row 3", "test row 2" for a row from train
// on when there is a test file), at most maxLevelSpellings in all.
func spellingRows(groups []ClassMerge, train int, testPath string) string {
	return ListSpellings(groups, maxLevelSpellings, safetext.ShowASCII, func(s Spelling) string {
		if testPath != "" && s.Row >= train {
			return fmt.Sprintf("test row %d", s.Row-train+1)
		}
		return fmt.Sprintf("data row %d", s.Row+1)
	}, false)
}

// ListSpellings lists groups of spellings for a message, each spelling
// shown by show with where it first occurs (at: "data row 3"), groups
// apart by "; ", at most most spellings in all and then how many groups
// are left ("and 2 more"); a group is named by its form ("1 from "1.0"
// (data row 2), ...") when named.
func ListSpellings(groups []ClassMerge, most int, show func(string) string, at func(Spelling) string, named bool) string {
	var parts []string
	shown := 0
	for k, g := range groups {
		if shown >= most {
			parts = append(parts, fmt.Sprintf("and %d more", len(groups)-k))
			break
		}
		sp := make([]string, len(g.Spellings))
		for i, s := range g.Spellings {
			sp[i] = fmt.Sprintf("%s (%s)", show(s.Text), at(s))
		}
		shown += len(sp)
		part := strings.Join(sp, ", ")
		if named {
			part = fmt.Sprintf("%s from %s", show(g.Class), part)
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, "; ")
}
