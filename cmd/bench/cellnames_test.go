package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/results"
)

// TestTableRefusesCellWithEditedNames: bench table refuses a cell file
// whose result was edited to name the learner "lda" followed by an OSC
// title sequence, and one class with a colour escape, its checksum made
// right and its spec left as it was (campaign 9 B08: the tables were
// written again with the sequences raw); the error names the file and
// the field, and no output of the directory holds the escape.
func TestTableRefusesCellWithEditedNames(t *testing.T) {
	dir := t.TempDir()
	file := writeExperiment(t, `experiment "adv" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "lda" {}
reduction "ova" {}
cv { folds = 3 }
metrics = ["accuracy"]
`)
	if _, stderr, err := bench(t, "run", "-o", dir, file); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr)
	}
	cells, _ := filepath.Glob(filepath.Join(dir, "cells", "*.json"))
	if len(cells) != 1 {
		t.Fatalf("cells %v", cells)
	}
	c, err := results.ReadCell(cells[0], 1)
	if err != nil {
		t.Fatal(err)
	}
	c.Learner = "lda\x1b]0;pwned\a"
	c.Classes[0] += "\x1b[31m"
	if _, err := results.WriteCell(filepath.Dir(cells[0]), c.CellResult, c.Digest, c.Spec); err != nil {
		t.Fatal(err)
	}
	_, _, err = bench(t, "table", dir)
	want := cells[0] + `: its result's learner "lda\x1b]0;pwned\a" holds an escape (U+001B) at character 4: the file was edited after it was written`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("bench table: %v\nlacks %q", err, want)
	}
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || path == cells[0] {
			return err
		}
		if strings.Contains(readFile(t, path), "\x1b") {
			t.Errorf("%s holds an escape", path)
		}
		return nil
	})
}
