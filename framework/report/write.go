package report

import (
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/polyclass/polyclass/framework/metrics"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/plots"
)

// IsTiming reports whether a metric is a timing (fit_seconds,
// predict_seconds), which the tables report without ranking it.
func IsTiming(name string) bool {
	m, err := metrics.Lookup(name)
	return err == nil && m.Kind.Has(metrics.Timing)
}

// HigherIsBetter looks up whether higher values of a metric are better;
// an unknown name is an error (metrics.Lookup's, naming the metrics), not
// a direction.
func HigherIsBetter(name string) (bool, error) {
	m, err := metrics.Lookup(name)
	if err != nil {
		return false, err
	}
	return m.HigherIsBetter, nil
}

// Spec is what the outputs of a run show: the experiment's name, metrics,
// formats and comparison settings, all recorded in the run's manifest so
// that the outputs can be rendered again from the results directory alone.
type Spec struct {
	Experiment string
	Metrics    []string
	Formats    []string
	// Baseline names the row (FindRow rule) compared with every other row
	// at level Alpha (config.DefaultAlpha when 0).
	Baseline string
	Alpha    float64
	// RankTimings ranks and tests timing metrics like the others; without
	// it their tables show the means only.
	RankTimings bool
	// Predictions asks for the per-row predictions, one file per dataset
	// (predictions/DATASET.csv).
	Predictions bool
	// ConfusionRows names the rows whose confusion matrices are drawn.
	ConfusionRows []string
	// Partial, when not empty, says that the run is incomplete ("12 of 40
	// cells; run interrupted"); every table header repeats it.
	Partial string
	// Setup, when set, is the set-up section of the HTML report.
	Setup *Setup
	// ComputedBy names the programs that computed the cells, with the
	// number of cells of each: the builds of bench and the plugins with
	// their versions, digests and runtimes ("bench (devel) 3f2a9c1d0e4b:
	// 15 cells"). The Markdown, JSON and HTML outputs list them.
	ComputedBy []string
	// Rope, when set, asks for the Bayesian comparisons of every ranked
	// metric (see Bayes) with a region of practical equivalence of this
	// half-width: each row against the baseline, or every pair of rows
	// with BayesPairs.
	Rope       *float64
	BayesPairs bool
	// Seed is the experiment's seed; the Monte Carlo samples of the
	// Bayesian signed-rank tests are drawn from seeds derived from it.
	Seed uint64
	// Warnings are the experiment's warnings, as validate gives them;
	// the Markdown, HTML, LaTeX and JSON outputs list them.
	Warnings []string
	// Notes, when set, receives a line "warning: …" for each figure that
	// could not be drawn (Files); the outputs' warnings list them too.
	Notes io.Writer
}

// File is one output file: its path relative to the results directory
// ("summary.csv", "plots/box_accuracy.png") and what to write into it.
type File struct {
	Name  string
	Write func(io.Writer) error
}

// Format is an output format a run can write; output { formats = [...] }
// names it, and the experiment file is checked against FormatNames.
type Format struct {
	Name string
	// Writes says which files of the results directory it writes.
	Writes string
	// figures says that the format shows the figures: they are then
	// written under plots/ too, once whichever formats ask for them.
	figures bool
	// files returns its files (none for plots, which is the figures).
	files func(o *outputs) []File
	// after returns its files listed after the figures' (nil: none), so
	// that the first files listed stay those of earlier versions.
	after func(o *outputs) []File
}

// outputs is what the formats' files are made from.
type outputs struct {
	spec   Spec
	tables *Tables
	figs   []Figure
	cells  []*outcome.CellResult
}

// Formats returns the output formats a run can write, in the order bench
// list formats shows them.
func Formats() []Format {
	return []Format{
		{Name: "markdown", Writes: "NAME.md: a comparison table per metric, with the tests across datasets", files: markdownFiles},
		{Name: "csv", Writes: "summary.csv (a row per cell and metric), folds.csv (a row per cell, fold and metric) and per_class.csv (per-class precision, recall, F1 and support)", files: csvFiles, after: perClassFiles},
		{Name: "json", Writes: "NAME.json: the tables and tests, for programs", files: jsonFiles},
		{Name: "latex", Writes: "NAME.tex: the tables in booktabs, ready to \\input", figures: true, files: latexFiles},
		{Name: "html", Writes: "NAME.html: a self-contained report with the tables and plots", figures: true, files: htmlFiles},
		{Name: "plots", Writes: "plots/: box plots, critical-difference diagrams and confusion matrices (PNG and SVG)", figures: true,
			files: func(*outputs) []File { return nil }},
	}
}

// FormatNames returns the names of the output formats, in Formats' order:
// what an experiment's output { formats = [...] } may name.
func FormatNames() []string {
	var names []string
	for _, f := range Formats() {
		names = append(names, f.Name)
	}
	return names
}

