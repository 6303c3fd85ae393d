package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/metrics"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/setup"
	"github.com/polyclass/polyclass/framework/stats"
	"github.com/polyclass/polyclass/framework/suggest"
)

// Row is one row of a comparison table: a cell's coordinates without the
// dataset.
type Row struct {
	Encoder   string `json:"encoder"`
	Learner   string `json:"learner"`
	Params    string `json:"params"`
	Reduction string `json:"reduction"`
	// Label is the row's short name, unique among the rows (ShortNames):
	// its learner and what tells it apart from the other rows of that
	// learner, e.g. "logreg" or "logreg C=1 ova". The tables, figures,
	// file names and the baseline go by it.
	Label string `json:"label"`
	// Full is the row's full label: learner, params and reduction
	// (preceded by the encoder when the run has several), joined by
	// single spaces, empty parts left out, e.g. "logreg C=1 ova".
	// Encoder, Learner, Params, Reduction, Label and Full are what the
	// tables show: the blocks' labels (label = "...") where they have one
	// (see setup.Row.Show).
	Full string `json:"full"`

	// key is the row's coordinates as its cells name them, and keyLabel
	// the label they make (FindRow accepts it too).
	key      setup.Key
	keyLabel string
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
	// Best marks the best means of the column (those of rank 1, ties
	// within stats.TieTolerance included) and every mean that the tables
	// show the same as the best (at meanDigits decimals): the entries
	// they set in bold, so that two means printed alike are both bold.
	Best bool
	// Softmax marks a log_loss or brier computed from a softmax of the
	// decoder's class scores rather than from probabilities (see
	// outcome.FoldResult.SoftmaxScores); the tables flag it with a dagger.
	Softmax bool
	// TiedFolds counts the folds whose class scores were all tied, every
	// prediction made by the tie-breaking rule (outcome.FoldResult.AllTied):
	// a constant model; the tables flag the entry with a double dagger.
	TiedFolds int
	// OneClassFolds counts the other folds where one class was predicted
	// for every test row though the test rows hold several
	// (outcome.FoldResult.OneClass): a constant model too, flagged with
	// the same double dagger.
	OneClassFolds int
	// NotConverged counts the cell's fits that did not converge, of Fits,
	// the fits of the NotConvergedFolds folds where some did not
	// (outcome.FoldResult.NotConverged); the tables flag the entry with a
	// section sign.
	NotConverged, Fits, NotConvergedFolds int
	// Mark is "v" (significantly better than the baseline), "*"
	// (significantly worse) or "" (no significant difference, no test, or
	// the baseline row itself).
	Mark string
	// Tested tells whether the corrected t-test against the baseline ran;
	// T and P are its statistic and two-sided p-value.
	Tested bool
	T      float64
	P      float64
	// NoTest says why the t-test against the baseline did not run when
	// its preconditions fail (a single split, zero variance: see
	// stats.PreconditionError); every format shows it beside the entry.
	NoTest string
	// Diff is the effect size that goes with the test: the mean over
	// folds of this row's score minus the baseline's, with its 95%
	// interval [Lo, Hi] from the corrected resampled t-test.
	Diff, Lo, Hi float64

	folds []foldScore
}

type foldScore struct {
	repeat, fold, nTrain, nTest int
	v                           float64
}

// WTL counts a row's wins, ties and losses against the baseline over the
// datasets where the test ran.
type WTL struct {
	Win  int `json:"win"`
	Tie  int `json:"tie"`
	Loss int `json:"loss"`
}

// Across holds the tests across datasets of one metric (Demšar 2006), run
// on the rows' mean scores. The datasets used are those where some row has
// a value; the rows tested are those with a value on every one of them
// (the complete rows), and the others are left out and named.
type Across struct {
	// Datasets are the datasets used, N of them.
	Datasets []string
	// Rows are the indices of the rows tested; LeftOut those of the rows
	// missing or failed on some dataset used.
	Rows    []int
	LeftOut []int
	// NoTest says why there is no test across datasets: fewer than
	// stats.MinFriedmanDatasets datasets or fewer than 2 complete rows.
	// Empty when the tests ran.
	NoTest string
	// Friedman is the Friedman test on the ranks of the rows tested (its
	// AvgRanks in the order of Rows); nil when NoTest says why not.
	Friedman *stats.FriedmanResult
	// CD is the Nemenyi critical difference at level Alpha (0 without
	// Friedman).
	CD float64
	// Control holds Holm's and the Bonferroni–Dunn tests of every row
	// tested against the baseline (method indices are positions in Rows),
	// when the baseline is among at least 3 rows tested.
	Control *stats.ControlResult
	// Wilcoxon is the signed-ranks test of the first row tested against
	// the second when exactly two rows are tested.
	Wilcoxon *stats.WilcoxonResult
}

