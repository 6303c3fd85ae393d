package results

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTempTarget: a temporary name of bench's is .tmp-NAME- and 12
// hexadecimal digits (or the 1 to 10 decimal digits of os.CreateTemp,
// which earlier versions used); any other name is none.
func TestTempTarget(t *testing.T) {
	tests := []struct {
		name, target string
		ok           bool
	}{
		{".tmp-manifest.json-0123456789ab", "manifest.json", true},
		{".tmp-summary.csv-4294967295", "summary.csv", true},
		{".tmp-0003-0123456789abcdef.json-7", "0003-0123456789abcdef.json", true},
		{".tmp-notes.md", "", false},
		{".tmp-iris.csv", "", false},
		{".tmp-draft.svg", "", false},
		{".tmp-summary.csv-12345678901", "", false}, // 11 digits
		{".tmp-summary.csv-0123456789AB", "", false},
		{".tmp-summary.csv-", "", false},
		{".tmp--123", "", false},
		{"summary.csv-123", "", false},
	}
	for _, tt := range tests {
		target, ok := tempTarget(tt.name)
		if target != tt.target || ok != tt.ok {
			t.Errorf("tempTarget(%q) = %q, %v; want %q, %v", tt.name, target, ok, tt.target, tt.ok)
		}
	}
	for range 20 {
		name := tempName("summary.csv")
		if target, ok := tempTarget(name); !ok || target != "summary.csv" {
			t.Errorf("tempTarget(%q) = %q, %v: bench's own temporary name not recognised", name, target, ok)
		}
	}
}

// TestTempsOfUser: a run resuming in its results directory removes the
// unfinished writes of the files bench writes in each folder (a killed
// run's), and no other file whose name starts with .tmp- (the user's), nor
// an input of the experiment (campaign 22 N01).
func TestTempsOfUser(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	r := begin(t, dir, "exp", 2, Options{Render: fakeRender})
	finishCells(t, r, 0, 1)
	if _, err := r.Finish(StatusComplete, 0); err != nil {
		t.Fatal(err)
	}
	user := map[string]string{
		".tmp-draft.tex":              "keep",
		".tmp-notes.md":               "3 weeks of work",
		".tmp-other.md-12":            "another experiment's name",
		"cells/.tmp-mine.json":        "keep",
		"plots/.tmp-draft.svg":        "<svg/>",
		"predictions/.tmp-x.txt-5":    "keep",
		".tmp-folds.csv-0123456789ab": "an input",
	}
	leftovers := []string{
		".tmp-summary.csv-123",
		".tmp-exp.md-0123456789ab",
		".tmp-" + ManifestFile + "-4294967295",
		"cells/.tmp-" + CellFileName(1, digest(1)) + "-99",
		"plots/.tmp-box_accuracy.svg-77",
		"plots/.tmp-box_accuracy.png-a0a0a0a0a0a0",
		"predictions/.tmp-iris.csv-8",
	}
	writeFiles(t, dir, user)
	for _, name := range leftovers {
		writeFiles(t, dir, map[string]string{name: "cut off"})
	}
	in := []Input{{Path: filepath.Join(dir, ".tmp-folds.csv-0123456789ab"), What: `cv.folds_file "f.csv"`, At: "exp.hcl:3:1"}}
	r, err := Begin(dir, manifest("exp"), digests(2), Options{Render: fakeRender, Now: clock(), Inputs: in})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Finish(StatusComplete, 0); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir, user)
	for _, name := range leftovers {
		if _, err := os.Lstat(filepath.Join(dir, name)); !os.IsNotExist(err) {
			t.Errorf("%s: a killed run's unfinished write is still there (%v)", name, err)
		}
	}
}

// TestTempInputRefused: a directory holding only a data file named
// .tmp-iris.csv is not bench's: the run is refused, and the file stays
// (campaign 22 N01).
func TestTempInputRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	data := map[string]string{".tmp-iris.csv": "a,b\n1,2\n"}
	writeFiles(t, dir, data)
	in := []Input{{Path: filepath.Join(dir, ".tmp-iris.csv"), What: `dataset "iris"`, At: "exp.hcl:2:1"}}
	if _, err := Begin(dir, manifest("exp"), digests(1), Options{Render: fakeRender, Now: clock(), Inputs: in}); err == nil {
		t.Fatal("Begin took a directory holding only the user's .tmp-iris.csv for bench's")
	}
	checkFiles(t, dir, data)
	r, err := Begin(dir, manifest("exp"), digests(1), Options{Render: fakeRender, Now: clock(), Inputs: in, Adopt: true})
	if err != nil {
		t.Fatal(err)
	}
	finishCells(t, r, 0)
	if _, err := r.Finish(StatusComplete, 0); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir, data)
}
