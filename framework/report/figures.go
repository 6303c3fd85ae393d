package report

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot/plotter"

	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/plots"
)

// Figure is one figure of a report.
type Figure struct {
	// Name is the file name without extension (under plots/).
	Name string
	// Metric is the metric the figure belongs to; empty for the figures
	// of one cell, whose Kind says what they show.
	Metric string
	// Kind is "confusion", "curves" or "reliability" for a figure of one
	// cell (a heat map, its ROC and precision–recall curves, its
	// reliability diagram), "search" for a tuning search's scores by
	// round, "bayes" for a metric's Bayesian comparison of two rows;
	// empty for a metric's other figures (box plot, critical differences).
	Kind    string
	Caption string
	Fig     *plots.Figure

	// key is what the figure shows, as its unsafe name parts: two
	// figures whose names are made safe alike differ in it.
	key string
}

// maxFilePart bounds the length of what fileSafe returns, so that a file
// name made of a few parts (confusion_DATASET_ROW.png) stays short and
// within the 255 bytes file systems allow.
const maxFilePart = 40

// maxFileName bounds the length of a figure's file name made from labels
// (file systems allow 255 bytes; the extension needs room).
const maxFileName = 100

// digestLen is the number of hex digits of the SHA-256 digest that tells
// apart names cut short or made safe alike.
const digestLen = 8

// digest returns the first digestLen hex digits of the SHA-256 of s.
func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])[:digestLen]
}

// fileSafe maps s to a file-name-safe string of at most maxFilePart
// bytes: letters, digits, '-', '.' and '=' are kept, anything else (a
// space, '/', a label's accents) becomes '_', runs of '_' become one and
// trailing ones go, and a leading dot becomes '_' too, so that no name is
// hidden; a longer one (a row label with many parameters) keeps its first
// bytes and ends in a digest of s, which keeps apart names that begin
// alike.
func fileSafe(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '=', r == '.' && i > 0:
			b.WriteRune(r)
		case !strings.HasSuffix(b.String(), "_"):
			b.WriteByte('_')
		}
	}
	out := b.String()
	if t := strings.TrimRight(out, "_"); t != "" {
		out = t
	}
	if len(out) <= maxFilePart {
		return out
	}
	return out[:maxFilePart-digestLen-1] + "-" + digest(s)
}

// uniqueNames makes the figures' file names safe to write side by side:
// a name longer than maxFileName keeps its first bytes and ends in a
// digest of it, and figures whose names are alike (two labels made safe
// alike, "RF/ova" and "RF ova", or alike but for case, which macOS and
// Windows take for one name) each end in a digest of what they show (the
// figure's unsafe name, key): short names, the same whatever the order of
// the figures. Names still alike get "_2", "_3", … in figure order.
func uniqueNames(figs []Figure) {
	for i := range figs {
		if n := figs[i].Name; len(n) > maxFileName {
			figs[i].Name = n[:maxFileName-digestLen-1] + "-" + digest(n)
		}
	}
	count := map[string]int{}
	for _, f := range figs {
		count[strings.ToLower(f.Name)]++
	}
	for i := range figs {
		if count[strings.ToLower(figs[i].Name)] > 1 {
			figs[i].Name += "-" + digest(figs[i].keyOrName())
		}
	}
	seen := map[string]bool{}
	for i := range figs {
		name := figs[i].Name
		for n := 2; seen[strings.ToLower(name)]; n++ {
			name = fmt.Sprintf("%s_%d", figs[i].Name, n)
		}
		seen[strings.ToLower(name)] = true
		figs[i].Name = name
	}
}

// keyOrName is what tells the figure apart: its key, else its name.
func (f Figure) keyOrName() string {
	if f.key != "" {
		return f.key
	}
	return f.Name
}

// figureKey joins the unsafe parts of a figure's name.
func figureKey(parts ...string) string { return strings.Join(parts, "\x00") }

