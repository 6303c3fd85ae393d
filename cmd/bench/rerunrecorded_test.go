package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rerunExperiment is a four-cell experiment that runs in a second.
const rerunExperiment = `experiment "again" { seed = 5 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
encoder "std" { type = "standardize" }
learner "logreg" { params = { C = [0.1, 1, 10, 100] } }
reduction "ova" { scheme = "ova" }
cv { folds = 3 }
metrics = ["accuracy", "fit_seconds"]
`

// TestRerunOfInterruptedRun: a recorded run that finished 2 of its 4
// cells is said to be interrupted before the rerun, and the rerun
// compares those 2 cells alone: the cells the run never finished are not
// differences. A manifest that still says "running" while no bench run
// holds the directory (a killed run) reads as interrupted.
func TestRerunOfInterruptedRun(t *testing.T) {
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, writeExperiment(t, rerunExperiment)); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, name := range []string{"0001-*.json", "0003-*.json"} {
		files, _ := filepath.Glob(filepath.Join(out, "cells", name))
		if len(files) != 1 {
			t.Fatalf("cell files %s: %v", name, files)
		}
		if err := os.Remove(files[0]); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct{ status, says string }{
		{"interrupted", "is interrupted"},
		{"running", "is interrupted"},
		{"failed", "failed"},
	} {
		t.Run(tt.status, func(t *testing.T) {
			editManifest(t, out, map[string]any{"status": tt.status, "finished_cells": 2})
			stdout, stderr, err := bench(t, "rerun", out)
			if err != nil {
				t.Fatalf("rerun: %v\n%s%s", err, stdout, stderr)
			}
			want := "the recorded run " + tt.says + ": 2 of 4 cells; cells it never finished are not compared\n"
			if !strings.HasPrefix(stdout, want) {
				t.Errorf("stdout does not begin with %q:\n%s", want, stdout)
			}
			if !strings.Contains(stdout, "rerun of "+out+": identical results (2 cells; timings not compared)") || strings.Contains(stdout, "added") {
				t.Errorf("stdout:\n%s", stdout)
			}
		})
	}
}

// editManifest sets the given fields of the manifest of the results
// directory dir.
func editManifest(t *testing.T, dir string, fields map[string]any) {
	t.Helper()
	path := filepath.Join(dir, "manifest.json")
	var m map[string]any
	if err := json.Unmarshal([]byte(readFile(t, path)), &m); err != nil {
		t.Fatal(err)
	}
	for k, v := range fields {
		m[k] = v
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