// Comparison is the comparison table of one metric.
type Comparison struct {
	Metric         string
	HigherIsBetter bool
	Datasets       []string
	// TestSet[d] tells that dataset d is scored on its test file
	// (test_path) rather than by resampling its rows.
	TestSet []bool
	Rows    []Row
	// Entries[r][d] is row r on dataset d.
	Entries [][]Entry
	// AvgRank[r] is the mean of row r's ranks over the datasets where some
	// row has a value, when every row has a value on each of them; else a
	// complete row's mean rank among the complete rows (the tests' ranks)
	// and NaN for the others (see Across.LeftOut).
	AvgRank []float64
	// Baseline is the index of the baseline row, −1 without one.
	Baseline int
	Alpha    float64
	// WTL[r] is row r's record against the baseline (zero for the
	// baseline and without one).
	WTL []WTL
	// Ranked is false for a timing metric (fit_seconds, predict_seconds)
	// unless the run asks for ranks (Spec.RankTimings): its table shows
	// the means without ranks, marks or tests.
	Ranked bool
	// Across is nil for a table that is not ranked or has fewer than two
	// rows.
	Across *Across
	// Notes explain what could not be computed.
	Notes []string
	// Bayes holds the Bayesian comparisons (Spec.Rope); nil without them.
	Bayes *Bayes
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
	// Selected lists the tuned cells' choices (see Selection), in cell
	// order.
	Selected []Selection
	// Searches are the searches of the cells tuned by a strategy other
	// than the grid (see Search), in cell order.
	Searches []Search
	// ComputedBy names the programs that computed the cells (Spec).
	ComputedBy []string
	// Warnings are the experiment's warnings (Spec); every format but
	// CSV lists them in its header.
	Warnings []string
	// FigureWarnings name the figures that could not be drawn and why
	// (Files); the header lists them after Warnings.
	FigureWarnings []string
	// Edges are the tuned parameters chosen on the edge of their grid in
	// most outer folds (TuningEdges).
	Edges []EdgeChoice
	// Setup is the set-up table: one row per table row, in the order of
	// Metrics' rows (empty when the run recorded none).
	Setup []setup.Row
	// PerClass are the per-class reports and Views the threshold views'
	// summaries of every cell that has them, by dataset then row.
	PerClass []ClassReport
	Views    []ViewSummary

	// conventions are the values the folds set by convention
	// (conventions.go), by metric, dataset and row.
	conventions []conventionRow
	shown       shownNames
	rows        []Row
	datasets    []string
}

// Selection is what the inner cross-validations of a tuned cell chose:
// each chosen parameter setting with the number of folds that chose it,
// most often first (ties in the order first chosen).
type Selection struct {
	Dataset string `json:"dataset"`
	// Row is the short name of the cell's row in the tables (Row.Label).
	Row       string         `json:"row"`
	Encoder   string         `json:"encoder"`
	Learner   string         `json:"learner"`
	Reduction string         `json:"reduction"`
	Chosen    []ChosenParams `json:"chosen"`
}

// ChosenParams is one parameter setting a tuned cell chose ("C=10") and
// the number of folds that chose it.
type ChosenParams struct {
	Params string `json:"params"`
	Folds  int    `json:"folds"`
}

// rowsOf returns the distinct rows and datasets of cells, and the row
// index of every cell. Datasets come in first-seen order; rows in an order
// that keeps each dataset's (see rowOrder), so that a partial run whose
// first cells are missing lists its rows as the whole run does wherever
// the cells present order them.
func rowsOf(cells []*outcome.CellResult, shown shownNames) (rows []Row, datasets []string, rowOf []int) {
	type key struct{ e, l, p, r string }
	idx := map[key]int{}
	seenDS := map[string]bool{}
	encoders := map[string]bool{}
	for _, c := range cells {
		encoders[c.Encoder] = true
	}
	showEnc := len(encoders) > 1
	perDS := map[string][]int{} // each dataset's rows, in the order of its cells
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
			rk, sh := shown.of(c.ID)
			rows = append(rows, Row{Encoder: sh.Encoder, Learner: sh.Learner, Params: sh.Params, Reduction: sh.Reduction,
				Full: sh.Label(showEnc), key: rk, keyLabel: rk.Label(showEnc)})
		}
		rowOf = append(rowOf, i)
		perDS[c.Dataset] = append(perDS[c.Dataset], i)
	}
	nameRows(rows)
	seqs := make([][]int, len(datasets))
	for d, name := range datasets {
		seqs[d] = perDS[name]
	}
	order := rowOrder(len(rows), seqs)
	pos := make([]int, len(rows))
	sorted := make([]Row, len(rows))
	for p, r := range order {
		pos[r] = p
		sorted[p] = rows[r]
	}
	for i, r := range rowOf {
		rowOf[i] = pos[r]
	}
	return sorted, datasets, rowOf
}

