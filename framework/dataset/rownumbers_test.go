package dataset

import (
	"fmt"
	"strings"
	"testing"
)

// TestRowNumbers: a numeric feature that numbers the training rows (each
// value the one before plus 1, on 30 rows at least) or that pandas named
// as the index it writes ("Unnamed: 0", whatever it holds) gets a warning
// at path naming the column, its first value's place and its range; a
// count of fewer rows, another step, a gap or a missing value gets none.
func TestRowNumbers(t *testing.T) {
	// rows returns a file of n rows sorted by class (a then b), with
	// column id holding id(i) on row i and a feature x.
	rows := func(header string, n int, id func(i int) string) string {
		var b strings.Builder
		b.WriteString(header + ",x,class\n")
		for i := range n {
			fmt.Fprintf(&b, "%s,%d,%c\n", id(i), i%3, 'a'+byte(2*i/n))
		}
		return b.String()
	}
	count := func(from int) func(int) string { return func(i int) string { return fmt.Sprint(from + i) } }
	const tail = ": it tells where a row sits in the file, so on a file sorted by class it predicts the class, and every score comes out inflated. List it in ignore (or write the file from pandas with index=False), unless the order of the rows is data."
	for _, tc := range []struct {
		name, file, test string
		want             string // diagLines of the diagnostics, $DIR the directory
	}{
		{"counts from 1", rows("id", 30, count(1)), "",
			`warning: A feature numbers the rows: Dataset "d": its column "id" ($DIR/d.csv:2:1: data row 1) numbers the rows, from 1 to 30, each value the one before plus 1` + tail},
		{"counts from 0 as pandas writes", rows("Unnamed: 0", 40, count(0)), "",
			`warning: A feature numbers the rows: Dataset "d": its column "Unnamed: 0" ($DIR/d.csv:2:1: data row 1) numbers the rows, from 0 to 39, each value the one before plus 1` + tail},
		{"a shuffled pandas index", rows("Unnamed: 0", 6, func(i int) string { return fmt.Sprint((5 * i) % 6) }), "",
			`warning: A feature numbers the rows: Dataset "d": its column "Unnamed: 0" ($DIR/d.csv:2:1: data row 1) is named as pandas names the index that DataFrame.to_csv writes` + tail},
		{"training rows counted, test file aside", rows("id", 30, count(100)), rows("id", 4, count(7)),
			`warning: A feature numbers the rows: Dataset "d": its column "id" ($DIR/d.csv:2:1: data row 1) numbers the rows, from 100 to 129, each value the one before plus 1` + tail},
		{"fewer than 30 rows", rows("id", 29, count(1)), "", ""},
		{"a step of 2", rows("id", 30, func(i int) string { return fmt.Sprint(2 * i) }), "", ""},
		{"a gap", rows("id", 30, func(i int) string { return fmt.Sprint(i + i/29) }), "", ""},
		{"a missing value", rows("id", 30, func(i int) string {
			if i == 5 {
				return ""
			}
			return fmt.Sprint(i)
		}), "", ""},
		{"another name of pandas", rows("Unnamed", 6, count(3)), "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ds := loadText(t, tc.file, tc.test)
			if got != tc.want {
				t.Errorf("diagnostics\n%s\nwant\n%s", got, tc.want)
			}
			if ds == nil {
				t.Error("no dataset")
			}
		})
	}
}
