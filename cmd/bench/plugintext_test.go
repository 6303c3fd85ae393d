package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPluginTextEscaped runs a learner whose Fit writes an escape
// sequence that sets the terminal's title, one that clears the screen, a
// carriage return and a right-to-left override to stderr and fails with
// them as its error (broken/bench-plugin-hostilefit; campaign 8 N12: the
// failed cell's line on the terminal and in run.log, and the relayed
// stderr, held them raw). Every channel a person reads shows them
// escaped; the cell file keeps the error as the plugin gave it, in JSON.
func TestPluginTextEscaped(t *testing.T) {
	t.Parallel()
	src := `experiment "adv" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "hostilefit" {}
reduction "ova" {}
cv { folds = 3 }
`
	const escaped = `bad \x1b[31mRED\x1b]0;pwned-title\a rev\u202eesrever \rOVERWRITE\x1b[2J`
	const raw = "bad \x1b[31mRED\x1b]0;pwned-title\x07 rev\u202eesrever \rOVERWRITE\x1b[2J"
	file := writeExperiment(t, src)
	out := filepath.Join(t.TempDir(), "out")
	dirs := filepath.Join(pluginsDir, "broken") + string(os.PathListSeparator) + pluginsDir
	var stdout, stderr strings.Builder
	err := run(commandContext(t), []string{"run", "--plugins", dirs, "-o", out, file}, &stdout, &stderr)
	runLog, _ := os.ReadFile(filepath.Join(out, "run.log"))
	errText := ""
	if err != nil {
		errText = err.Error()
	}
	tests := []struct {
		name, text string
		want       []string // escaped lines it must hold
	}{
		{"terminal", stdout.String() + stderr.String() + errText, []string{"cell 0 (iris|none|hostilefit||ova) failed: repeat 0 fold "}},
		{"run.log", string(runLog), []string{"cell 0 (iris|none|hostilefit||ova) failed: repeat 0 fold ", escaped, "[hostilefit] " + escaped + "\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if i := strings.IndexAny(tt.text, "\x1b\x07\u202e"); i >= 0 || strings.Contains(tt.text, "\rOVERWRITE") {
				t.Errorf("%s holds the plugin's control characters raw (at byte %d):\n%q", tt.name, i, tt.text)
			}
			for _, w := range tt.want {
				if !strings.Contains(tt.text, w) {
					t.Errorf("%s lacks %q:\n%s", tt.name, w, tt.text)
				}
			}
		})
	}
	t.Run("cell file", func(t *testing.T) {
		files, _ := filepath.Glob(filepath.Join(out, "cells", "*.json"))
		if len(files) != 1 {
			t.Fatalf("cell files %q, want 1", files)
		}
		b, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		var cell struct{ Error string }
		if err := json.Unmarshal(b, &cell); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(cell.Error, raw) {
			t.Errorf("cell 0's error %q lacks the plugin's text as it is, %q", cell.Error, raw)
		}
	})
}
