package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const twoCells = `experiment "NAME" { seed = 2 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" { params = { C = [0.5, 2] } }
reduction "ova" {}
cv { folds = 3 }
`

// runTwoCells runs a two-cell experiment named name into out.
func runTwoCells(t *testing.T, name, out string, flags ...string) (string, string, error) {
	t.Helper()
	file := writeExperiment(t, strings.Replace(twoCells, "NAME", name, 1))
	return bench(t, append(append([]string{"run"}, flags...), "-o", out, file)...)
}

// TestRunIntoExistingDirectory: a second run of the same experiment
// resumes (here: keeps both cells), --fresh starts over and moves the old
// cells aside, and another experiment is refused, naming both.
func TestRunIntoExistingDirectory(t *testing.T) {
	out := t.TempDir()
	if _, stderr, err := runTwoCells(t, "first", out); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	before := cellFiles(t, out)
	for _, tc := range []struct {
		name, experiment string
		flags            []string
		wantOut, wantErr string
		aside            int // cell files in superseded/ afterwards
	}{
		{name: "resume", experiment: "first", wantOut: "first: 2 cells (0 failed, 2 kept from an earlier run)"},
		{name: "other experiment", experiment: "second",
			wantErr: `results directory ` + out + ` holds experiment "first", not "second"`},
		{name: "fresh", experiment: "first", flags: []string{"--fresh"}, wantOut: "first: 2 cells (0 failed) in", aside: 2},
		{name: "other experiment, fresh", experiment: "second", flags: []string{"--fresh"},
			wantErr: `holds experiment "first", not "second"`, aside: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, err := runTwoCells(t, tc.experiment, out, tc.flags...)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("error %v, want %q", err, tc.wantErr)
				}
			} else if err != nil || !strings.Contains(stdout, tc.wantOut) {
				t.Errorf("%v: stdout %q, want %q\n%s", err, stdout, tc.wantOut, stderr)
			}
			aside, _ := filepath.Glob(filepath.Join(out, "superseded", "*", "cells", "*.json"))
			if len(aside) != tc.aside {
				t.Errorf("%d cell files moved aside, want %d", len(aside), tc.aside)
			}
			if tc.name == "resume" {
				for name, st := range cellFiles(t, out) {
					if before[name] != st {
						t.Errorf("resuming rewrote %s", name)
					}
				}
			}
		})
	}
}

// TestTableChecksCells: bench table refuses a results directory with a
// bad cell file, naming the file and the reason.
func TestTableChecksCells(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, cells string, first string) string // returns the file to blame
		want   string
	}{
		{"null", func(t *testing.T, cells, first string) string {
			os.WriteFile(first, []byte("null\n"), 0o644)
			return first
		}, "not a cell file: no cell (null or empty object)"},
		{"another run's", func(t *testing.T, cells, first string) string {
			// The same cell with another digest, as another run would leave:
			// not the digest the manifest records for cell 0.
			dup := filepath.Join(cells, "0000-ffffffffffffffff.json")
			// (Without a checksum, as an older bench wrote them: the
			// checksum would refuse the edited copy first.)
			b := withoutChecksum(t, readFile(t, first))
			i := strings.Index(b, `"digest": "`) + len(`"digest": "`)
			b = b[:i] + strings.Repeat("f", 64) + b[i+64:]
			os.WriteFile(dup, []byte(b), 0o644)
			return dup
		}, "not a cell of this run: its digest ffffffffffffffff… is not the one manifest.json records for cell 0"},
		{"accuracy 5", func(t *testing.T, cells, first string) string {
			// The first fold's accuracy: the keys come out sorted, so the
			// threshold views ("curves", with their own accuracy) precede
			// the folds.
			b := withoutChecksum(t, readFile(t, first))
			i := strings.Index(b, `"folds": `)
			i += strings.Index(b[i:], `"accuracy": `) + len(`"accuracy": `)
			j := i + strings.IndexAny(b[i:], ",\n")
			os.WriteFile(first, []byte(b[:i]+"5"+b[j:]), 0o644)
			return first
		}, "fold 0: accuracy is 5 but the confusion matrix gives "},
		{"edited", func(t *testing.T, cells, first string) string {
			// A plausible score, still valid JSON: only the checksum tells.
			b := readFile(t, first)
			i := strings.Index(b, `"accuracy": `) + len(`"accuracy": `)
			j := i + strings.IndexAny(b[i:], ",\n")
			os.WriteFile(first, []byte(b[:i]+"0.5"+b[j:]), 0o644)
			return first
		}, "its content does not match its checksum: the file was edited or damaged after it was written"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			if _, stderr, err := runTwoCells(t, "checked", out); err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			cells := filepath.Join(out, "cells")
			files, _ := filepath.Glob(filepath.Join(cells, "0000-*.json"))
			bad := tc.damage(t, cells, files[0])
			_, _, err := bench(t, "table", out)
			if err == nil || !strings.Contains(err.Error(), bad+": ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %s: …%s", err, bad, tc.want)
			}
		})
	}
}

// TestNamesStayInsideTheResultsDirectory: an experiment name that would
// lead outside the results directory is refused by validate and run, at
// the label, and nothing is written.
func TestNamesStayInsideTheResultsDirectory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	file := writeExperiment(t, strings.Replace(twoCells, "NAME", "../../../../x", 1))
	for _, cmd := range []string{"validate", "run"} {
		_, stderr, err := bench(t, cmd, file)
		if err == nil || !strings.Contains(stderr, "exp.hcl:1:12: error: Invalid experiment name") {
			t.Errorf("%s: %v\n%s", cmd, err, stderr)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("written into the working directory: %v", entries)
	}
}

// withoutChecksum makes a cell file one of the format before checksums and
// specs (schema 1: no checksum, no spec).
func withoutChecksum(t *testing.T, b string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(b), &m); err != nil {
		t.Fatalf("withoutChecksum: %v", err)
	}
	delete(m, "checksum")
	delete(m, "spec")
	m["schema"] = json.RawMessage("1")
	out, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatalf("withoutChecksum: %v", err)
	}
	return string(out) + "\n"
}
