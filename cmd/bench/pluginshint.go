package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/host"
)

// pluginsHint is the hint that goes with the diagnostics of a plugin or
// scheme not found ("Unknown plugin", "Unknown scheme") when the plugins
// directories dirs (--plugins) leave out shipped, bench's own directory,
// and it holds plugins: --plugins replaces it rather than adding to it.
// "" otherwise.
func pluginsHint(diags hcl.Diagnostics, dirs, shipped string) string {
	if shipped == "" || !slices.ContainsFunc(diags, func(d *hcl.Diagnostic) bool {
		return d.Severity == hcl.DiagError && (d.Summary == "Unknown plugin" || d.Summary == "Unknown scheme")
	}) {
		return ""
	}
	for _, d := range filepath.SplitList(dirs) {
		if filepath.Clean(d) == filepath.Clean(shipped) {
			return ""
		}
	}
	if bins, err := host.Discover(shipped); err != nil || len(bins) == 0 {
		return ""
	}
	list := strings.TrimRight(dirs, string(os.PathListSeparator)) + string(os.PathListSeparator) + shipped
	return "hint: --plugins " + dirs + " replaces bench's own plugins directory " + shipped +
		" (the shipped learners and reducers, the schemes ova, ovo, ecoc among them): --plugins " + list + " searches both\n"
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
