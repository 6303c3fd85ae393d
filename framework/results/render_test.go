package results

import (
	"fmt"
	"io"
	"sort"
)

// fakeRender is a Renderer for the tests of this package (which writes
// outputs and renders none): per format of the manifest, files that name
// the run, say whether it is partial (Manifest.Partial) and list every
// cell with its metrics, so that two runs of the same cells give the same
// bytes.
func fakeRender(m *Manifest, cells []*Cell) ([]Output, error) {
	body := func(w io.Writer) error {
		fmt.Fprintf(w, "# %s\n", m.Experiment)
		if p := m.Partial(len(cells)); p != "" {
			fmt.Fprintf(w, "partial: %s\n", p)
		}
		for _, c := range cells {
			fmt.Fprintf(w, "cell %d %s %s", c.Index, c.Key(), c.Error)
			for _, f := range c.Folds {
				names := make([]string, 0, len(f.Metrics))
				for n := range f.Metrics {
					names = append(names, n)
				}
				sort.Strings(names)
				for _, n := range names {
					fmt.Fprintf(w, " %s=%v", n, f.Metrics[n])
				}
			}
			fmt.Fprintln(w)
		}
		return nil
	}
	var out []Output
	for _, f := range m.Formats {
		switch f {
		case "csv":
			out = append(out, Output{"summary.csv", body}, Output{"folds.csv", body})
		case "markdown":
			out = append(out, Output{m.Experiment + ".md", body})
		case "json":
			out = append(out, Output{m.Experiment + ".json", body})
		case "plots":
			out = append(out, Output{"plots/box_accuracy.png", body})
		}
	}
	if m.Predictions {
		// One line per predicted row, as report's predictions files.
		out = append(out, Output{"predictions/iris.csv", func(w io.Writer) error {
			fmt.Fprintln(w, "cell,repeat,fold,row,true,predicted")
			for _, c := range cells {
				for _, f := range c.Folds {
					if p := f.Predictions; p != nil {
						for i, row := range p.Rows {
							fmt.Fprintf(w, "%d,%d,%d,%d,%d,%d\n", c.Index, f.Repeat, f.Fold, row, p.True[i], p.Predicted[i])
						}
					}
				}
			}
			return nil
		}})
	}
	return out, nil
}
