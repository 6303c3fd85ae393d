package report

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/polyclass/polyclass/framework/setup"
)

// Setup is the experiment's set-up as the HTML report's first section
// shows it: what a reader needs to repeat the run or judge its numbers.
// Package results fills it from the run's manifest.
type Setup struct {
	// File is the experiment file and FileSHA256 its digest.
	File       string
	FileSHA256 string
	Seed       uint64
	CV         CVInfo
	Datasets   []DatasetInfo
	Plugins    []PluginInfo
	GoVersion  string
	// Status is the run's status; Cells the cells of the grid, Finished
	// those with a result and Failed those among them that failed.
	Status   string
	Cells    int
	Finished int
	Failed   int
	// Rows describe the rows of the tables: what each shows (labels) and
	// its whole set-up (the set-up table); nil when the run recorded none.
	Rows []setup.Row
	// Source is the experiment file's text, shown at the end of the HTML
	// report; empty when the run recorded none.
	Source string
}

// CVInfo is the resampling of a run.
type CVInfo struct {
	Folds      int
	Repeats    int
	Stratified bool
	// Iterative is iterative stratification (multi-label data).
	Iterative bool
	// Holdout, when in (0, 1), is the test fraction of a holdout split.
	Holdout float64
	// FoldsFile, when set, gives the folds instead.
	FoldsFile string
}

// DatasetInfo is the shape of one dataset.
type DatasetInfo struct {
	Name   string
	Path   string
	SHA256 string
	// TestPath, when set, is the test file (Rows counts both files).
	TestPath string
	Rows     int
	// Numeric and Categorical count the feature columns (target left out).
	Numeric     int
	Categorical int
	MultiLabel  bool
	// Classes are the classes (labels, for multi-label data) with their
	// number of rows, in class index order.
	Classes []ClassCount
}

// ClassCount is the number of rows of one class (or, for multi-label
// data, the number of rows carrying the label).
type ClassCount struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// PluginInfo identifies one plugin binary.
type PluginInfo struct {
	Name    string
	Version string
	SHA256  string
}

// String describes the resampling in words, e.g. "10-fold stratified
// cross-validation, 2 repeats".
func (cv CVInfo) String() string {
	repeats := ""
	if cv.Repeats > 1 {
		repeats = fmt.Sprintf(", %d repeats", cv.Repeats)
	}
	strat := ""
	switch {
	case cv.Iterative:
		strat = " iteratively stratified"
	case cv.Stratified:
		strat = " stratified"
	}
	switch {
	case cv.FoldsFile != "":
		return fmt.Sprintf("folds given by %s", filepath.Base(cv.FoldsFile)) + repeats
	case cv.Holdout > 0:
		return fmt.Sprintf("%s%% of rows held out for testing (%srandom split)",
			strconv.FormatFloat(100*cv.Holdout, 'f', -1, 64), strings.TrimPrefix(strat+" ", " ")) + repeats
	case cv.Folds > 0:
		return fmt.Sprintf("%d-fold%s cross-validation", cv.Folds, strat) + repeats
	}
	return "not recorded"
}

// features describes a dataset's feature columns: "4 (4 numeric)".
func (d DatasetInfo) features() string {
	var kinds []string
	if d.Numeric > 0 {
		kinds = append(kinds, fmt.Sprintf("%d numeric", d.Numeric))
	}
	if d.Categorical > 0 {
		kinds = append(kinds, fmt.Sprintf("%d categorical", d.Categorical))
	}
	if len(kinds) == 0 {
		return "–"
	}
	return fmt.Sprintf("%d (%s)", d.Numeric+d.Categorical, strings.Join(kinds, ", "))
}

// setupList is the HTML set-up's list: the run's file, resampling, seed,
// cells, Go version and the programs that computed its cells
// (computedBy).
func setupList(s *Setup, computedBy []string) string {
	var b strings.Builder
	b.WriteString("<dl class=\"setup\">\n")
	item := func(term, def string) { fmt.Fprintf(&b, "<dt>%s</dt><dd>%s</dd>\n", term, def) }
	if s.File != "" {
		item("Experiment file", fmt.Sprintf("<code>%s</code> <span class=\"digest\">SHA-256 %s</span>",
			htmlEscape(filepath.Base(s.File)), htmlEscape(s.FileSHA256)))
	}
	item("Resampling", htmlEscape(s.CV.String()))
	item("Seed", strconv.FormatUint(s.Seed, 10))
	cells := fmt.Sprintf("%d of %d finished, %d failed", s.Finished, s.Cells, s.Failed)
	if s.Status != "" {
		cells += " (run status: " + htmlEscape(s.Status) + ")"
	}
	item("Cells", cells)
	if s.GoVersion != "" {
		item("Go", htmlEscape(s.GoVersion))
	}
	if len(computedBy) > 0 {
		lines := make([]string, len(computedBy))
		for i, l := range computedBy {
			lines[i] = htmlEscape(l)
		}
		item("Computed by", strings.Join(lines, "<br>\n"))
	}
	b.WriteString("</dl>\n")
	return b.String()
}

// datasetsTable is the HTML set-up's table of the datasets: their shapes,
// class counts, files and digests.
func datasetsTable(s *Setup) table {
	t := table{ID: "setup-datasets", Columns: []column{{Head: txt("dataset")}, {Head: txt("rows"), Num: true}, {Head: txt("features"), Num: true},
		{Head: txt("classes"), Num: true}, {Head: txt("rows per class"), Class: "wrap"}, {Head: txt("file")}, {Head: txt("SHA-256"), Class: "digest"}}}
	for _, d := range s.Datasets {
		counts := make([]string, len(d.Classes))
		for i, c := range d.Classes {
			counts[i] = fmt.Sprintf("%s: %d", c.Name, c.Count)
		}
		k := strconv.Itoa(len(d.Classes))
		if d.MultiLabel {
			k += " labels"
		}
		file := "<code>" + htmlEscape(d.Path) + "</code>"
		if d.TestPath != "" {
			file += " + test <code>" + htmlEscape(d.TestPath) + "</code>"
		}
		cells := cellsOf(d.Name, strconv.Itoa(d.Rows), d.features(), k, strings.Join(counts, ", "), "", d.SHA256)
		cells[5].Text = text{{S: file, Style: raw}}
		t.Rows = append(t.Rows, tableRow{Cells: cells})
	}
	return t
}

// pluginsTable is the HTML set-up's table of the plugins: versions and
// digests.
func pluginsTable(s *Setup) table {
	t := table{ID: "setup-plugins", Columns: []column{{Head: txt("plugin")}, {Head: txt("version")}, {Head: txt("SHA-256 of the binary"), Class: "digest"}}}
	for _, p := range s.Plugins {
		t.Rows = append(t.Rows, tableRow{Cells: cellsOf(p.Name, p.Version, p.SHA256)})
	}
	return t
}

// computedBySection names the programs that computed the cells
// (Markdown's list at the end, JSON; the HTML set-up lists them).
func computedBySection(computedBy []string) []section {
	if len(computedBy) == 0 {
		return nil
	}
	items := make([]text, len(computedBy))
	for i, l := range computedBy {
		items[i] = txt(l)
	}
	return []section{{Title: "Computed by", In: only(mdFormat, jsonFormat), Blocks: []block{list{Items: items}},
		JSON: []jsonField{{"computed_by", computedBy}}}}
}
