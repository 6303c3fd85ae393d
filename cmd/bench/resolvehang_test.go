package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestResolveCallDeadline: a learner plugin stuck in CheckParams (the
// check of its parameters that bench validate and bench run make before
// any cell runs) made both wait forever. Each call now has a deadline,
// cv.timeout when shorter than engine.DefaultResolveCallTimeout: the
// command ends with a located error naming the plugin, the call and the
// bound, and showing the plugin's stderr.
func TestResolveCallDeadline(t *testing.T) {
	t.Parallel()
	src := `experiment "hung" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "hangcheck" {}
reduction "ova" {}
cv {
  folds   = 3
  timeout = 1
}
`
	dirs := filepath.Join(pluginsDir, "hangcheck") + string(os.PathListSeparator) + pluginsDir
	for _, cmd := range []string{"validate", "run"} {
		t.Run(cmd, func(t *testing.T) {
			file := writeExperiment(t, src)
			args := []string{cmd, "--plugins", dirs, file}
			if cmd == "run" {
				args = []string{cmd, "--plugins", dirs, "--quiet", "-o", filepath.Join(t.TempDir(), "out"), file}
			}
			var stdout, stderr strings.Builder
			err := run(commandContext(t), args, &stdout, &stderr)
			if err == nil {
				t.Fatalf("bench %s: no error\n%s", cmd, stderr.String())
			}
			out := stdout.String() + stderr.String() + err.Error()
			for _, want := range []string{
				"exp.hcl:3:9: error: Plugin failed",
				`Learner "hangcheck" (plugin hangcheck) could not check its parameters: plugin hangcheck (` + filepath.Join(pluginsDir, "hangcheck", "bench-plugin-hangcheck") + `) did not answer CheckParams within 1s (cv.timeout, at most 2m0s, bounds the plugin calls made before any cell runs); it was stopped`,
				"plugin stderr:\nbroken: stuck in CheckParams",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("bench %s: output lacks %q:\n%s", cmd, want, out)
				}
			}
		})
	}
}

// TestResolvePluginExit: a reducer plugin whose process ends in its Plan
// (out of memory on a plan too large, a crash) made bench validate say
// only "plugin unreachable (its process may have ended): error reading
// from server: EOF". The error now says that the process ended, how,
// and shows the end of its stderr, at the reduction.
func TestResolvePluginExit(t *testing.T) {
	t.Parallel()
	src := `experiment "ends" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" {}
reduction "mine" {
  plugin = "knobs"
  scheme = "ova"
  exit   = 3
}
cv { folds = 3 }
`
	dirs := filepath.Join(pluginsDir, "third") + string(os.PathListSeparator) + pluginsDir
	file := writeExperiment(t, src)
	var stdout, stderr strings.Builder
	err := run(commandContext(t), []string{"validate", "--plugins", dirs, file}, &stdout, &stderr)
	if err == nil {
		t.Fatalf("bench validate: no error\n%s", stderr.String())
	}
	out := stdout.String() + stderr.String()
	for _, want := range []string{
		"exp.hcl:6:12: error: Invalid reduction",
		"plugin knobs (" + filepath.Join(pluginsDir, "third", "bench-plugin-knobs") + ") ended during Plan (exit status 3)",
		"plugin stderr:\nknobs: exiting with status 3 in Plan",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
