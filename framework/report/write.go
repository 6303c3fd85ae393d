package report

import (
	"io"
	"path"

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

// HigherIsBetter looks up whether higher values of a metric are better
// (unknown names count as higher-is-better).
func HigherIsBetter(name string) bool {
	m, err := metrics.Lookup(name)
	return err != nil || m.HigherIsBetter
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
}

// File is one output file: its path relative to the results directory
// ("summary.csv", "plots/box_accuracy.png") and what to write into it.
type File struct {
	Name  string
	Write func(io.Writer) error
}

// Files returns every output of a run, in order; the caller (package
// results) writes them, per format in s.Formats:
//
//	csv       summary.csv and folds.csv (tidy: a row per cell × metric, and
//	          per cell × fold × metric), and tuning.csv when cells were
//	          tuned (a row per cell × fold × candidate)
//	markdown  NAME.md    comparison tables + statistics + code matrices
//	latex     NAME.tex   booktabs table floats for \input
//	html      NAME.html  self-contained report with the figures inline
//	json      NAME.json  tables, ranks and tests, machine-readable
//
// with NAME = s.Experiment. When the formats include "latex", "html" or
// "plots", the figures are also written under plots/ as PNG and SVG
// (box_METRIC, cd_METRIC, cd_control_METRIC, confusion_DATASET_ROW).
// predictions/DATASET.csv
// (see WritePredictionsCSV) are included when s.Predictions is set, for
// every dataset with a cell that kept its predictions (they are not stored
// in the cell files, so re-rendering a results directory cannot rewrite
// them). The same spec and cells always give the
// same bytes.
func Files(s Spec, cells []*outcome.CellResult) ([]File, error) {
	var files []File
	tables := BuildTables(s, cells)
	tables.Partial = s.Partial
	tables.ComputedBy = s.ComputedBy
	formats := map[string]bool{}
	for _, f := range s.Formats {
		formats[f] = true
	}
	var figs []Figure
	if formats["html"] || formats["latex"] || formats["plots"] {
		var err error
		if figs, err = BuildFigures(tables, cells, s.ConfusionRows); err != nil {
			return nil, err
		}
	}
	for _, f := range s.Formats {
		switch f {
		case "csv":
			sums := Summarise(cells, s.Metrics)
			files = append(files,
				File{"summary.csv", func(w io.Writer) error { return WriteSummaryCSV(w, sums) }},
				File{"folds.csv", func(w io.Writer) error { return WriteFoldsCSV(w, cells, s.Metrics) }})
			if len(tables.Selected) > 0 {
				files = append(files, File{"tuning.csv", func(w io.Writer) error { return WriteTuningCSV(w, cells) }})
			}
		case "markdown":
			files = append(files, File{s.Experiment + ".md", func(w io.Writer) error { return WriteMarkdown(w, tables, cells) }})
		case "latex":
			files = append(files, File{s.Experiment + ".tex", func(w io.Writer) error { return WriteLaTeX(w, tables) }})
		case "html":
			files = append(files, File{s.Experiment + ".html", func(w io.Writer) error {
				return WriteHTML(w, HTMLReport{Tables: tables, Figures: figs, Cells: cells, Setup: s.Setup, ConfusionRows: s.ConfusionRows})
			}})
		case "json":
			files = append(files, File{s.Experiment + ".json", func(w io.Writer) error { return WriteJSON(w, tables) }})
		}
	}
	for _, f := range figs {
		fig := f.Fig
		files = append(files,
			File{path.Join("plots", f.Name+".png"), func(w io.Writer) error { return fig.WritePNG(w, plots.DefaultDPI) }},
			File{path.Join("plots", f.Name+".svg"), fig.WriteSVG})
	}
	if s.Predictions {
		files = append(files, PredictionFiles(cells)...)
	}
	return files, nil
}
