package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// copyInto copies the repository file src (relative to the repository
// root) to dir/name, making its folder, and returns its content; src
// "FILE@odd" or "FILE@even" copies some of FILE's rows (someRows).
func copyInto(t *testing.T, src, dir, name string) string {
	t.Helper()
	src, rows, split := strings.Cut(src, "@")
	b, err := os.ReadFile(filepath.Join("../..", src))
	if err != nil {
		t.Fatal(err)
	}
	body := string(b)
	if split {
		body = someRows(t, body, rows)
	}
	writeAt(t, filepath.Join(dir, name), body)
	return body
}

// someRows returns the header line of the CSV text body and every other
// data row: the first, third, ... when rows is "odd", the second,
// fourth, ... when it is "even" (a training file and its test file cut
// from one file, each class in both).
func someRows(t *testing.T, body, rows string) string {
	t.Helper()
	lines := strings.SplitAfter(strings.TrimSuffix(body, "\n"), "\n")
	first := map[string]int{"odd": 1, "even": 2}[rows]
	if first == 0 {
		t.Fatalf("rows %q: want odd or even", rows)
	}
	out := lines[0]
	for k := first; k < len(lines); k += 2 {
		out += lines[k]
	}
	return strings.TrimSuffix(out, "\n") + "\n"
}

// writeAt writes body to path, making its folder.
func writeAt(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// irisFolds is a folds file for iris's 150 rows, three folds.
func irisFolds() string {
	var b strings.Builder
	b.WriteString("fold\n")
	for i := range 150 {
		fmt.Fprintf(&b, "%d\n", i%3)
	}
	return b.String()
}

// TestRunRefusesItsOwnInputs: a run whose results directory holds its
// inputs among the files it writes (or inside a folder bench manages) is
// refused before it writes anything, each input named where the
// experiment file names it, even with --adopt; every input is left byte
// for byte as it was.
func TestRunRefusesItsOwnInputs(t *testing.T) {
	tests := []struct {
		name string
		// files are the inputs, by path in the directory D, and the
		// repository file each copies ("" for the folds file, "*" for
		// the experiment file).
		files map[string]string
		exp   string // the experiment file's path in D
		src   string
		flags []string
		want  []string // lines of the error; $D is the directory
	}{
		{
			// Finding 2 of issue 55: the folds file was replaced by the
			// run's folds.csv, and the next run failed.
			name:  "folds file in output dir .",
			files: map[string]string{"iris.csv": "experiments/data/iris.csv", "folds.csv": ""},
			exp:   "exp.hcl",
			src: `experiment "exp" { seed = 1 }
dataset "iris" { path = "iris.csv" }
learner "logreg" {}
reduction "ova" {}
cv { folds_file = "folds.csv" }
output { dir = "." }
`,
			want: []string{`$D/exp.hcl:5:19: cv.folds_file ($D/folds.csv) is folds.csv of results directory $D, which the run writes: it would overwrite its own input; choose another results directory (-o DIR, or output { dir = ... }) or move the input out of it`},
		},
		{
			name: "every input, with --adopt",
			files: map[string]string{"summary.csv": "experiments/data/iris.csv", "folds.csv": "",
				"wine.csv": "experiments/data/wine.csv@odd", "tuning.csv": "experiments/data/wine.csv@even"},
			exp:   "plots/exp.hcl",
			flags: []string{"--adopt"},
			src: `experiment "exp" { seed = 1 }
dataset "iris" {
  path       = "../summary.csv"
  folds_file = "../folds.csv"
}
dataset "wine" {
  path      = "../wine.csv"
  test_path = "../tuning.csv"
}
learner "logreg" {}
reduction "ova" {}
output { dir = ".." }
`,
			want: []string{
				`$D/plots/exp.hcl: the experiment file ($D/plots/exp.hcl) lies inside plots/ of results directory $D, whose files bench replaces, moves aside or removes: choose another results directory (-o DIR, or output { dir = ... }) or move the input out of it`,
				`$D/plots/exp.hcl:3:16: dataset "iris" path ($D/summary.csv) is summary.csv of results directory $D, which the run writes: it would overwrite its own input; choose another results directory (-o DIR, or output { dir = ... }) or move the input out of it`,
				`$D/plots/exp.hcl:4:16: dataset "iris" folds_file ($D/folds.csv) is folds.csv of results directory $D, which the run writes: it would overwrite its own input; choose another results directory (-o DIR, or output { dir = ... }) or move the input out of it`,
				`$D/plots/exp.hcl:8:15: dataset "wine" test_path ($D/tuning.csv) is tuning.csv of results directory $D, which the run writes: it would overwrite its own input; choose another results directory (-o DIR, or output { dir = ... }) or move the input out of it`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := t.TempDir()
			want := map[string]string{}
			for name, src := range tt.files {
				if src == "" {
					want[name] = irisFolds()
					writeAt(t, filepath.Join(d, name), want[name])
					continue
				}
				want[name] = copyInto(t, src, d, name)
			}
			file := filepath.Join(d, tt.exp)
			writeAt(t, file, tt.src)
			want[tt.exp] = tt.src
			_, stderr, err := bench(t, append(append([]string{"run"}, tt.flags...), file)...)
			wantErr := strings.ReplaceAll(strings.Join(tt.want, "\n"), "$D", d)
			if err == nil || !strings.Contains(err.Error(), wantErr) {
				t.Fatalf("error:\n%v\nwant:\n%s\n%s", err, wantErr, stderr)
			}
			for name, body := range want {
				if b, err := os.ReadFile(filepath.Join(d, name)); err != nil || string(b) != body {
					t.Errorf("input %s changed (%v)", name, err)
				}
			}
			for _, name := range []string{"manifest.json", "cells", "run.log"} {
				if _, err := os.Lstat(filepath.Join(d, name)); !os.IsNotExist(err) {
					t.Errorf("%s written in the refused directory (%v)", name, err)
				}
			}
		})
	}
}

// TestRunIntoAUsersDirectory (finding 3 of issue 55): -o into a directory
// holding the user's summary.csv and NAME.md is refused, both untouched;
// with --adopt the run writes there and both are moved to superseded/,
// unchanged.
func TestRunIntoAUsersDirectory(t *testing.T) {
	out := t.TempDir()
	user := map[string]string{"summary.csv": "my,own\n1,2\n", "base.md": "# my notes\n"}
	for name, body := range user {
		writeAt(t, filepath.Join(out, name), body)
	}
	_, _, err := runTwoCells(t, "base", out)
	want := `results directory ` + out + ` is not bench's: it holds "base.md", "summary.csv" and no manifest.json; bench writes only into a directory that is absent, empty or its own: choose another directory with -o, or run with --adopt to write there (each file the run replaces is moved to superseded/TIME/ first, never deleted)`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v\nwant %s", err, want)
	}
	for name, body := range user {
		if b, _ := os.ReadFile(filepath.Join(out, name)); string(b) != body {
			t.Errorf("refused, yet %s now holds %q", name, b)
		}
	}
	if entries, _ := os.ReadDir(out); len(entries) != len(user) {
		t.Errorf("refused, yet the directory holds %d entries", len(entries))
	}
	stdout, stderr, err := runTwoCells(t, "base", out, "--adopt")
	if err != nil || !strings.Contains(stdout, "base: 2 cells (0 failed)") {
		t.Fatalf("--adopt: %v\n%s\n%s", err, stdout, stderr)
	}
	for name, body := range user {
		aside, _ := filepath.Glob(filepath.Join(out, "superseded", "*", name))
		if len(aside) != 1 {
			t.Errorf("%s moved aside to %v", name, aside)
			continue
		}
		if b, _ := os.ReadFile(aside[0]); string(b) != body {
			t.Errorf("%s moved aside holds %q", name, b)
		}
	}
	if !strings.Contains(stderr, "moved summary.csv aside to superseded/") && !strings.Contains(readFile(t, filepath.Join(out, "run.log")), "moved summary.csv aside to superseded/") {
		t.Errorf("the move is not said:\n%s", stderr)
	}
}

