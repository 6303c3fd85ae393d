package data

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadTest: a dataset's test file joins its training file in one
// call, which says why it cannot: the training file itself, a file that
// cannot be read, columns that do not fit (with the test table kept, for
// its warnings).
func TestReadTest(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	trainPath := write("train.csv", "x,class\n1,a\n2,b\n")
	train, err := Read(trainPath, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, test string
		check      func(*testing.T, *TestFile, error)
	}{
		{"the training file", trainPath, func(t *testing.T, tf *TestFile, err error) {
			if !errors.Is(err, ErrTestIsTrain) || tf != nil {
				t.Errorf("got %v, %v; want ErrTestIsTrain", tf, err)
			}
		}},
		{"no such file", filepath.Join(dir, "none.csv"), func(t *testing.T, tf *TestFile, err error) {
			if err == nil || tf != nil || errors.Is(err, ErrTestIsTrain) {
				t.Errorf("got %v, %v; want Read's error", tf, err)
			}
		}},
		{"other columns", write("cols.csv", "y,class\n3,a\n"), func(t *testing.T, tf *TestFile, err error) {
			fit := (*TestFitError)(nil)
			if !errors.As(err, &fit) || tf == nil || tf.Table == nil || tf.Table.NumRows != 1 {
				t.Fatalf("got %+v, %v; want a *TestFitError with the test table", tf, err)
			}
			if want := filepath.Join(dir, "cols.csv") + ` lacks column "x" of ` + trainPath + ` and has column "y", which ` + trainPath + ` lacks`; err.Error() != want {
				t.Errorf("error %q, want %q", err, want)
			}
		}},
		{"fits", write("test.csv", "x,class\n3,a\n"), func(t *testing.T, tf *TestFile, err error) {
			if err != nil || tf.Both.NumRows != 3 || tf.Table.NumRows != 1 || len(tf.SHA256) != 64 {
				t.Errorf("got %+v, %v; want 3 rows joined and the test file's SHA-256", tf, err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tf, err := ReadTest(trainPath, tc.test, train, Options{})
			tc.check(t, tf, err)
		})
	}
}

// TestReadTestCopies: a test file whose rows are the training file's,
// row for row, is refused as the training file itself is, however it is
// stored or spelt (testdata/copies: a byte copy, its gzip, the same
// values written otherwise), and the test rows equal to a training row are
// counted, with the first of them and the training row it equals; a
// permutation of the training rows is not a copy but all its rows count.
func TestReadTestCopies(t *testing.T) {
	dir := filepath.Join("testdata", "copies")
	trainPath := filepath.Join(dir, "train.csv")
	train, err := Read(trainPath, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file                    string
		copy                    bool // ErrTestCopiesTrain
		rows, copies, first, of int
	}{
		{file: "copy.csv", copy: true, rows: 4, copies: 4, first: 0, of: 0},
		{file: "copy.csv.gz", copy: true, rows: 4, copies: 4, first: 0, of: 0},
		{file: "respelled.csv", copy: true, rows: 4, copies: 4, first: 0, of: 0},
		{file: "reordered.csv", rows: 4, copies: 4, first: 0, of: 3},
		{file: "fewer.csv", rows: 3, copies: 3, first: 0, of: 0},
		{file: "onediffers.csv", rows: 4, copies: 3, first: 0, of: 0},
		{file: "most.csv", rows: 3, copies: 2, first: 1, of: 2},
		{file: "half.csv", rows: 4, copies: 2, first: 1, of: 2},
	} {
		t.Run(tc.file, func(t *testing.T) {
			tf, err := ReadTest(trainPath, filepath.Join(dir, tc.file), train, Options{})
			if tc.copy != errors.Is(err, ErrTestCopiesTrain) || !tc.copy && err != nil {
				t.Fatalf("error %v, want ErrTestCopiesTrain: %v", err, tc.copy)
			}
			if tc.copy && !errors.Is(err, ErrTestIsTrain) {
				t.Errorf("error %v is not an ErrTestIsTrain", err)
			}
			if tf == nil || tf.Table.NumRows != tc.rows {
				t.Fatalf("test file %+v, want its %d rows", tf, tc.rows)
			}
			if tf.Copies != tc.copies || tf.FirstCopy != tc.first || tf.CopyOf != tc.of {
				t.Errorf("copies %d, first test row %d equals training row %d; want %d, %d, %d",
					tf.Copies, tf.FirstCopy, tf.CopyOf, tc.copies, tc.first, tc.of)
			}
		})
	}
}

// TestRowCopiesEqualRows: rows are equal when their values are, column
// by column: a missing number equals a missing number, -0 equals 0, a
// level equals itself however the files number their levels, and LIBSVM
// features compare by index and value (an explicit 0 is no feature).
func TestRowCopiesEqualRows(t *testing.T) {
	csv, libsvm := ParseCSV, ParseLIBSVM
	for _, tc := range []struct {
		name        string
		parse       func(io.Reader, string, Options) (*Table, error)
		train, test string
		copies      int
	}{
		{"missing numbers", csv, "x,class\n,a\n2,b\n", "x,class\n,a\n", 1},
		{"negative zero", csv, "x,class\n0,a\n2,b\n", "x,class\n-0,a\n", 1},
		{"levels numbered otherwise", csv, "c,class\nu,a\nv,b\n", "c,class\nv,b\nw,a\n", 1},
		{"other values", csv, "x,class\n1,a\n2,b\n", "x,class\n1,b\n2.5,b\n", 0},
		{"LIBSVM explicit zero", libsvm, "1 1:2 3:0\n2 2:1\n", "1 1:2\n2 2:1 4:0\n", 2},
		{"LIBSVM other index", libsvm, "1 1:2\n2 2:1\n", "1 2:2\n2 1:1\n", 0},
		{"LIBSVM other value", libsvm, "1 1:2\n2 2:1\n", "1 1:3\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := tc.parse(strings.NewReader(tc.train), "train", Options{})
			if err != nil {
				t.Fatal(err)
			}
			b, err := tc.parse(strings.NewReader(tc.test), "test", Options{})
			if err != nil {
				t.Fatal(err)
			}
			both, err := Append(a, b)
			if err != nil {
				t.Fatal(err)
			}
			if _, copies, _, _ := rowCopies(both, a.NumRows); copies != tc.copies {
				t.Errorf("copies %d, want %d", copies, tc.copies)
			}
		})
	}
}