// BuildFigures draws the figures of a run: for every metric a box plot of
// the fold scores (file box_METRIC) and, when the Friedman test ran, a
// critical-difference diagram (cd_METRIC) and, with a baseline among the
// rows tested, its control variant (cd_control_METRIC: the Bonferroni–Dunn
// interval around the baseline); then a confusion-matrix heat map
// (confusion_DATASET_ROW: counts summed over folds and repeats, each row
// normalised to sum to 1) for each dataset and each row
// that confusionRows names (FindRow rule), or, when confusionRows is empty,
// for the best row of each dataset by the first metric; then, for each
// halving or hyperband search, its scores against each round's resource
// (search_DATASET_LEARNER_REDUCTION).
//
// File names come from the metrics', datasets' and rows' labels, made
// safe (fileSafe) and unique (uniqueNames). A figure that cannot be drawn
// is left out and the others are drawn all the same: the error then names
// each figure left out, and the figures returned are the others.
func BuildFigures(t *Tables, cells []*outcome.CellResult, confusionRows []string) ([]Figure, error) {
	figs, failed, err := buildFigures(t, cells, confusionRows)
	for _, f := range failed {
		err = errors.Join(err, errors.New(f))
	}
	return figs, err
}

// figureFailures collects the figures that could not be drawn, a note
// each naming the figure and why: the report lists them, and the other
// figures and every table are written all the same.
type figureFailures []string

// add records that figure name could not be drawn.
func (ff *figureFailures) add(name string, err error) {
	*ff = append(*ff, fmt.Sprintf("figure %s is left out: it could not be drawn: %v", name, err))
}

// buildFigures draws the figures of BuildFigures, made unique
// (uniqueNames): each metric's, then the confusion matrices', then the
// searches'. failed names the figures that could not be drawn; err is a
// confusion row that names no row.
func buildFigures(t *Tables, cells []*outcome.CellResult, confusionRows []string) (figs []Figure, failed []string, err error) {
	var ff figureFailures
	defer func() { uniqueNames(figs) }()
	for _, c := range t.Metrics {
		figs = append(figs, metricFigures(c, &ff)...)
	}
	if len(t.Metrics) == 0 {
		return figs, ff, nil
	}
	cf, err := confusionFigures(t, cells, confusionRows, &ff)
	figs = append(figs, cf...)
	if err != nil {
		return figs, ff, err
	}
	figs = append(figs, searchFigures(t.Searches, &ff)...)
	return figs, ff, nil
}

// searchFigures draws, for each search with rounds (successive halving,
// hyperband), its candidates' inner scores against the resource of each
// round, one colour per outer fold, each round's best joined (within a
// hyperband bracket)
// (search_DATASET_LEARNER_REDUCTION, Kind "search"); ff gets those that
// cannot be drawn.
func searchFigures(ss []Search, ff *figureFailures) []Figure {
	var figs []Figure
	for _, s := range ss {
		if len(s.Folds) == 0 {
			continue
		}
		var series []plots.SearchSeries
		for _, f := range s.Folds {
			sr := plots.SearchSeries{Name: fmt.Sprintf("repeat %d, fold %d", f.Repeat, f.Fold)}
			for i, r := range f.Rounds {
				if i == 0 || !sameBracket(r.Bracket, f.Rounds[i-1].Bracket) {
					sr.Best = append(sr.Best, nil)
				}
				for _, v := range r.Scores {
					if finite(float64(v)) { // a score the metric could not give
						sr.Points = append(sr.Points, plotter.XY{X: float64(r.Resources), Y: float64(v)})
					}
				}
				if finite(float64(r.BestScore)) {
					sr.Best[len(sr.Best)-1] = append(sr.Best[len(sr.Best)-1], plotter.XY{X: float64(r.Resources), Y: float64(r.BestScore)})
				}
			}
			series = append(series, sr)
		}
		title := fmt.Sprintf("%s · %s · %s: %s search", s.Dataset, s.Learner, s.Reduction, s.Strategy)
		name := "search_" + fileSafe(s.Dataset) + "_" + fileSafe(s.Learner) + "_" + fileSafe(s.Reduction)
		fig, err := plots.SearchScores(title, s.unit(), "inner mean "+s.Metric, series)
		if err != nil {
			ff.add(name, err)
			continue
		}
		figs = append(figs, Figure{Name: name, Kind: "search",
			Caption: title + ": each candidate's inner mean per round against its " + s.unit() + ", each outer fold's round best joined", Fig: fig,
			key: figureKey("search", s.Dataset, s.Encoder, s.Learner, s.Reduction)})
	}
	return figs
}