// TestAdoptedOutputsListIsNotTrusted (campaign 6, A07): in a directory
// adopted, the manifest's "outputs" edited to list the user's notes.md and
// a file outside: the next run keeps both, byte for byte, and moves a
// stale output it no longer writes (tuning.csv, listed) to superseded/,
// never deleting it. The old code deleted notes.md outright.
func TestAdoptedOutputsListIsNotTrusted(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "out")
	user := map[string]string{"notes.md": "mine\n", "../victim": "v\n"}
	for name, body := range user {
		writeAt(t, filepath.Join(out, name), body)
	}
	if _, stderr, err := runTwoCells(t, "base", out, "--adopt"); err != nil {
		t.Fatalf("--adopt: %v\n%s", err, stderr)
	}
	writeAt(t, filepath.Join(out, "tuning.csv"), "an earlier run's\n")
	path := filepath.Join(out, "manifest.json")
	var m map[string]any
	if err := json.Unmarshal([]byte(readFile(t, path)), &m); err != nil {
		t.Fatal(err)
	}
	outputs := m["outputs"].(map[string]any)
	for _, name := range []string{"notes.md", "../victim", "tuning.csv"} {
		outputs[name] = filepath.Join(out, name)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	writeAt(t, path, string(b))
	if _, stderr, err := runTwoCells(t, "base", out); err != nil {
		t.Fatalf("the run after the edit: %v\n%s", err, stderr)
	}
	for name, body := range user {
		if got, err := os.ReadFile(filepath.Join(out, name)); string(got) != body {
			t.Errorf("%s: %q (%v), want %q unchanged", name, got, err, body)
		}
	}
	aside, _ := filepath.Glob(filepath.Join(out, "superseded", "*", "tuning.csv"))
	if _, err := os.Stat(filepath.Join(out, "tuning.csv")); !os.IsNotExist(err) || len(aside) != 1 || readFile(t, aside[0]) != "an earlier run's\n" {
		t.Errorf("the stale tuning.csv: %v at its place, moved aside to %v; want it moved aside whole", err, aside)
	}
}

