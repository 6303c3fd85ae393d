// Package refdata locates the reference data the tests read: the data sets,
// folds and scikit-learn/LIBLINEAR reference results copied into the
// repository's top-level testdata directory by scripts/testdata.sh.
//
// The data is part of the repository, so every lookup that fails is a test
// failure, never a skip: a clone must run every test.
package refdata

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Dir returns the repository's testdata directory. It is found from this
// source file's location, so it does not depend on the working directory.
func Dir(tb testing.TB) string {
	tb.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		tb.Fatal("refdata: cannot locate the source file")
	}
	dir := filepath.Join(filepath.Dir(file), "..", "..", "testdata")
	if _, err := os.Stat(filepath.Join(dir, "reference")); err != nil {
		tb.Fatalf("refdata: reference data missing (run scripts/testdata.sh): %v", err)
	}
	return filepath.Clean(dir)
}

// Data returns the path of the data set file NAME under testdata/data, or
// of NAME.gz when only the compressed copy exists.
func Data(tb testing.TB, name string) string {
	tb.Helper()
	return existing(tb, filepath.Join(Dir(tb), "data", name))
}

// Reference returns the path of a file under testdata/reference, given as
// path elements (e.g. "folds", "iris.folds.csv").
func Reference(tb testing.TB, elem ...string) string {
	tb.Helper()
	return existing(tb, filepath.Join(append([]string{Dir(tb), "reference"}, elem...)...))
}

// ReadFile returns the contents of path, decompressed when it ends in .gz.
func ReadFile(tb testing.TB, path string) []byte {
	tb.Helper()
	b, err := readFile(path)
	if err != nil {
		tb.Fatalf("refdata: %v", err)
	}
	return b
}

// Open opens path for reading, decompressing it when it ends in .gz.
// Closing the result closes the file.
func Open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("refdata: %w", err)
	}
	if !strings.HasSuffix(path, ".gz") {
		return f, nil
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("refdata: %s: %w", path, err)
	}
	return gzipFile{zr, f}, nil
}

type gzipFile struct {
	*gzip.Reader
	f *os.File
}

func (g gzipFile) Close() error { return errors.Join(g.Reader.Close(), g.f.Close()) }

func readFile(path string) ([]byte, error) {
	rc, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		return nil, fmt.Errorf("refdata: reading %s: %w", path, err)
	}
	return b, nil
}

// existing returns path, or path.gz, whichever exists; it fails the test
// when neither does.
func existing(tb testing.TB, path string) string {
	tb.Helper()
	for _, p := range []string{path, path + ".gz"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	tb.Fatalf("refdata: %s is not in the repository's testdata (see scripts/testdata.sh)", path)
	return ""
}
