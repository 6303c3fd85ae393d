package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
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
	a, b, own, res := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	gone := filepath.Join(a, "removed")
	rec := func(dir, name, content string) results.PluginRecord {
		path := filepath.Join(dir, "bench-plugin-"+name)
		if content != "" {
			if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		sum := sha256.Sum256([]byte(content))
		return results.PluginRecord{Name: name, Path: path, SHA256: hex.EncodeToString(sum[:])}
	}
	x, y, z := rec(a, "x", "x binary"), rec(b, "y", "y binary"), rec(a, "z", "z binary")
	if err := os.MkdirAll(filepath.Join(res, "cells"), 0o755); err != nil {
		t.Fatal(err)
	}
	shipped := rec(filepath.Join(res, "cells"), "lda", "a program that came with the results")
	edited := rec(b, "w", "w binary")
	edited.SHA256 = strings.Repeat("0", 64)
	unrecorded := rec(a, "u", "u binary")
	unrecorded.SHA256 = ""
	for _, tc := range []struct {
		name    string
		plugins []results.PluginRecord
		want    string
		skipped string
	}{
		{"two directories", []results.PluginRecord{x, y, z}, a + sep + b + sep + own, ""},
		{"bench's own", []results.PluginRecord{{Path: own + "/bench-plugin-x"}}, own, ""},
		{"a directory gone", []results.PluginRecord{{Path: gone + "/bench-plugin-x"}, y}, b + sep + own, ""},
		{"none recorded", nil, own, ""},
		{"no path", []results.PluginRecord{{Name: "x"}}, own, ""},
		// A results directory is data: what its manifest names is run
		// only when bench can tell it is the program the run used.
		{"a binary inside the results directory", []results.PluginRecord{shipped, y}, b + sep + own,
			"not searching " + filepath.Dir(shipped.Path) + " for plugins: the run recorded plugin lda as " + shipped.Path + ", inside the results directory " + res + " (bench runs no program that comes with results); name the plugins directory with --plugins to use it"},
		{"a relative path", []results.PluginRecord{{Name: "lda", Path: "bench-plugin-lda"}}, own,
			"not searching . for plugins: the run recorded plugin lda as bench-plugin-lda, a relative path (bench records absolute ones); name the plugins directory with --plugins to use it"},
		{"another program than the one recorded", []results.PluginRecord{edited}, own,
			"not searching " + b + " for plugins: the run recorded plugin w as " + edited.Path + ", but that file's sha256 is " + hexOf("w binary")[:12] + "…, not the 000000000000… recorded; name the plugins directory with --plugins to use it"},
		{"no digest recorded", []results.PluginRecord{unrecorded}, own,
			"not searching " + a + " for plugins: the run recorded plugin u as " + unrecorded.Path + ", but that file's sha256 is " + hexOf("u binary")[:12] + "…, not the … recorded; name the plugins directory with --plugins to use it"},
		{"a binary gone from a directory that exists", []results.PluginRecord{{Name: "v", Path: a + "/bench-plugin-v", SHA256: hexOf("v")}}, own,
			"not searching " + a + " for plugins: the run recorded plugin v as " + a + "/bench-plugin-v, which cannot be read (open " + a + "/bench-plugin-v: no such file or directory); name the plugins directory with --plugins to use it"},
	} {
		got, skipped := recordedPluginDirs(tc.plugins, own, res)
		if got != tc.want || strings.Join(skipped, "\n") != tc.skipped {
			t.Errorf("%s: %q, skipped %q\nwant %q, skipped %q", tc.name, got, skipped, tc.want, tc.skipped)
		}
	}
}

// hexOf is the hex SHA-256 of s.
func hexOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
