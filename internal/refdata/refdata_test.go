package refdata

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDataFindsPlainAndCompressed(t *testing.T) {
	for _, tc := range []struct{ name, suffix, header string }{
		{"iris.csv", "iris.csv", "sepal_length"},
		{"letter.csv", "letter.csv.gz", "x_box"},
	} {
		p := Data(t, tc.name)
		if !strings.HasSuffix(p, tc.suffix) {
			t.Errorf("Data(%q) = %s, want suffix %s", tc.name, p, tc.suffix)
		}
		b := ReadFile(t, p)
		if !bytes.Contains(b[:bytes.IndexByte(b, '\n')], []byte(tc.header)) {
			t.Errorf("%s: header %q lacks %q", p, b[:bytes.IndexByte(b, '\n')], tc.header)
		}
	}
}

// TestNoSharedReads fails when Go code outside tools/peerbench (which make
// bench runs on the larger data) reads the shared directory beside the
// repository: the tests must run from a clone alone.
func TestNoSharedReads(t *testing.T) {
	root := filepath.Join(Dir(t), "..")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() && (rel == ".git" || rel == filepath.Join("tools", "peerbench")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, bad := range sharedPaths() {
			if bytes.Contains(b, []byte(bad)) {
				t.Errorf("%s mentions %s: tests must read testdata/ (internal/refdata)", rel, bad)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// sharedPaths are the ways Go code names the shared directory beside the
// repository. They are assembled from their parts so that this file, which
// must spell them, does not itself name that directory.
func sharedPaths() []string {
	const dir = "sha" + "red"
	return []string{"../" + dir, "/work/" + dir, "%" + strings.ToUpper(dir) + "%", `"` + dir + `")`}
}
