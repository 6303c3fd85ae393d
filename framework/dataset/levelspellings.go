package dataset

import (
	"fmt"
	"strings"

	"github.com/polyclass/polyclass/framework/data"
	"github.com/polyclass/polyclass/framework/safetext"
)

// foldedLevels warns, for each categorical feature column of dataset d,
// of its levels that read as one but differ as text (data.FoldedLevels:
// Unicode normalisation, as a file written on macOS (NFD) beside one
// written elsewhere (NFC), or blanks around or inside them): each is a
// level of its own, so one-hot encoding gives each a column, and a row of
// one spelling, in a test file say, matches none of the other's rows.
func (ck *checker) foldedLevels(d *Dataset) {
	for _, col := range d.Features.Cat {
		c := data.Column{Name: col.Name, Kind: data.Categorical, Levels: col.Levels, Codes: col.Codes}
		groups := c.FoldedLevels()
		if groups == nil {
			continue
		}
		ck.warnf(d.Config.PathRange, "Levels spelled as one",
			"Dataset %q: categorical column %q holds values that read as one but differ as text (in Unicode normalisation, NFC, as files written on macOS and elsewhere differ, or in blanks around them or inside): %s. Each is a level of its own: one-hot encoding gives each a column, and a row of one spelling matches none of the other's. Write each value one way.",
			d.Config.Name, col.Name, levelSpellings(d, col.Name, groups))
	}
}

// levelSpellings lists groups of spellings of column name of dataset d,
// each shown in ASCII (so that the difference shows) with the file, line,
// column and row where it first occurs, at most maxSpellings in all.
func levelSpellings(d *Dataset, name string, groups []data.ClassMerge) string {
	var parts []string
	shown := 0
	for k, g := range groups {
		if shown >= maxSpellings {
			parts = append(parts, fmt.Sprintf("and %d more", len(groups)-k))
			break
		}
		var sp []string
		for _, s := range g.Spellings {
			sp = append(sp, fmt.Sprintf("%s (%s %s)", safetext.ShowASCII(s.Text), d.Locate(s.Row, name), rowName(d, s.Row)))
			shown++
		}
		parts = append(parts, strings.Join(sp, ", "))
	}
	return strings.Join(parts, "; ")
}

// rowName names table row i of dataset d in its file: "data row 3" of
// the training file, "test row 2" of the test file.
func rowName(d *Dataset, i int) string {
	if d.Config.TestPath != "" && i >= trainRows(d) {
		return fmt.Sprintf("test row %d", d.RowInFile(i)+1)
	}
	return fmt.Sprintf("data row %d", i+1)
}