// finite reports whether x is a number a plot can place (not NaN, not
// infinite).
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// metricFigures draws the figures of one metric: its box plot, its
// critical-difference diagrams and its Bayesian figures; ff gets those
// that cannot be drawn.
func metricFigures(c *Comparison, ff *figureFailures) []Figure {
	var figs []Figure
	if len(c.Rows) > 0 && len(c.Datasets) > 0 {
		if f, err := boxFigure(c); err != nil {
			ff.add("box_"+fileSafe(c.Metric), err)
		} else {
			figs = append(figs, f)
		}
	}
	if a := c.Across; a != nil && a.Friedman != nil {
		figs = append(figs, cdFigures(c, ff)...)
	}
	return append(figs, bayesFigures(c, ff)...)
}

// boxFigure draws the box plot of a metric's fold scores (box_METRIC).
func boxFigure(c *Comparison) (Figure, error) {
	boxRows := make([]plots.BoxRow, len(c.Rows))
	for i, r := range c.Rows {
		boxRows[i] = plots.BoxRow{Label: r.Label, Learner: r.Learner, Reduction: r.Reduction}
	}
	scores := make([][][]float64, len(c.Datasets))
	for d := range c.Datasets {
		scores[d] = make([][]float64, len(c.Rows))
		for r := range c.Rows {
			if e := c.Entries[r][d]; e.ok() {
				for _, f := range e.folds {
					if finite(f.v) { // an infinite score has no place on the axis
						scores[d][r] = append(scores[d][r], f.v)
					}
				}
			}
		}
	}
	title := fmt.Sprintf("%s (%s): fold scores", c.Metric, direction(c.HigherIsBetter))
	f, err := plots.BoxPlots(title, c.Metric, c.Datasets, boxRows, scores)
	if err != nil {
		return Figure{}, err
	}
	return Figure{Name: "box_" + fileSafe(c.Metric), Metric: c.Metric, Caption: title, Fig: f}, nil
}

// cdFigures draws the critical-difference diagram of a metric whose
// Friedman test ran (cd_METRIC) and, with a baseline among the rows
// tested, its control variant (cd_control_METRIC); ff gets those that
// cannot be drawn.
func cdFigures(c *Comparison, ff *figureFailures) []Figure {
	a := c.Across
	tested := make([]string, len(a.Rows))
	for i, r := range a.Rows {
		tested[i] = c.Rows[r].Label
	}
	var figs []Figure
	title := fmt.Sprintf("%s: average ranks, Nemenyi CD at α = %s (N = %d)", c.Metric, fixed(c.Alpha, 2), a.Friedman.N)
	name := "cd_" + fileSafe(c.Metric)
	if f, err := plots.CriticalDifference(title, tested, a.Friedman.AvgRanks, a.CD); err != nil {
		ff.add(name, err)
	} else {
		figs = append(figs, Figure{Name: name, Metric: c.Metric, Caption: title, Fig: f})
	}
	ctl := a.Control
	if ctl == nil {
		return figs
	}
	title = fmt.Sprintf("%s: average ranks, Bonferroni–Dunn CD against %s at α = %s (N = %d)", c.Metric,
		tested[ctl.Control], fixed(c.Alpha, 2), a.Friedman.N)
	name = "cd_control_" + fileSafe(c.Metric)
	f, err := plots.CriticalDifferenceControl(title, tested, a.Friedman.AvgRanks, ctl.Control, ctl.CD)
	if err != nil {
		ff.add(name, err)
		return figs
	}
	return append(figs, Figure{Name: name, Metric: c.Metric, Caption: title, Fig: f})
}

