package dataset

import (
	"regexp"
	"strconv"

	"github.com/polyclass/polyclass/framework/config"
)

// minCountedRows is the fewest training rows on which a numeric column
// that counts them (rowNumbers) is taken for row numbers: on fewer, a
// run of consecutive values is as likely data (a small example's
// x = 1, 2, ..., 12) as row numbers.
const minCountedRows = 30

// pandasIndexName matches the names pandas gives a column without a
// header name when it reads a file ("Unnamed: 0"), which is how the index
// that DataFrame.to_csv writes by default comes back.
var pandasIndexName = regexp.MustCompile(`^Unnamed: [0-9]+$`)

// rowNumbers warns at the path attribute of dataset c about each numeric
// feature column of d that numbers the rows of its training file (its
// first train rows: each value the one before plus 1, on minCountedRows
// rows at least) or that pandas named as the index it writes
// ("Unnamed: 0"): such a column tells where a row sits in the file, so on
// a file sorted by class (iris, and many UCI files, are) it predicts the
// class, and every score comes out inflated.
func (ck *checker) rowNumbers(d *Dataset, c *config.Dataset, train int) {
	for _, col := range d.Features.Num {
		counts := train >= minCountedRows && countsRows(col.Vals[:train])
		if !counts && !pandasIndexName.MatchString(col.Name) {
			continue
		}
		what := "is named as pandas names the index that DataFrame.to_csv writes"
		if counts {
			what = "numbers the rows, from " + strconv.FormatFloat(col.Vals[0], 'g', -1, 64) + " to " +
				strconv.FormatFloat(col.Vals[train-1], 'g', -1, 64) + ", each value the one before plus 1"
		}
		ck.warnf(c.PathRange, "A feature numbers the rows",
			"Dataset %q: its column %q (%s data row 1) %s: it tells where a row sits in the file, so on a file sorted by class it predicts the class, and every score comes out inflated. List it in ignore (or write the file from pandas with index=False), unless the order of the rows is data.",
			c.Name, col.Name, placeOf(c, c.Path, 0, col.Name), what)
	}
}

// countsRows reports whether each value of vals is the one before plus 1.
func countsRows(vals []float64) bool {
	for i := 1; i < len(vals); i++ {
		if vals[i] != vals[i-1]+1 {
			return false
		}
	}
	return len(vals) > 0
}
