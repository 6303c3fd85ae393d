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

// WriteAll writes every table of a run into dir: summary.csv and folds.csv
// always, then each format the manifest names. It returns the paths
// written. The manifest itself is the caller's to write, last.
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
	for _, f := range m.Formats {
		switch f {
		case "markdown":
			err := write(m.Experiment+".md", func(w io.Writer) error {
				return WriteMarkdown(w, m.Experiment, sums, cells, m.Metrics, HigherIsBetter)
			})
			if err != nil {
				return written, err
			}
		}
	}
	return written, nil
}