// rowOrder returns the n rows (numbered in first-seen order) in an order
// that keeps the order of every sequence in seqs (each dataset's rows, in
// the order of its cells): the grid lists the same rows for each dataset,
// so a row missing from one dataset's cells takes its place from another.
// Among the rows free to come next it takes the first seen; rows that the
// sequences order both ways (no grid does) keep their first-seen order.
func rowOrder(n int, seqs [][]int) []int {
	after := make([][]int, n) // after[a]: rows some sequence puts right after a
	preds := make([]int, n)
	for _, s := range seqs {
		for i := 1; i < len(s); i++ {
			if s[i-1] != s[i] {
				after[s[i-1]] = append(after[s[i-1]], s[i])
				preds[s[i]]++
			}
		}
	}
	order := make([]int, 0, n)
	placed := make([]bool, n)
	for len(order) < n {
		next := -1
		for r := range n {
			if !placed[r] && preds[r] == 0 {
				next = r
				break
			}
		}
		if next < 0 { // a cycle: take the first row not placed
			for r := range n {
				if !placed[r] {
					next = r
					break
				}
			}
		}
		placed[next] = true
		order = append(order, next)
		for _, b := range after[next] {
			preds[b]--
		}
	}
	return order
}

// FindRow returns the index of the row that name designates: the row
// whose short name (Label) is name; else the row whose full label is
// name, or the label its blocks' names make (without their labels);
// else the only row whose parts (pipeline, learner, each parameter, the
// tuning mark, reduction) include the words of name in their order
// ("logreg ova" designates "logreg C=[0.1, 1, 10] (tuned) ova"), or whose
// full label starts with name and a space. It fails when no row matches,
// suggesting the closest short names, or when several do, naming them.
func FindRow(rows []Row, name string) (int, error) {
	for i, r := range rows {
		if r.Label == name {
			return i, nil
		}
	}
	for i, r := range rows {
		if name != "" && (r.Full == name || r.keyLabel == name) {
			return i, nil
		}
	}
	var found []int
	for i, r := range rows {
		if r.designatedBy(name) {
			found = append(found, i)
		}
	}
	if len(found) == 1 {
		return found[0], nil
	}
	if len(found) == 0 && len(rows) == 0 {
		return -1, fmt.Errorf("%q matches no row (the tables have no rows)", name)
	}
	if len(found) == 0 {
		found = make([]int, len(rows))
		for i := range rows {
			found[i] = i
		}
		return -1, fmt.Errorf("%q matches no row%s (rows: %s)", name, suggest.DidYouMean(name, rowNames(rows, found)), quoted(rowNames(rows, found)))
	}
	return -1, fmt.Errorf("%q matches several rows: %s", name, quoted(rowNames(rows, found)))
}

// designatedBy tells whether name designates r though it is neither its
// short name nor its full label (see FindRow).
func (r Row) designatedBy(name string) bool {
	if strings.TrimSpace(name) == "" {
		return false
	}
	if strings.HasPrefix(r.Full, name+" ") || strings.HasPrefix(r.keyLabel, name+" ") {
		return true
	}
	shown := setup.Key{Encoder: r.Encoder, Learner: r.Learner, Params: r.Params, Reduction: r.Reduction}
	return wordsIn(name, partsOf(shown).words()) || wordsIn(name, partsOf(r.key).words())
}

// wordsIn tells whether name is some of parts, in their order, joined by
// single spaces.
func wordsIn(name string, parts []string) bool {
	if name == "" {
		return true
	}
	for i, p := range parts {
		rest, ok := strings.CutPrefix(name, p)
		if !ok || p == "" || (rest != "" && rest[0] != ' ') {
			continue
		}
		if wordsIn(strings.TrimPrefix(rest, " "), parts[i+1:]) {
			return true
		}
	}
	return false
}