// TestSubmitAndRerunFollowNoLink (finding 4 of issue 55): slurm/, k8s/
// and DIR/rerun linked elsewhere are refused, and nothing is written where
// they point.
func TestSubmitAndRerunFollowNoLink(t *testing.T) {
	exp := writeExperiment(t, smallExperiment)
	ran := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", ran, exp); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	tests := []struct {
		name, link string
		args       func(dir string) []string
		dir        string // "" a new directory
	}{
		{"slurm", "slurm", func(dir string) []string {
			return []string{"submit", "slurm", exp, "--plugins", pluginsDir, "-o", dir, "--shards", "2"}
		}, ""},
		{"k8s", "k8s", func(dir string) []string {
			return []string{"submit", "k8s", exp, "--image", "img", "-o", dir, "--shards", "2"}
		}, ""},
		{"rerun", "rerun", func(dir string) []string {
			return []string{"rerun", "--plugins", pluginsDir, dir}
		}, ran},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.dir
			if dir == "" {
				dir = t.TempDir()
			}
			elsewhere := t.TempDir()
			if err := os.Symlink(elsewhere, filepath.Join(dir, tt.link)); err != nil {
				t.Fatal(err)
			}
			defer os.Remove(filepath.Join(dir, tt.link))
			_, _, err := runBench(t, tt.args(dir)...)
			want := fmt.Sprintf("results directory %s: %s is a symbolic link (to %s); bench follows no symbolic link inside a results directory", dir, tt.link, elsewhere)
			if tt.dir == "" {
				// A directory holding only the link is not bench's.
				want = fmt.Sprintf("results directory %s is not bench's: it holds %q (a symbolic link (to %s), which bench does not follow inside a results directory)", dir, tt.link, elsewhere)
			}
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("error %v\nwant %s", err, want)
			}
			if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
				t.Errorf("%d entries written where %s points", len(entries), tt.link)
			}
		})
	}
}

// TestRunDirRemovedMidRun (finding 13 of issue 55): the results directory
// removed while the run is under way (logreg's cell written, hang's fold
// still stuck until its timeout). bench used to make it again, print
// "N cells (0 failed)" and exit 0, leaving some cell files and no
// run.log; now the run ends with an error saying so, prints no summary,
// and the directory is not made again. It says so once: on stderr when
// it happens, not again when bench exits.
func TestRunDirRemovedMidRun(t *testing.T) {
	file := writeExperiment(t, `experiment "gone" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" {}
learner "hang" {}
reduction "ova" {}
cv {
  folds   = 3
  timeout = 2
}
`)
	out := filepath.Join(t.TempDir(), "out")
	type result struct {
		stdout, stderr string
		err            error
	}
	done := make(chan result, 1)
	go func() {
		stdout, stderr, err := bench(t, "run", "-j", "2", "-o", out, file)
		done <- result{stdout, stderr, err}
	}()
	if !waitFor(30*time.Second, func() bool {
		cells, _ := filepath.Glob(filepath.Join(out, "cells", "*.json"))
		return len(cells) > 0
	}) {
		t.Fatal("no cell file within 30 s")
	}
	if err := os.RemoveAll(out); err != nil {
		t.Fatal(err)
	}
	r := <-done
	want := "results directory " + out + " was removed or replaced during the run (stat " + out + ": no such file or directory): bench does not make it again, and writes nothing more"
	if r.err == nil || !strings.Contains(r.err.Error(), want) {
		t.Errorf("error %v\nwant %s", r.err, want)
	}
	// Said once (campaign 15 RD/R1 printed it twice): on stderr when the
	// run found the directory gone; the error returned is one main does
	// not print again.
	if n := strings.Count(r.stderr, want); n != 1 || !errors.Is(r.err, errReported) {
		t.Errorf("stderr says it %d times, want 1 (error already reported: %v):\n%s", n, errors.Is(r.err, errReported), r.stderr)
	}
	if strings.Contains(r.stdout, "cells (") {
		t.Errorf("the run printed a summary:\n%s", r.stdout)
	}
	if _, err := os.Lstat(out); !os.IsNotExist(err) {
		t.Errorf("the results directory was made again (%v)", err)
	}
}
