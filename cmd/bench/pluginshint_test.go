package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// TestPluginsHint: a plugin or scheme not found, with --plugins leaving
// out bench's own directory of plugins, hints at adding it (the finding:
// --plugins DIR without :bin said only 'No plugin offers scheme "ova"');
// no hint when the list holds it, when it has no plugins, or for other
// errors. A plugin not found with bench's own directory searched hints
// at --plugins DIR:… for a plugin of one's own (the third trial's
// finding: 'no bench-plugin-tree in …/bin' said nothing of --plugins).
// A directory whose path holds the list separator is never written into
// a --plugins list, which would split it.
func TestPluginsHint(t *testing.T) {
	shipped, mine, empty := t.TempDir(), t.TempDir(), t.TempDir()
	sep := string(os.PathListSeparator)
	colon := filepath.Join(t.TempDir(), "x"+sep+"y", "bin")
	if err := os.MkdirAll(colon, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{shipped, colon} {
		if err := os.WriteFile(filepath.Join(d, "bench-plugin-reducers"), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	scheme := hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unknown scheme", Detail: `No plugin offers scheme "ova"; no plugin serves a reducer.`}}
	plugin := hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unknown plugin", Detail: "plugin not found: no bench-plugin-pycentroid in " + mine}}
	other := hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid parameter value"}}
	want := "hint: --plugins " + mine + " replaces bench's own plugins directory " + shipped +
		" (the shipped learners and reducers, the schemes ova, ovo, ecoc among them): --plugins " + mine + sep + shipped + " searches both\n"
	for _, tc := range []struct {
		name     string
		diags    hcl.Diagnostics
		dirs     []string
		shipped  string
		wantHint string
	}{
		{"unknown scheme", scheme, []string{mine}, shipped, want},
		{"unknown plugin", plugin, []string{mine}, shipped, want},
		{"bench's own listed", scheme, []string{mine, shipped}, shipped, ""},
		{"bench's own alone", scheme, []string{shipped + "/"}, shipped, ""},
		{"own plugin, bench's own alone", plugin, []string{shipped}, shipped, "hint: bench looks for a plugin NAME as bench-plugin-NAME in " + shipped +
			" only; for a plugin of your own in another directory, --plugins DIR" + sep + shipped + " searches both\n"},
		{"own plugin, bench's own listed", plugin, []string{mine, shipped}, shipped, "hint: bench looks for a plugin NAME as bench-plugin-NAME in " + mine + sep + shipped +
			" only; for a plugin of your own in another directory, --plugins DIR" + sep + mine + sep + shipped + " searches both\n"},
		{"own plugin, bench's own holding the separator", plugin, []string{colon}, colon, "hint: bench looks for a plugin NAME as bench-plugin-NAME in \"" + colon +
			"\" only; --plugins, which takes directories separated by \"" + sep + "\", cannot name a directory whose path holds it: to add a directory of your own plugins, install bench and its plugins under a path without \"" + sep + "\"\n"},
		{"unknown scheme, bench's own holding the separator", scheme, []string{mine}, colon, "hint: --plugins " + mine + " replaces bench's own plugins directory " + colon +
			" (the shipped learners and reducers, the schemes ova, ovo, ecoc among them); --plugins cannot name both, a path holding \"" + sep + "\" among them\n"},
		{"no plugins beside bench", scheme, []string{mine}, empty, ""},
		{"bench's directory unknown", scheme, []string{mine}, "", ""},
		{"another error", other, []string{mine}, shipped, ""},
		{"a warning", hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: "Unknown scheme"}}, []string{mine}, shipped, ""},
	} {
		if got := pluginsHint(tc.diags, tc.dirs, tc.shipped); got != tc.wantHint {
			t.Errorf("%s:\n%q\nwant\n%q", tc.name, got, tc.wantHint)
		}
	}
}
