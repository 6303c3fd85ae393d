package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPluginThatDoesNotStartFailsItsCells: a learner plugin that exits
// before its handshake line, or prints something else to stdout, beside
// the real plugins fails only its own cells: bench run computes the
// healthy learner's cells (the numbers of a run without the broken
// learner), records each cell of the broken one as failed with the start's
// error and the plugin's stderr, shows them failed in the tables and exits
// with an error; bench validate reports the plugin as an error; once the
// plugin is fixed, the same command computes its cells.
func TestPluginThatDoesNotStartFailsItsCells(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, script string
		want         []string // in each broken cell's error
	}{
		{"exits", "#!/bin/sh\necho 'cannot load libfoo.so: no such file' >&2\nexit 1\n",
			[]string{"the plugin exited (or closed its stdout) before printing its handshake line", "plugin stderr:\ncannot load libfoo.so: no such file"}},
		{"prints", "#!/bin/sh\necho 'starting up'\necho 'missing model file' >&2\nexit 3\n",
			[]string{`the plugin printed "starting up" to stdout where its handshake line`, "plugin stderr:\nmissing model file"}},
	}
	body := datasets("iris", "wine") + `
encoder "std" { type = "standardize" }
learner "logreg" {
  plugin = "logreg"
  params = { C = 1 }
}
%BAD%reduction "ova" {
  scheme = "ova"
}
metrics = ["accuracy"]
`
	bad := `learner "bad" {
  plugin = "broken"
  params = { C = 1 }
}
`
	// The healthy cells' numbers, from a run without the broken learner.
	alone := t.TempDir()
	if _, stderr, err := runBench(t, "run", "--plugins", pluginsDir, "--quiet", "-o", alone,
		writeExperiment(t, `experiment "alone" { seed = 1 }`+"\n"+strings.Replace(body, "%BAD%", "", 1))); err != nil {
		t.Fatalf("bench run without the broken learner: %v\n%s", err, stderr)
	}
	want := readCells(t, alone)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			broken := filepath.Join(dir, "bench-plugin-broken")
			if err := os.WriteFile(broken, []byte(tc.script), 0o755); err != nil {
				t.Fatal(err)
			}
			plugins := dir + string(os.PathListSeparator) + pluginsDir
			file := writeExperiment(t, `experiment "startfail" { seed = 1 }`+"\n"+strings.Replace(body, "%BAD%", bad, 1))
			if _, stderr, err := runBench(t, "validate", "--plugins", plugins, file); err == nil || !strings.Contains(stderr, "error: Plugin failed to start") {
				t.Errorf("bench validate: %v, want the plugin that does not start as an error:\n%s", err, stderr)
			}
			out := t.TempDir()
			_, stderr, err := runBench(t, "run", "--plugins", plugins, "--quiet", "-o", out, file)
			if err == nil || !strings.Contains(err.Error(), "2 of 4 cells failed") {
				t.Errorf("bench run: %v, want 2 of 4 cells failed\n%s", err, stderr)
			}
			if !strings.Contains(stderr, "warning: Plugin failed to start") {
				t.Errorf("bench run does not warn of the plugin that does not start:\n%s", stderr)
			}
			cells := readCells(t, out)
			for _, d := range []string{"iris", "wine"} {
				got, ref := cells[d+"|logreg|ova"], want[d+"|logreg|ova"]
				if got == nil || ref == nil || got.Failed() || len(got.Folds) != 10 || len(got.Folds) != len(ref.Folds) {
					t.Fatalf("%s: logreg cell %+v, alone %+v", d, got, ref)
				}
				for i, f := range got.Folds {
					if a, b := f.Metrics["accuracy"], ref.Folds[i].Metrics["accuracy"]; a != b || a <= 0.5 {
						t.Errorf("%s fold %d: logreg accuracy %v beside the broken plugin, %v alone", d, i, a, b)
					}
				}
				c := cells[d+"|bad|ova"]
				if c == nil || !c.Failed() || len(c.Folds) != 0 {
					t.Fatalf("%s: the broken learner's cell %+v, want a failed cell", d, c)
				}
				for _, w := range append([]string{"repeat 0 fold 0: plugin broken (" + broken + "): "}, tc.want...) {
					if !strings.Contains(c.Error, w) {
						t.Errorf("%s: the broken learner's cell's error %q lacks %q", d, c.Error, w)
					}
				}
			}
			if md := readFile(t, filepath.Join(out, "startfail.md")); !strings.Contains(md, "| bad | failed | failed | – |") {
				t.Errorf("the report does not show the broken learner's cells failed:\n%s", md)
			}

			// Fixed (here: the logreg plugin under the broken one's name),
			// the same command computes the failed cells, the others kept.
			fixed, err := os.ReadFile(filepath.Join(pluginsDir, "bench-plugin-logreg"))
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
				c, ref := cells[d+"|bad|ova"], want[d+"|logreg|ova"]
				if c == nil || c.Failed() || len(c.Folds) != len(ref.Folds) {
					t.Fatalf("%s: the fixed learner's cell %+v", d, c)
				}
				for i, f := range c.Folds {
					if a, b := f.Metrics["accuracy"], ref.Folds[i].Metrics["accuracy"]; a != b {
						t.Errorf("%s fold %d: the fixed plugin's accuracy %v, logreg's %v", d, i, a, b)
					}
				}
			}
		})
	}
}
