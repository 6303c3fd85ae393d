package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/results"
)

// TestRerunReusesRecordedPlugins: bench rerun without --plugins finds the
// plugins in the directories the run recorded (the finding: "plugin not
// found" for a run made with --plugins), and lists those that still
// exist in order before bench's own directory.
func TestRerunReusesRecordedPlugins(t *testing.T) {
	file := writeExperiment(t, `experiment "plugdirs" { seed = 2 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "lda" {}
reduction "ova" {}
cv { folds = 3 }
`)
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	// No --plugins: bench's own directory (the test binary's) has none.
	var stdout, stderr bytes.Buffer
	if err := run(commandContext(t), []string{"rerun", "--quiet", "-o", filepath.Join(t.TempDir(), "again"), out}, &stdout, &stderr); err != nil ||
		!strings.Contains(stdout.String(), "identical results (1 cells") {
		t.Fatalf("rerun without --plugins: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	sep := string(os.PathListSeparator)
	a, b, own := t.TempDir(), t.TempDir(), t.TempDir()
	gone := filepath.Join(a, "removed")
	for _, tc := range []struct {
		name    string
		plugins []results.PluginRecord
		want    string
	}{
		{"two directories", []results.PluginRecord{{Path: a + "/bench-plugin-x"}, {Path: b + "/bench-plugin-y"}, {Path: a + "/bench-plugin-z"}}, a + sep + b + sep + own},
		{"bench's own", []results.PluginRecord{{Path: own + "/bench-plugin-x"}}, own},
		{"a directory gone", []results.PluginRecord{{Path: gone + "/bench-plugin-x"}, {Path: b + "/bench-plugin-y"}}, b + sep + own},
		{"none recorded", nil, own},
		{"no path", []results.PluginRecord{{Name: "x"}}, own},
	} {
		if got := recordedPluginDirs(tc.plugins, own); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
