package dataset

import (
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
)

// TestTestFileCopies: a test file that copies the training file (a byte
// copy, its gzip) is refused at test_path as the training file itself
// is; one of which more than half the rows equal training rows gets a
// warning there that counts them and names the first, in both files; one
// of which half do, or none, gets none (testdata of package data).
func TestTestFileCopies(t *testing.T) {
	dir := filepath.Join("..", "data", "testdata", "copies")
	at := hcl.Range{Filename: "exp.hcl", Start: hcl.Pos{Line: 4, Column: 15}, End: hcl.Pos{Line: 4, Column: 25}}
	for _, tc := range []struct {
		test string
		want string // diagLines of the diagnostics, $DIR the directory
	}{
		{"copy.csv", "error: Test file copies the training file: Dataset \"d\": test_path names $DIR/copy.csv, whose 4 rows are those of the training file $DIR/train.csv, row for row (a copy of it, perhaps compressed or written another way), so every model would be scored on the rows it was fitted on. Name a file of other rows."},
		{"copy.csv.gz", "error: Test file copies the training file: Dataset \"d\": test_path names $DIR/copy.csv.gz, whose 4 rows are those of the training file $DIR/train.csv, row for row (a copy of it, perhaps compressed or written another way), so every model would be scored on the rows it was fitted on. Name a file of other rows."},
		{"most.csv", "warning: Test rows copy training rows: Dataset \"d\": 2 of the 3 rows of the test file $DIR/most.csv (66.7 %) equal a row of the training file $DIR/train.csv in every column, e.g. $DIR/most.csv:3:1: test row 2 equals $DIR/train.csv:4:1: training row 3: every model would be scored mostly on rows it was fitted on. Remove them from one of the files, unless the data has so few distinct rows that a fair split repeats them."},
		{"reordered.csv", "warning: Test rows copy training rows: Dataset \"d\": 4 of the 4 rows of the test file $DIR/reordered.csv (100.0 %) equal a row of the training file $DIR/train.csv in every column, e.g. $DIR/reordered.csv:2:1: test row 1 equals $DIR/train.csv:5:1: training row 4: every model would be scored mostly on rows it was fitted on. Remove them from one of the files, unless the data has so few distinct rows that a fair split repeats them."},
		{"half.csv", ""},
	} {
		t.Run(tc.test, func(t *testing.T) {
			c := &config.Dataset{Name: "d", Path: filepath.Join(dir, "train.csv"), TestPath: filepath.Join(dir, tc.test), Target: "class", TestPathRange: at}
			var ck checker
			f, _ := ck.readFiles(c)
			if got := diagLines(ck.diags, dir); got != tc.want {
				t.Errorf("diagnostics\n%s\nwant\n%s", got, tc.want)
			}
			if (f == nil) != ck.diags.HasErrors() {
				t.Errorf("files %v after diagnostics %v", f, ck.diags)
			}
			for _, d := range ck.diags {
				if *d.Subject != at {
					t.Errorf("%q at %v, want test_path %v", d.Summary, d.Subject, at)
				}
			}
		})
	}
}

// TestCrossValidatedCopies: a data set without a test file, split into
// folds, of which more than half the rows equal another of its rows in
// every column gets a warning at path that counts them and names the
// first copy and the row it copies (the training file appended to
// itself: 8 of 8); one of which half do (2 of 4), or none, gets none,
// and so does one with a test file, which is not split into folds.
func TestCrossValidatedCopies(t *testing.T) {
	dir := filepath.Join("..", "data", "testdata", "copies")
	at := hcl.Range{Filename: "exp.hcl", Start: hcl.Pos{Line: 2, Column: 15}, End: hcl.Pos{Line: 2, Column: 25}}
	for _, tc := range []struct {
		path, test string
		want       string // diagLines of the diagnostics, $DIR the directory
	}{
		{"doubled.csv", "", "warning: Rows copy other rows: Dataset \"d\": 8 of the 8 rows of $DIR/doubled.csv (100.0 %) equal another of its rows in every column, the class included, e.g. $DIR/doubled.csv:6:1: row 5 equals $DIR/doubled.csv:2:1: row 1: a fold split puts copies of a row on both its training and its test side, so every model is scored in part on rows it was fitted on, and the scores come out inflated. Remove the copies (a file appended to itself, or rows oversampled before cross-validation), unless the data has so few distinct rows that they are real."},
		// A missing value equals a missing value.
		{"mostcopied.csv", "", "warning: Rows copy other rows: Dataset \"d\": 5 of the 7 rows of $DIR/mostcopied.csv (71.4 %) equal another of its rows in every column, the class included, e.g. $DIR/mostcopied.csv:5:1: row 4 equals $DIR/mostcopied.csv:3:1: row 2: a fold split puts copies of a row on both its training and its test side, so every model is scored in part on rows it was fitted on, and the scores come out inflated. Remove the copies (a file appended to itself, or rows oversampled before cross-validation), unless the data has so few distinct rows that they are real."},
		{"halfcopied.csv", "", ""},
		{"train.csv", "", ""},
		{"doubled.csv", "half.csv", ""},
	} {
		t.Run(tc.path+"+"+tc.test, func(t *testing.T) {
			c := &config.Dataset{Name: "d", Path: filepath.Join(dir, tc.path), Target: "class", PathRange: at}
			if tc.test != "" {
				c.TestPath = filepath.Join(dir, tc.test)
			}
			var ck checker
			ds := ck.loadDataset(c, &config.CV{Folds: 2, Stratified: true}, 1)
			if got := diagLines(ck.diags, dir); got != tc.want {
				t.Errorf("diagnostics\n%s\nwant\n%s", got, tc.want)
			}
			if ds == nil || ck.diags.HasErrors() {
				t.Errorf("dataset %v, diagnostics %v", ds, ck.diags)
			}
			for _, d := range ck.diags {
				if *d.Subject != at {
					t.Errorf("%q at %v, want path %v", d.Summary, d.Subject, at)
				}
			}
		})
	}
}