// lookupFormat returns the format called name.
func lookupFormat(name string) (Format, error) {
	for _, f := range Formats() {
		if f.Name == name {
			return f, nil
		}
	}
	return Format{}, fmt.Errorf("unknown output format %q; the formats are: %s", name, strings.Join(FormatNames(), ", "))
}

func csvFiles(o *outputs) []File {
	sums := Summarise(o.cells, o.spec.Metrics)
	files := []File{
		{"summary.csv", func(w io.Writer) error { return WriteSummaryCSV(w, sums) }},
		{"folds.csv", func(w io.Writer) error { return WriteFoldsCSV(w, o.cells, o.spec.Metrics) }},
	}
	if len(o.tables.Selected) > 0 {
		files = append(files, File{"tuning.csv", func(w io.Writer) error { return WriteTuningCSV(w, o.cells) }})
	}
	return files
}

// perClassFiles is per_class.csv, when the cells have per-class reports.
func perClassFiles(o *outputs) []File {
	if len(o.tables.PerClass) == 0 {
		return nil
	}
	return []File{{"per_class.csv", func(w io.Writer) error { return WritePerClassCSV(w, o.tables) }}}
}

func markdownFiles(o *outputs) []File {
	return []File{{o.spec.Experiment + ".md", func(w io.Writer) error { return WriteMarkdown(w, o.tables, o.cells) }}}
}

func latexFiles(o *outputs) []File {
	return []File{{o.spec.Experiment + ".tex", func(w io.Writer) error { return WriteLaTeX(w, o.tables) }}}
}

func htmlFiles(o *outputs) []File {
	return []File{{o.spec.Experiment + ".html", func(w io.Writer) error {
		return WriteHTML(w, HTMLReport{Tables: o.tables, Figures: o.figs, Cells: o.cells, Setup: o.spec.Setup, ConfusionRows: o.spec.ConfusionRows})
	}}}
}

func jsonFiles(o *outputs) []File {
	return []File{{o.spec.Experiment + ".json", func(w io.Writer) error { return WriteJSON(w, o.tables) }}}
}

// Files returns every output of a run, in order; the caller (package
// results) writes them, per format in s.Formats (see Formats):
//
//	csv       summary.csv and folds.csv (tidy: a row per cell × metric, and
//	          per cell × fold × metric), tuning.csv when cells were
//	          tuned (a row per cell × fold × candidate), and per_class.csv
//	          (a row per cell × class: the per-class report)
//	markdown  NAME.md    comparison tables + statistics + code matrices
//	latex     NAME.tex   booktabs table floats for \input
//	html      NAME.html  self-contained report with the figures inline
//	json      NAME.json  tables, ranks and tests, machine-readable
//
// with NAME = s.Experiment. When the formats include "latex", "html" or
// "plots", the figures are also written under plots/ as PNG and SVG
// (box_METRIC, cd_METRIC, cd_control_METRIC, and for each dataset's drawn
// rows confusion_DATASET_ROW, curves_DATASET_ROW, reliability_DATASET_ROW).
// predictions/DATASET.csv
// (see WritePredictionsCSV) are included when s.Predictions is set, for
// every dataset with a cell that kept its predictions (they are not stored
// in the cell files, so re-rendering a results directory cannot rewrite
// them). The same spec and cells always give the same bytes. A format
// that is not one of Formats is an error. A figure that cannot be drawn
// costs no table and no other figure: it is left out, and the outputs'
// warnings (and s.Notes) name it and say why; the run's tables are
// complete, so it is a warning, not an error.
func Files(s Spec, cells []*outcome.CellResult) ([]File, error) {
	formats := make([]Format, len(s.Formats))
	figures := false
	for i, name := range s.Formats {
		f, err := lookupFormat(name)
		if err != nil {
			return nil, err
		}
		formats[i], figures = f, figures || f.figures
	}
	o := &outputs{spec: s, tables: BuildTables(s, cells), cells: cells}
	o.tables.Partial = s.Partial
	o.tables.ComputedBy = s.ComputedBy
	o.tables.Warnings = s.Warnings
	if figures {
		figs, failed, err := buildFigures(o.tables, cells, s.ConfusionRows)
		if err != nil {
			return nil, err
		}
		o.figs = figs
		o.tables.FigureWarnings = failed
		if s.Notes != nil {
			for _, f := range failed {
				fmt.Fprintf(s.Notes, "warning: %s\n", f)
			}
		}
	}
	var files []File
	for _, f := range formats {
		files = append(files, f.files(o)...)
	}
	for _, f := range o.figs {
		fig := f.Fig
		files = append(files,
			File{path.Join("plots", f.Name+".png"), func(w io.Writer) error { return fig.WritePNG(w, plots.DefaultDPI) }},
			File{path.Join("plots", f.Name+".svg"), fig.WriteSVG})
	}
	for _, f := range formats {
		if f.after != nil {
			files = append(files, f.after(o)...)
		}
	}
	if s.Predictions {
		files = append(files, PredictionFiles(cells)...)
	}
	return files, nil
}
