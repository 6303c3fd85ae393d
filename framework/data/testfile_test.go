package data

import (
	"errors"
	"os"
	"path/filepath"
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
			if want := `column 1 is "x" in ` + trainPath + ` but "y" in ` + filepath.Join(dir, "cols.csv"); err.Error() != want {
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
