package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/stats"
	"github.com/polyclass/polyclass/framework/suggest"
)

// Row is one row of a comparison table: a cell's coordinates without the
// dataset.
type Row struct {
	Encoder   string
	Learner   string
	Params    string
	Reduction string
	// Label is the row's name: learner, params and reduction (preceded by
	// the encoder when the run has several), joined by single spaces,
	// empty parts left out, e.g. "logreg C=1 ova".
	Label string
}

// Entry is one table cell: a row on a dataset.
type Entry struct {
	// Present is false when the run has no such cell or the metric does not
	// apply to it; Failed when the cell failed.
	Present bool
	Failed  bool
	// Mean and Std (n−1) of the fold scores, N the number of folds.
	Mean float64
	Std  float64
	N    int
	// Rank among the rows with a value on this dataset (1 = best, ties
	// averaged); 0 when there is no value.
	Rank float64
	// Best marks the best mean of the column.
	Best bool
	// Mark is "v" (significantly better than the baseline), "*"
	// (significantly worse) or "" (no significant difference, no test, or
	// the baseline row itself).
	Mark string
	// Tested tells whether the corrected t-test against the baseline ran;
	// T and P are its statistic and two-sided p-value.
	Tested bool
	T      float64
	P      float64

	folds []foldScore
}

type foldScore struct {
	repeat, fold, nTrain, nTest int
	v                           float64
}

// WTL counts a row's wins, ties and losses against the baseline over the
// datasets where the test ran.
type WTL struct {
	Win  int
	Tie  int
	Loss int
}

// Across holds the tests across datasets of one metric (Demšar 2006), run on
// the mean scores of the datasets where every row has a value.
type Across struct {
	// Datasets are the datasets used (complete columns), N of them.
	Datasets []string
	// Friedman is the Friedman test on the rows' ranks.
	Friedman stats.FriedmanResult
	// CD is the Nemenyi critical difference at level Alpha.
	CD float64
	// Wilcoxon is the signed-ranks test of the first row against the second
	// when there are exactly two rows.
	Wilcoxon *stats.WilcoxonResult
}

// Comparison is the comparison table of one metric.
type Comparison struct {
	Metric         string
	HigherIsBetter bool
	Datasets       []string
	Rows           []Row
	// Entries[r][d] is row r on dataset d.
	Entries [][]Entry
	// AvgRank[r] is the mean of row r's ranks over the datasets where it
	// has a value (NaN when it has none).
	AvgRank []float64
	// Baseline is the index of the baseline row, −1 without one.
	Baseline int
	Alpha    float64
	// WTL[r] is row r's record against the baseline (zero for the
	// baseline and without one).
	WTL []WTL
	// Across is nil unless there are at least two rows and two complete
	// datasets.
	Across *Across
	// Notes explain what could not be computed.
	Notes []string
}

// Tables is every comparison table of a run.
type Tables struct {
	Experiment string
	Baseline   string
	Alpha      float64
	Metrics    []*Comparison
	// Partial, when not empty, says that the run is incomplete; every
	// format repeats it in its header.
	Partial string
}

// rowsOf returns the distinct rows and datasets of cells in first-seen
// order, and the row index of every cell.
func rowsOf(cells []*engine.CellResult) (rows []Row, datasets []string, rowOf []int) {
	type key struct{ e, l, p, r string }
	idx := map[key]int{}
	seenDS := map[string]bool{}
	encoders := map[string]bool{}
	for _, c := range cells {
		encoders[c.Encoder] = true
	}
	showEnc := len(encoders) > 1
	for _, c := range cells {
		if !seenDS[c.Dataset] {
			seenDS[c.Dataset] = true
			datasets = append(datasets, c.Dataset)
		}
		k := key{c.Encoder, c.Learner, c.Params, c.Reduction}
		i, ok := idx[k]
		if !ok {
			i = len(rows)
			idx[k] = i
			var parts []string
			if showEnc {
				parts = append(parts, c.Encoder)
			}
			for _, p := range []string{c.Learner, c.Params, c.Reduction} {
				if p != "" {
					parts = append(parts, p)
				}
			}
			rows = append(rows, Row{Encoder: c.Encoder, Learner: c.Learner, Params: c.Params, Reduction: c.Reduction,
				Label: strings.Join(parts, " ")})
		}
		rowOf = append(rowOf, i)
	}
	return rows, datasets, rowOf
}