// confusionFigures draws the confusion-matrix heat map and the views of
// the cells of each dataset's chosen rows (see BuildFigures), by the first
// metric's comparison; ff gets those that cannot be drawn. A confusion
// row that names no row is an error.
func confusionFigures(t *Tables, cells []*outcome.CellResult, confusionRows []string, ff *figureFailures) ([]Figure, error) {
	first := t.Metrics[0]
	chosen, err := chosenRows(first, confusionRows)
	if err != nil {
		return nil, err
	}
	rows, _, rowOf := rowsOf(cells, t.shown)
	var figs []Figure
	for d, ds := range first.Datasets {
		want := chosen
		if len(confusionRows) == 0 {
			want = bestRow(first, d)
		}
		for _, r := range want {
			for i, cell := range cells {
				if cell.Dataset != ds || rowOf[i] != r || cell.Failed() {
					continue
				}
				figs = append(figs, cellFigures(cell, ds, rows[r].Label, rows[r].Full, ff)...)
			}
		}
	}
	return figs, nil
}

// chosenRows finds the rows that confusionRows names (FindRow rule).
func chosenRows(first *Comparison, confusionRows []string) ([]int, error) {
	var chosen []int
	for _, name := range confusionRows {
		r, err := FindRow(first.Rows, name)
		if err != nil {
			return nil, fmt.Errorf("confusion matrix: %w", err)
		}
		chosen = append(chosen, r)
	}
	return chosen, nil
}

// bestRow is the first row of the best rank on dataset d (none when no
// row has a score there).
func bestRow(first *Comparison, d int) []int {
	for r := range first.Rows {
		if e := first.Entries[r][d]; e.ok() && e.Rank == bestRank(columnRanks(first, d)) {
			return []int{r}
		}
	}
	return nil
}

// cellFigures draws the confusion-matrix heat map of one cell of dataset
// ds and row label (when its folds hold confusion matrices), then its
// views (viewFigures); ff gets those that cannot be drawn.
func cellFigures(cell *outcome.CellResult, ds, label, full string, ff *figureFailures) []Figure {
	var figs []Figure
	title := fmt.Sprintf("%s: %s", ds, label)
	if counts, ok := sumConfusion(cell); ok {
		name := "confusion_" + fileSafe(ds) + "_" + fileSafe(label)
		if f, err := plots.ConfusionHeatMap(title, cell.Classes, counts); err != nil {
			ff.add(name, err)
		} else {
			figs = append(figs, Figure{Name: name, Kind: "confusion",
				Caption: title + ": " + confusionNote(cell, counts), Fig: f, key: figureKey("confusion", ds, full)})
		}
	}
	return append(figs, viewFigures(cell, title, fileSafe(ds)+"_"+fileSafe(label), figureKey(ds, full), ff)...)
}

func columnRanks(c *Comparison, d int) []float64 {
	var rs []float64
	for r := range c.Rows {
		if e := c.Entries[r][d]; e.ok() {
			rs = append(rs, e.Rank)
		}
	}
	return rs
}

// sumConfusion sums a cell's confusion matrices over its folds; ok is false
// when they are missing or do not match the cell's classes.
func sumConfusion(c *outcome.CellResult) ([][]int, bool) {
	k := len(c.Classes)
	if k == 0 || len(c.Folds) == 0 {
		return nil, false
	}
	sum := make([][]int, k)
	for i := range sum {
		sum[i] = make([]int, k)
	}
	for _, f := range c.Folds {
		if len(f.Confusion) != k {
			return nil, false
		}
		for i, row := range f.Confusion {
			if len(row) != k {
				return nil, false
			}
			for j, v := range row {
				sum[i][j] += v
			}
		}
	}
	return sum, true
}

// confusionNote says what a heat map shows: how many test rows, summed over
// how many folds and repeats, and that each true class's row sums to 1.
func confusionNote(c *outcome.CellResult, counts [][]int) string {
	n := 0
	for _, row := range counts {
		for _, v := range row {
			n += v
		}
	}
	repeats := map[int]bool{}
	for _, f := range c.Folds {
		repeats[f.Repeat] = true
	}
	folds := len(c.Folds) / max(len(repeats), 1)
	return fmt.Sprintf("%d test rows summed over %s × %s; each true class's row sums to 1",
		n, plural(folds, "fold"), plural(len(repeats), "repeat"))
}

// plural returns "1 fold", "10 folds".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
