package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
)

// writtenSummary says what a run, table or merge wrote into the results
// directory dir: each file at its top (the tables, manifest.json) by
// name, the number of files in each folder (plots/, predictions/), the
// cells (those the directory holds; for a shard, those of the shard,
// said so; nothing at all when nothing was written) and the report's
// path (the HTML report, else the Markdown tables), with a hint that
// --verbose lists every file. verbose lists every path written instead,
// one a line.
func writtenSummary(w io.Writer, dir string, written []string, cells int, shard, verbose bool) {
	if verbose {
		for _, f := range written {
			fmt.Fprintf(w, "  %s\n", shownPath(f))
		}
		return
	}
	var top []string
	folders := map[string]int{}
	var order []string
	for _, f := range written {
		rel, err := filepath.Rel(dir, f)
		if err != nil || strings.HasPrefix(rel, "..") {
			rel = f
		}
		folder, _, inFolder := strings.Cut(filepath.ToSlash(rel), "/")
		if !inFolder {
			top = append(top, rel)
			continue
		}
		if folders[folder] == 0 {
			order = append(order, folder)
		}
		folders[folder]++
	}
	if len(top) > 0 {
		fmt.Fprintf(w, "  %s: %s\n", shownPath(dir), strings.Join(top, ", "))
	}
	for _, folder := range order {
		fmt.Fprintf(w, "  %s: %s\n", shownPath(filepath.Join(dir, folder)), plural(folders[folder], "file"))
	}
	if cells > 0 && len(written) > 0 {
		of := ""
		if shard {
			of = " of this shard"
		}
		fmt.Fprintf(w, "  %s: %s%s\n", shownPath(filepath.Join(dir, "cells")), plural(cells, "cell"), of)
	}
	if r := reportOf(top); r != "" {
		fmt.Fprintf(w, "  report: %s\n", shownPath(filepath.Join(dir, r)))
	}
	if len(order) > 0 {
		fmt.Fprintf(w, "  (--verbose lists every file)\n")
	}
}

// shownPath is path as printed: with "./" before a relative path that
// starts with "~" or "$" (a directory named so, which config.Unexpanded
// lets through as "./~/x"), so that it does not read as the home
// directory or a variable; filepath.Join drops the "./".
func shownPath(path string) string {
	if strings.HasPrefix(path, "~") || strings.HasPrefix(path, "$") {
		return "./" + path
	}
	return path
}

// reportOf is the report among the files at the top of the results
// directory: the HTML report, else the Markdown tables; "" for neither.
func reportOf(top []string) string {
	for _, ext := range []string{".html", ".md"} {
		if i := slices.IndexFunc(top, func(f string) bool { return filepath.Ext(f) == ext }); i >= 0 {
			return top[i]
		}
	}
	return ""
}
