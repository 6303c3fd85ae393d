// Package report writes the results of a run: tidy CSV files, comparison
// tables (Markdown, LaTeX, HTML, JSON) with significance tests, figures,
// per-row predictions and the run manifest. The tests themselves live in
// package stats and the figures in package plots; this package chooses what
// to compare and lays the results out.
package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/polyclass/polyclass/framework/outcome"
)

// Summary is the mean and standard deviation of one metric of one cell.
type Summary struct {
	outcome.ID
	Metric string
	Mean   float64
	// Std is the sample standard deviation (n−1) over folds and repeats.
	Std    float64
	NFolds int
	Failed bool
}

// Summarise returns one Summary per cell × metric, in cell then metric
// order.
func Summarise(cells []*outcome.CellResult, metricNames []string) []Summary {
	var out []Summary
	for _, c := range cells {
		for _, m := range metricNames {
			s := Summary{ID: c.ID, Metric: m, Failed: c.Failed()}
			if !c.Failed() && len(c.Folds) > 0 {
				if _, ok := c.Folds[0].Metrics[m]; !ok {
					continue // the metric does not apply to this cell's task
				}
				vals := make([]float64, len(c.Folds))
				for i, f := range c.Folds {
					vals[i] = f.Metrics[m]
				}
				s.Mean, s.Std = meanStd(vals)
				s.NFolds = len(vals)
			}
			out = append(out, s)
		}
	}
	return out
}

// meanStd returns the mean and sample standard deviation, summing in order
// so that the result is the same on every run.
func meanStd(x []float64) (mean, std float64) {
	if len(x) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	if len(x) < 2 {
		return mean, 0
	}
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / float64(len(x)-1))
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// idHeader names the cell's coordinates in the CSV files: pipeline is
// the cell's pipeline (outcome.ID.Encoder), its encoders' name ("default"
// for the encoders of a file without pipeline blocks); the files of a
// bench before it called the column encoder (see ReadIDHeader).
var idHeader = []string{"dataset", "pipeline", "learner", "params", "reduction"}

func idFields(id outcome.ID) []string {
	return []string{id.Dataset, id.Encoder, id.Learner, id.Params, id.Reduction}
}

// WriteSummaryCSV writes the tidy summary: one row per cell × metric. A
// failed cell has empty mean and std and n_folds 0.
func WriteSummaryCSV(w io.Writer, sums []Summary) error {
	cw := newCSV(w)
	cw.Write(append(append([]string{}, idHeader...), "metric", "mean", "std", "n_folds"))
	for _, s := range sums {
		mean, std := "", ""
		if !s.Failed {
			mean, std = num(s.Mean), num(s.Std)
		}
		cw.Write(append(idFields(s.ID), s.Metric, mean, std, strconv.Itoa(s.NFolds)))
	}
	cw.Flush()
	return cw.Error()
}

// WriteFoldsCSV writes one row per cell × fold × metric (every value a
// number; what tuned cells chose is in WriteTuningCSV's file).
func WriteFoldsCSV(w io.Writer, cells []*outcome.CellResult, metricNames []string) error {
	cw := newCSV(w)
	cw.Write(append(append([]string{}, idHeader...), "repeat", "fold", "metric", "value"))
	for _, c := range cells {
		for _, f := range c.Folds {
			for _, m := range metricNames {
				if _, ok := f.Metrics[m]; !ok {
					continue
				}
				cw.Write(append(idFields(c.ID), strconv.Itoa(f.Repeat), strconv.Itoa(f.Fold), m, num(f.Metrics[m])))
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteTuningCSV writes what the inner cross-validations of the tuned
// cells found: one row per cell × fold × candidate, with the candidate's
// tuned parameters, the tune metric, its mean over the inner folds and
// whether the fold chose it. A cell written before cells named their
// candidates calls them "candidate 1", "candidate 2"….
func WriteTuningCSV(w io.Writer, cells []*outcome.CellResult) error {
	cw := newCSV(w)
	cw.Write(append(append([]string{}, idHeader...), "repeat", "fold", "candidate", "tune_metric", "inner_mean", "chosen"))
	for _, c := range cells {
		for _, f := range c.Folds {
			for i, v := range f.TuneScores {
				name := fmt.Sprintf("candidate %d", i+1)
				if i < len(c.TuneCandidates) {
					name = c.TuneCandidates[i]
				}
				cw.Write(append(idFields(c.ID), strconv.Itoa(f.Repeat), strconv.Itoa(f.Fold), name, c.TuneMetric, num(v),
					strconv.FormatBool(name == f.Chosen)))
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteMarkdown writes the comparison tables of t as Markdown, one per
// metric (see Comparison), each followed by its statistics; then the
// set-up table (what each row is), the tuned cells' choices, the
// code-matrix diagnostics of the cells' reductions, and the per-class
// reports with the threshold views' areas and calibration errors, and the programs that
// computed the cells (t.ComputedBy).
func WriteMarkdown(w io.Writer, t *Tables, cells []*outcome.CellResult) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", t.Experiment)
	writeMarkdownSection(&b, headSection(t, cells))
	secs, err := reportSections(reportInput{Tables: t, Cells: cells})
	if err != nil {
		return err
	}
	writeMarkdownSections(&b, secs)
	_, err = io.WriteString(w, b.String())
	return err
}

// absent is the mark of an absent value in every table of every format:
// a cell the run does not have, an empty parameter list, a test with no
// value ("–"; LaTeX sets it as --).
const absent = "–"

// orDash is s for a Markdown cell (escaped by mdEscape), or absent when empty.
func orDash(s string) string {
	if s == "" {
		return absent
	}
	return mdEscape(s)
}
