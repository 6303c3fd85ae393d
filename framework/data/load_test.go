package data

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"errors"
	"fmt"
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

// TestLoadDigestIsOfTheBytesParsed: the digest Load records is of the
// bytes its table was parsed from, though another file is renamed over
// the path as soon as the parse ends (the hook afterParse): a digest taken
// by opening the path again would be the other file's, recorded beside
// the first file's results.
func TestLoadDigestIsOfTheBytesParsed(t *testing.T) {
	first, second := "x,class\n1,a\n2,b\n3,a\n", "x,class\n1,b\n"
	gz := func(s string) string {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
		return b.String()
	}
	for _, tc := range []struct {
		name, train, test string
		swap              string // the file replaced: "train" or "test"
		bytes, other      string // its bytes parsed, and the replacement's
	}{
		{name: "training file", train: "d.csv", swap: "train", bytes: first, other: second},
		{name: "gzip training file", train: "d.csv.gz", swap: "train", bytes: gz(first), other: gz(second)},
		{name: "test file", train: "d.csv", test: "t.csv", swap: "test", bytes: first, other: second},
		{name: "gzip test file", train: "d.csv", test: "t.csv.gz", swap: "test", bytes: gz(first), other: gz(second)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write := func(name, text string) string {
				p := filepath.Join(dir, name)
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				return p
			}
			train, test := filepath.Join(dir, tc.train), ""
			if tc.swap == "train" {
				write(tc.train, tc.bytes)
			} else {
				write(tc.train, "x,class\n4,a\n5,b\n")
				test = write(tc.test, tc.bytes)
			}
			target := map[string]string{"train": train, "test": test}[tc.swap]
			other := write("other", tc.other)
			opt := Options{Categorical: []string{"class"}, afterParse: func(path string) {
				if path == target {
					if err := os.Rename(other, target); err != nil {
						t.Fatal(err)
					}
				}
			}}
			f, err := Load(train, test, opt)
			if err != nil {
				t.Fatal(err)
			}
			sum, rows := f.SHA256, f.Table.NumRows
			if tc.swap == "test" {
				sum, rows = f.Test.SHA256, f.Test.Table.NumRows
			}
			if want := fmt.Sprintf("%x", sha256.Sum256([]byte(tc.bytes))); sum != want || rows != 3 {
				t.Errorf("%s: digest %.12s…, %d rows; want %.12s… of the 3 rows parsed (the file now there: %.12s…)",
					tc.swap, sum, rows, want, fileSum(t, target))
			}
		})
	}
}
