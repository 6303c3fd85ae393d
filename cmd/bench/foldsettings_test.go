package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFoldSettingsRefused: cv options that iris's own folds file (10
// folds) would silently ignore. With repeats = 3 the run made 10 fits of
// 1 repeat, not 30, and said nothing; with folds = 5 it made the file's
// 10 folds. bench validate refuses each at the cv option, and bench run
// refuses it the same before any cell, writing no cell.
func TestFoldSettingsRefused(t *testing.T) {
	const head = `experiment "f" { seed = 1 }
dataset "iris" {
  path       = "%REPO%/experiments/data/iris.csv"
  folds_file = "%REPO%/experiments/data/folds/iris.folds.csv"
}
learner "logreg" {}
`
	for _, tc := range []struct {
		name, cv string
		want     []string
	}{
		{"repeats", "cv {\n  repeats = 3\n}\n", []string{
			`exp.hcl:8:13: error: Conflicting fold settings`,
			`exp.hcl:4:16), which fixes one partition of its rows: repeats = 3 would only re-use the same folds 3 times. Drop repeats (one repeat), or drop the dataset's folds_file to draw fresh folds for each repeat.`,
		}},
		{"folds", "cv {\n  folds = 5\n}\n", []string{
			`exp.hcl:8:11: error: Conflicting fold settings`,
			`iris.folds.csv, which holds 10 folds (numbered 0 to 9); set folds to 10 (or drop it), or drop the dataset's folds_file to draw 5 folds.`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := writeExperiment(t, head+tc.cv)
			out := filepath.Join(t.TempDir(), "out")
			for _, args := range [][]string{{"validate", file}, {"run", "-o", out, file}} {
				_, stderr, err := bench(t, args...)
				if err == nil {
					t.Fatalf("%s accepted %s:\n%s", args[0], strings.TrimSpace(tc.cv), stderr)
				}
				for _, w := range tc.want {
					if !strings.Contains(stderr, w) {
						t.Errorf("%s: missing %q in\n%s", args[0], w, stderr)
					}
				}
			}
			if entries, err := os.ReadDir(filepath.Join(out, "cells")); err == nil && len(entries) > 0 {
				t.Errorf("run wrote %d cell files", len(entries))
			}
		})
	}
}
