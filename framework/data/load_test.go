package data

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestLoad: a dataset's files load in one call, which tells a failure of
// the training file (no files) from one of its test file (a *TestError,
// the files read so far kept, with the test table once it was read).
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	train := write("train.csv", "x,class\n1,a\n2,b\n")
	for _, tc := range []struct {
		name, path, test string
		rows             int  // the rows of Table, or of the test's Both; -1: no files
		testTable        bool // Test holds the test file's table
		testErr          bool // the error is a *TestError
		is               error
		fit              bool // the error is a *TestFitError
	}{
		{name: "no test file", path: train, rows: 2},
		{name: "a test file", path: train, test: write("test.csv", "x,class\n3,a\n"), rows: 3, testTable: true},
		{name: "no training file", path: filepath.Join(dir, "none.csv"), test: train, rows: -1},
		{name: "the training file as test file", path: train, test: train, rows: 2, testErr: true, is: ErrTestIsTrain},
		{name: "no test file there", path: train, test: filepath.Join(dir, "none.csv"), rows: 2, testErr: true},
		{name: "a test file that does not fit", path: train, test: write("other.csv", "x,class,z\n3,a,1\n"), rows: 2, testTable: true, testErr: true, fit: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Load(tc.path, tc.test, Options{Categorical: []string{"class"}})
			if tc.rows < 0 {
				if f != nil || err == nil {
					t.Fatalf("Load = %v, %v; want no files and Read's error", f, err)
				}
				return
			}
			te := (*TestError)(nil)
			if errors.As(err, &te) != tc.testErr || (err != nil) != tc.testErr || tc.is != nil && !errors.Is(err, tc.is) {
				t.Fatalf("error %v, want a *TestError: %v (%v)", err, tc.testErr, tc.is)
			}
			if fit := (*TestFitError)(nil); errors.As(err, &fit) != tc.fit {
				t.Fatalf("error %v, want a *TestFitError: %v", err, tc.fit)
			}
			if f == nil || f.Table.NumRows != 2 || f.SHA256 != fileSum(t, tc.path) || (f.Test != nil) != tc.testTable {
				t.Fatalf("files %+v, want the training file's 2 rows and digest, a test file: %v", f, tc.testTable)
			}
			if tc.testTable && !tc.testErr && f.Test.Both.NumRows != tc.rows {
				t.Errorf("both files: %d rows, want %d", f.Test.Both.NumRows, tc.rows)
			}
		})
	}
}

// fileSum returns FileSHA256 of path.
func fileSum(t *testing.T, path string) string {
	t.Helper()
	s, err := FileSHA256(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
