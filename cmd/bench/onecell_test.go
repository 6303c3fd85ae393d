package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runOneCell runs, with bench run, a one-cell experiment (lda and ova on
// iris, 3 folds, accuracy) into a new directory, and returns the
// directory and its cell file.
func runOneCell(t *testing.T) (dir, cell string) {
	t.Helper()
	dir = t.TempDir()
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
	return dir, cells[0]
}

// checkNoEscape fails t for each file under dir, except the file except
// (the edited cell), that holds an ESC: an escape sequence of an edited
// cell file written out again.
func checkNoEscape(t *testing.T, dir, except string) {
	t.Helper()
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || path == except {
			return err
		}
		if strings.Contains(readFile(t, path), "\x1b") {
			t.Errorf("%s holds an escape", path)
		}
		return nil
	})
}