// rowNames returns the short names of the rows that idx picks.
func rowNames(rows []Row, idx []int) []string {
	out := make([]string, len(idx))
	for i, r := range idx {
		out[i] = rows[r].Label
	}
	return out
}

// quoted quotes each name and joins them by ", ".
func quoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// unrankedNote says why a metric is not ranked: unknown (the lookup's
// error), else a timing.
func unrankedNote(unknown error) string {
	if unknown != nil {
		return unknown.Error() + ": reported, not ranked or tested"
	}
	return "timing metric: reported, not ranked or tested (output { rank_timings = true } ranks it)"
}

// BuildTables computes the comparison table of every metric of s: means,
// ranks, the corrected t-test of each row against the baseline row
// (s.Baseline, named as in FindRow; empty for none) at level s.Alpha
// (config.DefaultAlpha when 0) with its effect size, and the tests across
// datasets. Timing metrics are reported without ranks or tests unless
// s.RankTimings. Problems that do not prevent the table (an unknown
// baseline, a test that cannot run) are recorded in Notes.
func BuildTables(s Spec, cells []*outcome.CellResult) *Tables {
	alpha := s.Alpha
	if alpha == 0 {
		alpha = config.DefaultAlpha
	}
	shown := newShown(shownRows(s.Setup))
	rows, datasets, rowOf := rowsOf(cells, shown)
	t := &Tables{Experiment: s.Experiment, Baseline: s.Baseline, Alpha: alpha, Selected: selections(cells, shown, rows),
		Searches: searches(cells, shown, slices.ContainsFunc(s.Metrics, IsTiming)), shown: shown}
	base, baseNote := baselineRow(rows, s.Baseline)
	dsIndex := map[string]int{}
	for i, d := range datasets {
		dsIndex[d] = i
	}
	testSet := testSets(s.Setup, dsIndex, len(datasets))
	t.Setup = setupRows(rows, shownRows(s.Setup))
	t.rows, t.datasets = rows, datasets
	t.PerClass, t.Views = perClassAndViews(cells, rows, datasets, rowOf)
	for _, m := range s.Metrics {
		// A metric this bench does not know (a run of a newer bench) has
		// no direction to rank by: it is reported, not ranked.
		higher, unknown := HigherIsBetter(m)
		c := &Comparison{Metric: m, HigherIsBetter: higher, Datasets: datasets, TestSet: testSet, Rows: rows,
			Baseline: base, Alpha: alpha, Ranked: unknown == nil && (s.RankTimings || !IsTiming(m))}
		if !c.Ranked {
			c.Baseline = -1
		}
		if baseNote != "" && c.Ranked {
			c.Notes = append(c.Notes, baseNote)
		}
		c.fill(cells, rowOf, dsIndex)
		c.compare(s, unknown)
		t.Metrics = append(t.Metrics, c)
	}
	t.Edges = nameEdges(TuningEdges(cells), rows, rowOf)
	t.conventions = conventionRows(t, cells)
	return t
}

// baselineRow finds the baseline row (FindRow rule): −1 when none is
// named, or, with a note saying so, when none matches.
func baselineRow(rows []Row, baseline string) (int, string) {
	if baseline == "" {
		return -1, ""
	}
	base, err := FindRow(rows, baseline)
	if err != nil {
		return base, "baseline " + err.Error() + "; no significance marks"
	}
	return base, ""
}

// testSets reports, for each of n datasets (by dsIndex), whether the
// set-up gives it a test file.
func testSets(setup *Setup, dsIndex map[string]int, n int) []bool {
	testSet := make([]bool, n)
	if setup != nil {
		for _, d := range setup.Datasets {
			if i, ok := dsIndex[d.Name]; ok {
				testSet[i] = d.TestPath != ""
			}
		}
	}
	return testSet
}

// fill sets the comparison's entries from the cells (rowOf[i] is cell i's
// row): each cell's fold scores of the metric, their mean and spread, and
// its marks.
func (c *Comparison) fill(cells []*outcome.CellResult, rowOf []int, dsIndex map[string]int) {
	m := c.Metric
	c.Entries = make([][]Entry, len(c.Rows))
	for r := range c.Rows {
		c.Entries[r] = make([]Entry, len(c.Datasets))
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
		e.Softmax = fromProbabilities(m) && softmaxCell(cell)
		e.TiedFolds, e.OneClassFolds = constantFolds(cell)
		e.NotConverged, e.Fits, e.NotConvergedFolds = notConvergedFits(cell)
	}
}

