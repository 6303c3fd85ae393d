package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/engine"
)

// warnings returns every warning validate prints for an experiment: the
// warning diagnostics of its file (diags: the parser's, the resolver's,
// the grid's), each as "FILE:LINE:COL: summary: detail", then the
// warnings of the code matrices of grid g (engine.Grid.CodeWarnings). It
// is the one list bench computes: validate prints it (the diagnostics
// with their source lines, the code matrices' warnings under their
// table), run, rerun and submit print it before any work starts, and the
// results record it (manifest.json) for the report's Warnings section.
// Paths under the experiment file's directory are given relative to it,
// so that a run of exp.hcl and one of /abs/exp.hcl record the same text.
func warnings(diags hcl.Diagnostics, g *engine.Grid) []string {
	dir := g.Experiment.Dir
	rel := func(s string) string {
		if dir == "" || dir == "." {
			return s
		}
		return strings.ReplaceAll(s, dir+string(filepath.Separator), "")
	}
	var out []string
	for _, d := range diags {
		if d.Severity != hcl.DiagWarning {
			continue
		}
		at := ""
		if s := d.Subject; s != nil {
			at = fmt.Sprintf("%s:%d:%d: ", relativeTo(dir, s.Filename), s.Start.Line, s.Start.Column)
		}
		out = append(out, rel(at+d.Summary+": "+d.Detail))
	}
	for _, w := range g.CodeWarnings() {
		out = append(out, rel(w))
	}
	return out
}

// printCodeWarnings prints the code matrices' warnings of grid g, each
// as "warning: …": run, rerun and submit print them before any work
// starts (the file's warning diagnostics prepare printed already), as
// validate does under its table of the code matrices.
func printCodeWarnings(w io.Writer, g *engine.Grid) {
	for _, s := range g.CodeWarnings() {
		fmt.Fprintf(w, "warning: %s\n", s)
	}
}