// FindRow returns the index of the row that name designates: the row whose
// Label equals name; failing that, the only row whose label starts with
// name followed by a space, or whose learner is name. It fails when no row
// or several rows match.
func FindRow(rows []Row, name string) (int, error) {
	for i, r := range rows {
		if r.Label == name {
			return i, nil
		}
	}
	var found []int
	for i, r := range rows {
		if strings.HasPrefix(r.Label, name+" ") || r.Learner == name {
			found = append(found, i)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		labels := make([]string, len(rows))
		for i, r := range rows {
			labels[i] = fmt.Sprintf("%q", r.Label)
		}
		names := make([]string, 0, 2*len(rows))
		for _, r := range rows {
			names = append(names, r.Label, r.Learner)
		}
		return -1, fmt.Errorf("%q matches no row%s (rows: %s)", name, suggest.DidYouMean(name, names), strings.Join(labels, ", "))
	}
	var labels []string
	for _, i := range found {
		labels = append(labels, fmt.Sprintf("%q", rows[i].Label))
	}
	return -1, fmt.Errorf("%q matches several rows: %s", name, strings.Join(labels, ", "))
}

// BuildTables computes the comparison table of every metric: means, ranks,
// the corrected t-test of each row against the baseline row (named as in
// FindRow; empty for none) at level alpha (config.DefaultAlpha when 0), and the
// tests across datasets. Problems that do not prevent the table (an unknown
// baseline, a test that cannot run) are recorded in Notes.
func BuildTables(experiment string, cells []*engine.CellResult, metricNames []string, baseline string, alpha float64) *Tables {
	if alpha == 0 {
		alpha = config.DefaultAlpha
	}
	rows, datasets, rowOf := rowsOf(cells)
	t := &Tables{Experiment: experiment, Baseline: baseline, Alpha: alpha}
	base := -1
	var baseNote string
	if baseline != "" {
		var err error
		if base, err = FindRow(rows, baseline); err != nil {
			baseNote = "baseline " + err.Error() + "; no significance marks"
		}
	}
	dsIndex := map[string]int{}
	for i, d := range datasets {
		dsIndex[d] = i
	}
	for _, m := range metricNames {
		c := &Comparison{Metric: m, HigherIsBetter: HigherIsBetter(m), Datasets: datasets, Rows: rows,
			Baseline: base, Alpha: alpha}
		if baseNote != "" {
			c.Notes = append(c.Notes, baseNote)
		}
		c.Entries = make([][]Entry, len(rows))
		for r := range rows {
			c.Entries[r] = make([]Entry, len(datasets))
		}
		for i, cell := range cells {
			e := &c.Entries[rowOf[i]][dsIndex[cell.Dataset]]
			if cell.Failed() {
				*e = Entry{Present: true, Failed: true}
				continue
			}
			if len(cell.Folds) == 0 {
				continue
			}
			if _, ok := cell.Folds[0].Metrics[m]; !ok {
				continue
			}
			vals := make([]float64, len(cell.Folds))
			e.folds = make([]foldScore, len(cell.Folds))
			for j, f := range cell.Folds {
				vals[j] = f.Metrics[m]
				e.folds[j] = foldScore{f.Repeat, f.Fold, f.NTrain, f.NTest, vals[j]}
			}
			e.Present = true
			e.Mean, e.Std = meanStd(vals)
			e.N = len(vals)
		}
		c.rank()
		c.testBaseline()
		c.across()
		t.Metrics = append(t.Metrics, c)
	}
	return t
}

// ok reports whether an entry has a value.
func (e *Entry) ok() bool { return e.Present && !e.Failed && !math.IsNaN(e.Mean) }

// rank fills Rank, Best and AvgRank.
func (c *Comparison) rank() {
	c.AvgRank = make([]float64, len(c.Rows))
	counts := make([]int, len(c.Rows))
	for d := range c.Datasets {
		var idx []int
		var vals []float64
		for r := range c.Rows {
			if e := &c.Entries[r][d]; e.ok() {
				idx = append(idx, r)
				vals = append(vals, e.Mean)
			}
		}
		if len(vals) == 0 {
			continue
		}
		ranks := stats.Ranks(nil, vals, c.HigherIsBetter)
		for i, r := range idx {
			e := &c.Entries[r][d]
			e.Rank = ranks[i]
			e.Best = ranks[i] == bestRank(ranks)
			c.AvgRank[r] += ranks[i]
			counts[r]++
		}
	}
	for r := range c.AvgRank {
		if counts[r] == 0 {
			c.AvgRank[r] = math.NaN()
		} else {
			c.AvgRank[r] /= float64(counts[r])
		}
	}
}

func bestRank(ranks []float64) float64 {
	b := math.Inf(1)
	for _, r := range ranks {
		b = math.Min(b, r)
	}
	return b
}

// testBaseline runs the corrected resampled t-test of every row against the
// baseline on each dataset, pairing folds by (repeat, fold).
func (c *Comparison) testBaseline() {
	if c.Baseline < 0 {
		return
	}
	c.WTL = make([]WTL, len(c.Rows))
	for d, ds := range c.Datasets {
		b := &c.Entries[c.Baseline][d]
		if !b.ok() {
			continue
		}
		for r := range c.Rows {
			e := &c.Entries[r][d]
			if r == c.Baseline || !e.ok() {
				continue
			}
			a, bb, nTrain, nTest, err := pairFolds(e.folds, b.folds)
			if err == nil {
				var v stats.Verdict
				v, e.T, e.P, err = stats.CompareCorrected(a, bb, nTrain, nTest, c.Alpha, c.HigherIsBetter)
				if err == nil {
					e.Tested = true
					switch v {
					case stats.Win:
						e.Mark = "v"
						c.WTL[r].Win++
					case stats.Loss:
						e.Mark = "*"
						c.WTL[r].Loss++
					default:
						c.WTL[r].Tie++
					}
				}
			}
			if err != nil {
				c.Notes = append(c.Notes, fmt.Sprintf("%s on %s: no t-test against the baseline: %v", c.Rows[r].Label, ds, err))
			}
		}
	}
}

// pairFolds matches the folds of a and b by (repeat, fold) and returns the
// paired scores with the total training and test sizes over the folds (the
// correction uses their ratio, n_test/n_train).
func pairFolds(a, b []foldScore) (x, y []float64, nTrain, nTest int, err error) {
	type key struct{ r, f int }
	bi := map[key]foldScore{}
	for _, f := range b {
		bi[key{f.repeat, f.fold}] = f
	}
	if len(a) != len(b) {
		return nil, nil, 0, 0, fmt.Errorf("%d folds against the baseline's %d", len(a), len(b))
	}
	for _, f := range a {
		g, ok := bi[key{f.repeat, f.fold}]
		if !ok {
			return nil, nil, 0, 0, fmt.Errorf("repeat %d fold %d missing from the baseline", f.repeat, f.fold)
		}
		if g.nTrain != f.nTrain || g.nTest != f.nTest {
			return nil, nil, 0, 0, fmt.Errorf("repeat %d fold %d has different splits (%d/%d rows vs %d/%d)",
				f.repeat, f.fold, f.nTrain, f.nTest, g.nTrain, g.nTest)
		}
		x = append(x, f.v)
		y = append(y, g.v)
		nTrain += f.nTrain
		nTest += f.nTest
	}
	return x, y, nTrain, nTest, nil
}

// across runs Friedman, Nemenyi and (for two rows) Wilcoxon on the datasets
// where every row has a value.
func (c *Comparison) across() {
	if len(c.Rows) < 2 || len(c.Datasets) < 2 {
		return
	}
	var used []string
	var scores [][]float64
	for d, ds := range c.Datasets {
		row := make([]float64, len(c.Rows))
		complete := true
		for r := range c.Rows {
			e := &c.Entries[r][d]
			if !e.ok() {
				complete = false
				break
			}
			row[r] = e.Mean
		}
		if complete {
			used = append(used, ds)
			scores = append(scores, row)
		}
	}
	if len(used) < len(c.Datasets) {
		c.Notes = append(c.Notes, fmt.Sprintf("tests across datasets use the %d of %d datasets where every row has a value", len(used), len(c.Datasets)))
	}
	if len(used) < 2 {
		c.Notes = append(c.Notes, "fewer than 2 complete datasets: no Friedman test")
		return
	}
	fr, err := stats.Friedman(scores, c.HigherIsBetter)
	if err != nil {
		c.Notes = append(c.Notes, err.Error())
		return
	}
	cd, err := stats.NemenyiCD(len(c.Rows), len(used), c.Alpha)
	if err != nil {
		c.Notes = append(c.Notes, err.Error())
		return
	}
	a := &Across{Datasets: used, Friedman: fr, CD: cd}
	if len(c.Rows) == 2 {
		x, y := make([]float64, len(scores)), make([]float64, len(scores))
		for i, s := range scores {
			x[i], y[i] = s[0], s[1]
		}
		w, err := stats.Wilcoxon(x, y)
		if err != nil {
			c.Notes = append(c.Notes, err.Error())
		} else {
			a.Wilcoxon = &w
		}
	}
	c.Across = a
}