// compare ranks a ranked comparison's rows and runs its tests (the
// Bayesian ones when s sets a rope); an unranked one gets no ranks and a
// note saying why (unknown: the metric's lookup error).
func (c *Comparison) compare(s Spec, unknown error) {
	if !c.Ranked {
		c.AvgRank = make([]float64, len(c.Rows))
		for r := range c.AvgRank {
			c.AvgRank[r] = math.NaN()
		}
		c.Notes = append(c.Notes, unrankedNote(unknown))
		return
	}
	c.rank()
	c.testBaseline()
	c.across()
	if s.Rope != nil {
		c.bayes(*s.Rope, s.BayesPairs, s.Seed)
	}
}

// fromProbabilities reports whether a metric reads the class scores as
// probabilities (log_loss, brier: metrics.Metric.ReadsProbabilities), so
// that a softmax of scores in their place is worth a footnote.
func fromProbabilities(metric string) bool {
	m, err := metrics.Lookup(metric)
	return err == nil && m.ReadsProbabilities
}

// softmaxCell reports whether some fold of a cell scored a softmax of the
// decoder's class scores.
func softmaxCell(c *outcome.CellResult) bool {
	for _, f := range c.Folds {
		if f.SoftmaxScores {
			return true
		}
	}
	return false
}

// constantFolds counts the folds of a cell whose scores were all tied,
// and the others that predicted one class for every test row of several
// classes.
func constantFolds(c *outcome.CellResult) (tied, oneClass int) {
	for i := range c.Folds {
		switch f := &c.Folds[i]; {
		case f.AllTied():
			tied++
		case f.OneClass():
			oneClass++
		}
	}
	return tied, oneClass
}

// notConvergedFits sums the fits of a cell's folds that did not converge
// and the fits of those folds, and counts the folds.
func notConvergedFits(c *outcome.CellResult) (notConverged, fits, folds int) {
	for i := range c.Folds {
		n, m := c.Folds[i].NotConvergedFits()
		if n > 0 {
			notConverged += n
			fits += m
			folds++
		}
	}
	return notConverged, fits, folds
}

// notConverged reports whether the entry is shown and flagged for fits
// that did not converge.
func (e *Entry) notConverged() bool { return e.NotConverged > 0 && e.ok() }

// notConvergedEntries returns "ROW on DATASET: N of M fits on F of G
// folds" for every entry of c with fits that did not converge, in table
// order, escaped by esc.
func (c *Comparison) notConvergedEntries(esc func(string) string) []string {
	var out []string
	for r, row := range c.Entries {
		for d := range row {
			if e := &row[d]; e.notConverged() {
				out = append(out, fmt.Sprintf("%s on %s: %d of %d fits on %d of %d folds", esc(c.Rows[r].Label), esc(c.Datasets[d]), e.NotConverged, e.Fits, e.NotConvergedFolds, e.N))
			}
		}
	}
	return out
}

// constant reports whether the entry is shown and flagged for the folds
// of a constant model: tied, or of one predicted class.
func (e *Entry) constant() bool { return e.TiedFolds+e.OneClassFolds > 0 && e.ok() }

// constantEntries returns "ROW on DATASET: N of M folds" for every shown
// entry of c whose count(e) is above 0, in table order, escaped by esc.
func (c *Comparison) constantEntries(esc func(string) string, count func(*Entry) int) []string {
	var out []string
	for r, row := range c.Entries {
		for d := range row {
			if e := &row[d]; e.ok() && count(e) > 0 {
				out = append(out, fmt.Sprintf("%s on %s: %d of %d folds", esc(c.Rows[r].Label), esc(c.Datasets[d]), count(e), e.N))
			}
		}
	}
	return out
}

