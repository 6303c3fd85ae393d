package report

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/metrics"
)

// HigherIsBetter looks up whether higher values of a metric are better
// (unknown names count as higher-is-better).
func HigherIsBetter(name string) bool {
	m, err := metrics.Lookup(name)
	return err != nil || m.HigherIsBetter
}

// WriteAll writes every output of a run into dir and returns the paths
// written, in order. Always: summary.csv and folds.csv (the tidy CSV of the
// "csv" format). Then per format in m.Formats:
//
//	markdown  NAME.md    comparison tables + statistics + code matrices
//	latex     NAME.tex   booktabs table floats for \input
//	html      NAME.html  self-contained report with the figures inline
//	json      NAME.json  tables, ranks and tests, machine-readable
//
// with NAME = m.Experiment. When the formats include "latex", "html" or
// "plots", the figures are also written to dir/plots/ as PNG and SVG
// (box_METRIC, cd_METRIC, confusion_DATASET_ROW). predictions.csv is
// written when m.Predictions is set and some cell kept its predictions
// (they are not stored in the cell files, so re-rendering a results
// directory cannot rewrite it). The row named by m.Baseline (see FindRow)
// is compared with every other row at level m.Alpha (DefaultAlpha when 0).
// The same manifest and cells always give the same bytes. The manifest
// itself is the caller's to write, last.
func WriteAll(dir string, m *Manifest, cells []*engine.CellResult) ([]string, error) {
	var written []string
	write := func(name string, fn func(io.Writer) error) error {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		if err := fn(f); err != nil {
			f.Close()
			return fmt.Errorf("writing %s: %w", path, err)
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		written = append(written, path)
		return nil
	}
	sums := Summarise(cells, m.Metrics)
	if err := write("summary.csv", func(w io.Writer) error { return WriteSummaryCSV(w, sums) }); err != nil {
		return written, err
	}
	if err := write("folds.csv", func(w io.Writer) error { return WriteFoldsCSV(w, cells, m.Metrics) }); err != nil {
		return written, err
	}
	tables := BuildTables(m.Experiment, cells, m.Metrics, m.Baseline, m.Alpha)
	formats := map[string]bool{}
	for _, f := range m.Formats {
		formats[f] = true
	}
	var figs []Figure
	if formats["html"] || formats["latex"] || formats["plots"] {
		var err error
		if figs, err = BuildFigures(tables, cells, m.ConfusionRows); err != nil {
			return written, err
		}
	}
	for _, f := range m.Formats {
		var err error
		switch f {
		case "markdown":
			err = write(m.Experiment+".md", func(w io.Writer) error { return WriteMarkdown(w, tables, cells) })
		case "latex":
			err = write(m.Experiment+".tex", func(w io.Writer) error { return WriteLaTeX(w, tables) })
		case "html":
			err = write(m.Experiment+".html", func(w io.Writer) error { return WriteHTML(w, tables, figs) })
		case "json":
			err = write(m.Experiment+".json", func(w io.Writer) error { return WriteJSON(w, tables) })
		}
		if err != nil {
			return written, err
		}
	}
	if len(figs) > 0 {
		pdir := filepath.Join(dir, "plots")
		if err := os.MkdirAll(pdir, 0o755); err != nil {
			return written, fmt.Errorf("plots: %w", err)
		}
		for _, f := range figs {
			paths, err := f.Fig.Save(filepath.Join(pdir, f.Name))
			written = append(written, paths...)
			if err != nil {
				return written, fmt.Errorf("plots: %w", err)
			}
		}
	}
	if m.Predictions && HasPredictions(cells) {
		if err := write("predictions.csv", func(w io.Writer) error { return WritePredictionsCSV(w, cells) }); err != nil {
			return written, err
		}
	}
	return written, nil
}
