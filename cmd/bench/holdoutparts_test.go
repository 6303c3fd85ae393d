package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHoldoutTooSmallRefused: cv { holdout = 1e-9 } on iris (150 rows, 3
// classes) leaves the test part 1 row; bench validate refuses it at the
// holdout attribute, saying how many rows each part gets, and bench run
// refuses it the same before any cell, writing no cell. On the code
// before, validate said ok and the run failed at the figures with a NaN
// curve.
func TestHoldoutTooSmallRefused(t *testing.T) {
	file := writeExperiment(t, `experiment "h" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" {}
cv {
  holdout = 1e-9
}
`)
	want := []string{
		`exp.hcl:5:13: error: Holdout leaves a part too small`,
		`Dataset "iris": holdout = 1e-09 of its 150 rows gives the test part 1 row and the training part 149 rows; each part needs at least as many rows as the dataset has classes (3)`,
		`use a fraction above 2/150 (0.01333) and at most 147/150 (0.98)`,
	}
	out := filepath.Join(t.TempDir(), "out")
	for _, args := range [][]string{{"validate", file}, {"run", "-o", out, file}} {
		t.Run(args[0], func(t *testing.T) {
			_, stderr, err := bench(t, args...)
			if err == nil {
				t.Fatalf("%s accepted holdout = 1e-9:\n%s", args[0], stderr)
			}
			for _, w := range want {
				if !strings.Contains(stderr, w) {
					t.Errorf("missing %q in\n%s", w, stderr)
				}
			}
		})
	}
	if entries, err := os.ReadDir(filepath.Join(out, "cells")); err == nil && len(entries) > 0 {
		t.Errorf("run wrote %d cell files", len(entries))
	}
}
