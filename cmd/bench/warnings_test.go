package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRunWarnsAsValidate: the code matrices validate warns of (a class 0
// in every column, which no problem trains on: accuracy 0.667 on iris; a
// column of +1 only; a column of +1 and 0 only) are printed by run,
// rerun and submit slurm before any work starts, recorded in
// manifest.json and listed in the report. Before, run printed nothing
// and the report carried no warning.
func TestRunWarnsAsValidate(t *testing.T) {
	for _, tc := range []struct {
		name, matrix, want string
	}{
		{"class 0 in every column", "[[0, 0], [1, -1], [-1, 1]]", "dataset iris, reduction e: class setosa is 0 in every column: no problem trains on it"},
		{"column of +1 only", "[[1, -1, 1], [-1, 1, 1], [-1, -1, 1]]", "dataset iris, reduction e: column 2 lacks a +1 or a −1: it is not a binary problem"},
		{"column of +1 and 0 only", "[[1, -1, 1], [-1, 1, 0], [-1, -1, 1]]", "dataset iris, reduction e: column 2 lacks a +1 or a −1: it is not a binary problem"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := writeExperiment(t, `experiment "codes" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" {}
reduction "e" {
  scheme = "ecoc"
  matrix = `+tc.matrix+`
}
cv { folds = 3 }
output { formats = ["markdown", "json"] }
`)
			stdout, stderr, err := bench(t, "validate", file)
			if err != nil {
				t.Fatalf("validate: %v\n%s", err, stderr)
			}
			// What validate prints under its table of the code matrices,
			// as run prints it.
			var warns []string
			printed := ""
			for line := range strings.Lines(stdout) {
				if w, ok := strings.CutPrefix(line, "    warning: "); ok {
					warns = append(warns, "dataset iris, reduction e: "+strings.TrimSuffix(w, "\n"))
					printed += "warning: dataset iris, reduction e: " + w
				}
			}
			if !slices.Contains(warns, tc.want) {
				t.Fatalf("validate does not warn %q:\n%s", tc.want, stdout)
			}
			out := t.TempDir()
			_, stderr, err = bench(t, "run", "-o", out, file)
			if err != nil || !strings.HasPrefix(stderr, printed) {
				t.Fatalf("run: %v, stderr does not start with\n%s\ngot:\n%s", err, printed, stderr)
			}
			var m struct{ Warnings []string }
			if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "manifest.json"))), &m); err != nil || !slices.Equal(m.Warnings, warns) {
				t.Errorf("manifest warnings %q (%v), want %q", m.Warnings, err, warns)
			}
			if md := readFile(t, filepath.Join(out, "codes.md")); !strings.Contains(md, "## Warnings\n\n- "+strings.Join(warns, "\n- ")+"\n\n") {
				t.Errorf("codes.md lacks the warnings:\n%s", md)
			}
			if _, stderr, err := bench(t, "rerun", out); !strings.HasPrefix(stderr, printed) {
				t.Errorf("rerun: %v, stderr does not start with\n%s\ngot:\n%s", err, printed, stderr)
			}
			_, stderr, err = runBench(t, "submit", "slurm", "--plugins", pluginsDir, "--shards", "2", "-o", filepath.Join(t.TempDir(), "res"), file)
			if err != nil || !strings.HasPrefix(stderr, printed) {
				t.Errorf("submit slurm: %v, stderr does not start with\n%s\ngot:\n%s", err, printed, stderr)
			}
		})
	}
}

// TestWarningsRecordsDiagnostics: the warnings a run records hold the
// file's warning diagnostics too, located relative to the experiment
// file's directory, so that a run of exp.hcl and one of /abs/exp.hcl
// record the same text.
func TestWarningsRecordsDiagnostics(t *testing.T) {
	file := writeExperiment(t, `experiment "uncovered" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
dataset "wine" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" {}
reduction "ova" { datasets = ["iris"] }
cv { folds = 3 }
`)
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, file); err != nil || !strings.Contains(stderr, "exp.hcl:3:1: warning: Dataset in no reduction") {
		t.Fatalf("run: %v\n%s", err, stderr)
	}
	want := `exp.hcl:3:1: Dataset in no reduction: Dataset "wine" is in no reduction's datasets list, so it has no cell and is missing from the tables. Add it to a reduction's datasets, or remove it.`
	var m struct{ Warnings []string }
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "manifest.json"))), &m); err != nil || !slices.Equal(m.Warnings, []string{want}) {
		t.Errorf("manifest warnings %q (%v), want %q", m.Warnings, err, want)
	}
	md, err := os.ReadFile(filepath.Join(out, "uncovered.md"))
	if err != nil || !strings.Contains(string(md), "## Warnings\n\n- "+want+"\n") {
		t.Errorf("uncovered.md (%v) lacks the warning:\n%s", err, md)
	}
}
