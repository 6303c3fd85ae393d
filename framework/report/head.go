package report

import (
	"slices"
	"strconv"
	"strings"

	"github.com/polyclass/polyclass/framework/outcome"
)

// The report's head: what a reader must know before the tables (the run
// is partial, some cells failed, the experiment has warnings), built as
// one section of the model that every format writes under its title,
// before the views (in HTML before the navigation, as banners).

// headSection is the report's head: the partial run's note, the
// experiment's warnings and, in HTML, the count of failed cells (cells:
// those with a result); JSON holds the note and the warnings as the
// fields "partial" and "warnings", when there are any.
func headSection(t *Tables, cells []*outcome.CellResult) section {
	var s section
	if t.Partial != "" {
		s.Blocks = append(s.Blocks, partialBlocks(t.Partial)...)
		s.JSON = append(s.JSON, jsonField{"partial", t.Partial})
	}
	if warnings := append(slices.Clone(t.Warnings), t.FigureWarnings...); len(warnings) > 0 {
		s.Blocks = append(s.Blocks, warningBlocks(warnings, len(t.FigureWarnings))...)
		s.JSON = append(s.JSON, jsonField{"warnings", warnings})
	}
	if n := failedCells(cells); n > 0 {
		s.Blocks = append(s.Blocks, banner{ID: "failed", Class: "banner failed", Text: text{strong(plural(n, "cell") + " failed"),
			span{S: " (of " + strconv.Itoa(len(cells)) + " with a result): their entries read &ldquo;failed&rdquo;; run.log has their errors.", Style: raw}}})
	}
	return s
}

// partialBlocks say that the run is partial, and why: a quote in
// Markdown, a banner in HTML, a comment in LaTeX.
func partialBlocks(why string) []block {
	return []block{
		para{Text: text{{S: "> **Partial results:** " + why + ".", Style: raw}}, In: only(mdFormat)},
		banner{ID: "partial", Class: "banner", Text: text{strong("Partial run:"), {S: " " + why + ". The tables and figures show the finished cells only."}}},
		para{Text: txt("Partial results: " + why + "."), In: only(texFormat)},
	}
}

// warningBlocks list the experiment's warnings, then the last figures of
// them, which name the figures that could not be drawn, each on one line:
// a Warnings section in Markdown, a banner in HTML, a comment each in
// LaTeX (for the author, not the paper).
func warningBlocks(warnings []string, figures int) []block {
	items, whole := make([]text, len(warnings)), make([]text, len(warnings))
	source := " (as bench validate gives them):"
	switch {
	case figures == len(warnings):
		source = " (figures that could not be drawn):"
	case figures > 0:
		source = " (as bench validate gives them, then the figures that could not be drawn):"
	}
	for i, w := range warnings {
		items[i], whole[i] = txt(strings.ReplaceAll(w, "\n", " ")), txt(w)
	}
	out := []block{heading{Level: 2, Text: txt("Warnings"), In: only(mdFormat)}, list{Items: items, In: only(mdFormat)},
		banner{ID: "warnings", Class: "banner", Text: text{strong(plural(len(warnings), "warning")), {S: source}}, Items: whole}}
	for _, w := range warnings {
		out = append(out, para{Text: txt("Warning: " + w), In: only(texFormat)})
	}
	return out
}

// failedCells counts the failed cells.
func failedCells(cells []*outcome.CellResult) int {
	n := 0
	for _, c := range cells {
		if c.Failed() {
			n++
		}
	}
	return n
}
