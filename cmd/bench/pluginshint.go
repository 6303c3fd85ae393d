package main

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/host"
)

// pluginsHint is the hint that goes with the diagnostics of a plugin or
// scheme not found ("Unknown plugin", "Unknown scheme"): when the plugins
// directories dirs (of --plugins) leave out shipped, bench's own directory,
// and it holds plugins, that --plugins replaces it rather than adding to
// it; when dirs hold it and a plugin is not found, how to add a
// directory of one's own plugins. "" otherwise.
func pluginsHint(diags hcl.Diagnostics, dirs []string, shipped string) string {
	if shipped == "" || !hasError(diags, "Unknown plugin", "Unknown scheme") {
		return ""
	}
	sep := string(os.PathListSeparator)
	if slices.ContainsFunc(dirs, func(d string) bool { return filepath.Clean(d) == filepath.Clean(shipped) }) {
		if !hasError(diags, "Unknown plugin") {
			return ""
		}
		hint := "hint: bench looks for a plugin NAME as bench-plugin-NAME in " + host.ShowDirs(dirs) + " only; "
		if list, err := host.JoinDirs(dirs); err == nil {
			return hint + "for a plugin of your own in another directory, --plugins DIR" + sep + list + " searches both\n"
		}
		return hint + "--plugins, which takes directories separated by " + strconv.Quote(sep) + ", cannot name a directory whose path holds it: to add a directory of your own plugins, install bench and its plugins under a path without " + strconv.Quote(sep) + "\n"
	}
	if bins, err := host.Discover(shipped); err != nil || len(bins) == 0 {
		return ""
	}
	hint := "hint: --plugins " + host.ShowDirs(dirs) + " replaces bench's own plugins directory " + shipped +
		" (the shipped learners and reducers, the schemes ova, ovo, ecoc among them)"
	if list, err := host.JoinDirs(append(slices.Clone(dirs), shipped)); err == nil {
		return hint + ": --plugins " + list + " searches both\n"
	}
	return hint + "; --plugins cannot name both, a path holding " + strconv.Quote(sep) + " among them\n"
}

// hasError reports whether diags hold an error with one of the summaries.
func hasError(diags hcl.Diagnostics, summaries ...string) bool {
	return slices.ContainsFunc(diags, func(d *hcl.Diagnostic) bool {
		return d.Severity == hcl.DiagError && slices.Contains(summaries, d.Summary)
	})
}

// benchDir is the directory of the bench executable, where make build
// puts the shipped plugins; "" when it cannot be found.
func benchDir() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return filepath.Dir(exe)
}