// hasSoftmax reports whether some entry of c is flagged Softmax.
func (c *Comparison) hasSoftmax() bool {
	for _, row := range c.Entries {
		for _, e := range row {
			if e.Softmax && e.ok() {
				return true
			}
		}
	}
	return false
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
		br, best := bestRank(ranks), shownBest(vals, ranks, c.HigherIsBetter)
		for i, r := range idx {
			e := &c.Entries[r][d]
			e.Rank = ranks[i]
			e.Best = ranks[i] == br || fixed(e.Mean, meanDigits) == best
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

// shownBest returns the best of vals as the tables show it: of the values
// of best rank (tied within stats.TieTolerance, which may straddle a
// rounding boundary) the highest, or the lowest when lower is better.
func shownBest(vals, ranks []float64, higherIsBetter bool) string {
	b := bestRank(ranks)
	best, found := 0.0, false
	for i, r := range ranks {
		if r == b && (!found || (higherIsBetter && vals[i] > best) || (!higherIsBetter && vals[i] < best)) {
			best, found = vals[i], true
		}
	}
	if !found {
		return ""
	}
	return fixed(best, meanDigits)
}

// bestRank returns the smallest of ranks.
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
					e.Diff, e.Lo, e.Hi, err = stats.CorrectedInterval(a, bb, nTrain, nTest, 0.95)
				}
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
			if why, ok := stats.Unmet(err); ok {
				e.NoTest = why
			} else if err != nil {
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

// across runs the tests across datasets on the complete rows, given at
// least stats.MinFriedmanDatasets datasets and 2 rows: Friedman with the
// Nemenyi critical difference, the post-hoc tests against the baseline
// (at least 3 rows) and, for exactly two rows, Wilcoxon.
func (c *Comparison) across() {
	if len(c.Rows) < 2 {
		return
	}
	a := &Across{}
	c.Across = a
	var used []int
	for d, ds := range c.Datasets {
		for r := range c.Rows {
			if c.Entries[r][d].ok() {
				used = append(used, d)
				a.Datasets = append(a.Datasets, ds)
				break
			}
		}
	}
	for r := range c.Rows {
		complete := true
		for _, d := range used {
			complete = complete && c.Entries[r][d].ok()
		}
		if complete {
			a.Rows = append(a.Rows, r)
		} else {
			a.LeftOut = append(a.LeftOut, r)
		}
	}
	scores := make([][]float64, len(used))
	for i, d := range used {
		scores[i] = make([]float64, len(a.Rows))
		for j, r := range a.Rows {
			scores[i][j] = c.Entries[r][d].Mean
		}
	}
	c.completeRanks(a, scores)
	N, k := len(used), len(a.Rows)
	switch {
	case k < 2:
		a.NoTest = fmt.Sprintf("no test across datasets: %s a value on every dataset (the tests need at least 2)", countOf(k, "row has", "rows have"))
	case N < stats.MinFriedmanDatasets:
		a.NoTest = fmt.Sprintf("no test across datasets on %s (they need at least %d)", countOf(N, "dataset", "datasets"), stats.MinFriedmanDatasets)
		return
	default:
		c.friedman(a, scores)
	}
	if k == 2 {
		x, y := make([]float64, N), make([]float64, N)
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
}

// completeRanks sets the average ranks when some rows are left out of the
// tests across datasets: ranks averaged over different datasets and
// competitors cannot be compared (a row run on one dataset only could
// rank first), so the complete rows get their average rank among
// themselves, the ranks the tests use, and the rows left out none.
func (c *Comparison) completeRanks(a *Across, scores [][]float64) {
	if len(a.LeftOut) == 0 {
		return
	}
	for _, r := range a.LeftOut {
		c.AvgRank[r] = math.NaN()
	}
	if len(a.Rows) == 0 || len(scores) == 0 {
		return
	}
	avg, err := stats.AverageRanks(scores, c.HigherIsBetter)
	if err != nil {
		c.Notes = append(c.Notes, err.Error())
		return
	}
	for j, r := range a.Rows {
		c.AvgRank[r] = avg[j]
	}
}

// friedman runs the Friedman test, the Nemenyi critical difference and,
// with a baseline among at least 3 rows tested, the post-hoc tests against
// it.
func (c *Comparison) friedman(a *Across, scores [][]float64) {
	fr, err := stats.Friedman(scores, c.HigherIsBetter)
	if err != nil {
		c.Notes = append(c.Notes, err.Error())
		return
	}
	a.Friedman = &fr
	if a.CD, err = stats.NemenyiCD(fr.K, fr.N, c.Alpha); err != nil {
		c.Notes = append(c.Notes, err.Error())
	}
	if c.Baseline < 0 || fr.K < 3 {
		return
	}
	control := slices.Index(a.Rows, c.Baseline)
	if control < 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("the baseline %s is left out of the tests across datasets: no Holm or Bonferroni–Dunn tests against it", c.Rows[c.Baseline].Label))
		return
	}
	ctl, err := stats.CompareWithControl(fr.AvgRanks, control, fr.N, c.Alpha)
	if err != nil {
		c.Notes = append(c.Notes, err.Error())
		return
	}
	a.Control = &ctl
}

// countOf is "1 row has" or "3 rows have".
func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
