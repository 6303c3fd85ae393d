package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/outcome"
)

// TestPluginThatDoesNotStartFailsItsCells: a learner or reducer plugin
// that exits before its handshake line, or prints something else to
// stdout, beside the real plugins fails only its own cells: bench run
// computes the other cells (the numbers of a run without the broken
// plugin), records each cell of the broken one as failed with the start's
// error and the plugin's stderr, shows them failed in the tables and exits
// with an error; bench validate reports the plugin as an error; once the
// plugin is fixed, the same command computes its cells.
func TestPluginThatDoesNotStartFailsItsCells(t *testing.T) {
	t.Parallel()
	const (
		exits = "#!/bin/sh\necho 'cannot load libfoo.so: no such file' >&2\nexit 1\n"
		// The stderr line comes first: bench ends a plugin at its first
		// stdout line that is no handshake, and a line written to stderr
		// after it may never be (under load, the test failed so).
		prints = "#!/bin/sh\necho 'missing model file' >&2\necho 'starting up'\nexit 3\n"
	)
	exited := []string{"the plugin exited (or closed its stdout) before printing its handshake line", "plugin stderr:\ncannot load libfoo.so: no such file"}
	printed := []string{`the plugin printed "starting up" to stdout where its handshake line`, "plugin stderr:\nmissing model file"}
	tests := []struct {
		name, script string
		// learner is the broken learner's block, or "" when the broken
		// plugin is the reducer of reduction ovo2.
		learner string
		// broken are the cells (learner|reduction, on each dataset) of the
		// broken plugin, fixed the cells of the run without it they equal
		// once it is fixed (the plugin it is then a copy of: fixedBy).
		broken, fixed []string
		fixedBy       string
		row           string // a row of the report, its cells failed
		cells         int
		want          []string // in each broken cell's error
	}{
		{"learner exits", exits, "learner \"bad\" {\n  plugin = \"broken\"\n  params = { C = 1 }\n}\n",
			[]string{"bad|ova", "bad|ovo2"}, []string{"logreg|ova", "logreg|ovo2"}, "logreg", "| bad ova | failed | failed | – |", 8, exited},
		{"learner prints", prints, "learner \"bad\" {\n  plugin = \"broken\"\n  params = { C = 1 }\n}\n",
			[]string{"bad|ova", "bad|ovo2"}, []string{"logreg|ova", "logreg|ovo2"}, "logreg", "| bad ovo2 | failed | failed | – |", 8, printed},
		{"reducer exits", exits, "",
			[]string{"logreg|ovo2"}, []string{"logreg|ovo2"}, "reducers", "| logreg ovo2 | failed | failed | – |", 4, exited},
	}
	experiment := func(name, learner, reducer string) string {
		return `experiment "` + name + `" { seed = 1 }
` + datasets("iris", "wine") + `
encoder "std" { type = "standardize" }
learner "logreg" {
  plugin = "logreg"
  params = { C = 1 }
}
` + learner + `reduction "ova" {
  scheme = "ova"
}
reduction "ovo2" {
  scheme = "ovo"
  plugin = "` + reducer + `"
}
metrics = ["accuracy"]
`
	}
	// The healthy cells' numbers, from a run without the broken plugin.
	alone := t.TempDir()
	if _, stderr, err := runBench(t, "run", "--plugins", pluginsDir, "--quiet", "-o", alone, writeExperiment(t, experiment("alone", "", "reducers"))); err != nil {
		t.Fatalf("bench run without the broken plugin: %v\n%s", err, stderr)
	}
	want := readCells(t, alone)
	sameFolds := func(t *testing.T, what string, got, ref *outcome.CellResult) {
		t.Helper()
		if got == nil || ref == nil || got.Failed() || len(got.Folds) != 10 || len(got.Folds) != len(ref.Folds) {
			t.Fatalf("%s: cell %+v, without the broken plugin %+v", what, got, ref)
		}
		for i, f := range got.Folds {
			if a, b := f.Metrics["accuracy"], ref.Folds[i].Metrics["accuracy"]; a != b || a <= 0.5 {
				t.Errorf("%s fold %d: accuracy %v, %v without the broken plugin", what, i, a, b)
			}
		}
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			broken := filepath.Join(dir, "bench-plugin-broken")
			if err := os.WriteFile(broken, []byte(tc.script), 0o755); err != nil {
				t.Fatal(err)
			}
			plugins := dir + string(os.PathListSeparator) + pluginsDir
			reducer := "reducers"
			if tc.learner == "" {
				reducer = "broken"
			}
			file := writeExperiment(t, experiment("startfail", tc.learner, reducer))
			if _, stderr, err := runBench(t, "validate", "--plugins", plugins, file); err == nil || !strings.Contains(stderr, "error: Plugin failed to start") {
				t.Errorf("bench validate: %v, want the plugin that does not start as an error:\n%s", err, stderr)
			}
			out := t.TempDir()
			_, stderr, err := runBench(t, "run", "--plugins", plugins, "--quiet", "-o", out, file)
			failed := fmt.Sprintf("%d of %d cells failed", 2*len(tc.broken), tc.cells)
			if err == nil || !strings.Contains(err.Error(), failed) {
				t.Errorf("bench run: %v, want %s\n%s", err, failed, stderr)
			}
			if !strings.Contains(stderr, "warning: Plugin failed to start") {
				t.Errorf("bench run does not warn of the plugin that does not start:\n%s", stderr)
			}
			cells := readCells(t, out)
			if len(cells) != tc.cells {
				t.Errorf("%d cells written, want %d", len(cells), tc.cells)
			}
			for _, d := range []string{"iris", "wine"} {
				for k, c := range cells {
					if !strings.HasPrefix(k, d+"|") || slices.Contains(tc.broken, strings.TrimPrefix(k, d+"|")) {
						continue
					}
					sameFolds(t, k, c, want[k])
				}
				for _, b := range tc.broken {
					c := cells[d+"|"+b]
					if c == nil || !c.Failed() || len(c.Folds) != 0 {
						t.Fatalf("%s|%s: the broken plugin's cell %+v, want a failed cell", d, b, c)
					}
					for _, w := range append([]string{"repeat 0 fold 0: plugin broken (" + broken + "): "}, tc.want...) {
						if !strings.Contains(c.Error, w) {
							t.Errorf("%s|%s: the broken plugin's cell's error %q lacks %q", d, b, c.Error, w)
						}
					}
				}
			}
			if md := readFile(t, filepath.Join(out, "startfail.md")); !strings.Contains(md, tc.row) {
				t.Errorf("the report does not show the broken plugin's cells failed (%q):\n%s", tc.row, md)
			}

			// Fixed (here: a copy of a real plugin under the broken one's
			// name), the same command computes the failed cells.
			fixed, err := os.ReadFile(filepath.Join(pluginsDir, "bench-plugin-"+tc.fixedBy))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(broken, fixed, 0o755); err != nil {
				t.Fatal(err)
			}
			if _, stderr, err := runBench(t, "run", "--plugins", plugins, "--quiet", "-o", out, file); err != nil {
				t.Fatalf("bench run once the plugin is fixed: %v\n%s", err, stderr)
			}
			cells = readCells(t, out)
			for _, d := range []string{"iris", "wine"} {
				for i, b := range tc.broken {
					sameFolds(t, d+"|"+b+" fixed", cells[d+"|"+b], want[d+"|"+tc.fixed[i]])
				}
			}
		})
	}
}
