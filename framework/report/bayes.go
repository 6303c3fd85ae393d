package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/plots"
	"github.com/polyclass/polyclass/framework/stats"
)

// Bayes holds the Bayesian comparisons of one metric's table (Benavoli,
// Corani, Demšar & Zaffalon 2017): for each compared pair of rows, the
// correlated t-test on every dataset's fold scores and the signed-rank
// test on the mean scores across datasets, each giving P(left), P(rope)
// and P(right) for a region of practical equivalence of half-width Rope.
type Bayes struct {
	Rope float64
	// Prior is the signed-rank test's prior weight at zero difference and
	// Samples its number of Monte Carlo samples.
	Prior   float64
	Samples int
	// AllPairs: every pair of rows is compared (bayes_pairs), not each row
	// with the baseline.
	AllPairs bool
	// Pairs: each row against the baseline (right), in row order; or,
	// with bayes_pairs, every pair of rows, the earlier row on the left.
	Pairs []BayesPair
}

// BayesPair is the Bayesian comparison of row Left with row Right. The
// posteriors are those of the difference right − left of scores oriented
// so that higher is better (a lower-is-better metric's scores negated):
// P(left) is the probability that the left row is better by more than the
// rope, whatever the metric's direction.
type BayesPair struct {
	Left, Right int
	// Datasets[d] is the correlated t-test on dataset d; nil when either
	// row has no value there or the test's preconditions fail.
	Datasets []*stats.CorrelatedPosterior
	// NoTest[d] says why there is no test on dataset d although both rows
	// have a value there (a single split, zero variance: see
	// stats.PreconditionError); empty otherwise.
	NoTest []string
	// Across is the signed-rank test over AcrossDatasets, those where
	// both rows have a value, drawn from Seed; nil when AcrossNoTest says
	// why not (fewer than stats.MinDatasets datasets, zero variance).
	Across         *stats.SignedRankPosterior
	AcrossDatasets []string
	AcrossNoTest   string
	Seed           uint64
}

// bayesSeed is the seed of the signed-rank test of one pair of rows:
// derived from the experiment's seed and the rows compared (their full
// labels: short names depend on the other rows), so that the numbers
// depend on nothing else (not on the worker count or the other rows). Every metric draws the same weights for the pair: accuracy and
// error, which mirror each other, give the same probabilities.
func bayesSeed(seed uint64, left, right string) uint64 {
	return cv.Seed(seed, "bayes signed-rank", left, right)
}

// bayes runs the Bayesian comparisons of c with rope: against the baseline
// (none without one), or between every pair of rows.
func (c *Comparison) bayes(rope float64, pairs bool, seed uint64) {
	b := &Bayes{Rope: rope, Prior: stats.DefaultSignedRankPrior, Samples: stats.DefaultSignedRankSamples, AllPairs: pairs}
	switch {
	case pairs:
		for l := range c.Rows {
			for r := l + 1; r < len(c.Rows); r++ {
				b.Pairs = append(b.Pairs, c.bayesPair(l, r, rope, seed))
			}
		}
	case c.Baseline >= 0:
		for r := range c.Rows {
			if r != c.Baseline {
				b.Pairs = append(b.Pairs, c.bayesPair(r, c.Baseline, rope, seed))
			}
		}
	default:
		return
	}
	c.Bayes = b
}

// oriented returns x with its sign flipped for a lower-is-better metric.
func (c *Comparison) oriented(x []float64) []float64 {
	if c.HigherIsBetter {
		return x
	}
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = -v
	}
	return out
}

// bayesPair compares row l (left) with row r (right).
func (c *Comparison) bayesPair(l, r int, rope float64, seed uint64) BayesPair {
	p := BayesPair{Left: l, Right: r, Datasets: make([]*stats.CorrelatedPosterior, len(c.Datasets)), NoTest: make([]string, len(c.Datasets))}
	var xs, ys []float64
	for d, ds := range c.Datasets {
		el, er := &c.Entries[l][d], &c.Entries[r][d]
		if !el.ok() || !er.ok() {
			continue
		}
		xs, ys = append(xs, el.Mean), append(ys, er.Mean)
		p.AcrossDatasets = append(p.AcrossDatasets, ds)
		p.Datasets[d], p.NoTest[d] = c.bayesDataset(l, r, d, rope)
	}
	p.Across, p.AcrossNoTest, p.Seed = c.bayesAcross(l, r, xs, ys, rope, seed)
	return p
}

// bayesDataset runs the correlated t-test of rows l and r on dataset d
// with rope,
// where both have a value: the posterior, or why there is none (an unmet
// precondition; other failures are noted).
func (c *Comparison) bayesDataset(l, r, d int, rope float64) (*stats.CorrelatedPosterior, string) {
	el, er := &c.Entries[l][d], &c.Entries[r][d]
	if err := stats.CheckFolds("correlated t-test", min(el.N, er.N)); err != nil {
		why, _ := stats.Unmet(err)
		return nil, why
	}
	x, y, nTrain, nTest, err := pairFolds(el.folds, er.folds)
	if err != nil && r == c.Baseline {
		return nil, "" // the t-test against the baseline notes it
	}
	if err == nil {
		var post stats.CorrelatedPosterior
		if post, err = stats.BayesCorrelatedTTest(c.oriented(x), c.oriented(y), nTrain, nTest, rope); err == nil {
			return &post, ""
		}
		if why, ok := stats.Unmet(err); ok {
			return nil, why
		}
	}
	c.Notes = append(c.Notes, fmt.Sprintf("%s vs %s on %s: no Bayesian correlated t-test: %v", c.Rows[l].Label, c.Rows[r].Label, c.Datasets[d], err))
	return nil, ""
}

// bayesAcross runs the signed-rank test of rows l and r on their mean
// scores xs and ys over the datasets where both have one: the posterior,
// or why there is none, and the seed it draws from. A table with a single
// dataset has no test across datasets to explain.
func (c *Comparison) bayesAcross(l, r int, xs, ys []float64, rope float64, seed uint64) (*stats.SignedRankPosterior, string, uint64) {
	if !c.hasAcross() {
		return nil, "", 0
	}
	alpha := make([]float64, len(xs)+1)
	for i := range alpha {
		alpha[i] = 1
	}
	alpha[0] = stats.DefaultSignedRankPrior
	s := bayesSeed(seed, c.Rows[l].Full, c.Rows[r].Full)
	post, err := stats.BayesSignedRank(c.oriented(xs), c.oriented(ys), rope, stats.DefaultSignedRankPrior,
		stats.DefaultSignedRankSamples, stats.NewDirichletSource(alpha, s))
	if why, ok := stats.Unmet(err); ok {
		return nil, why, 0
	}
	if err != nil {
		c.Notes = append(c.Notes, fmt.Sprintf("%s vs %s: no Bayesian signed-rank test: %v", c.Rows[l].Label, c.Rows[r].Label, err))
		return nil, "", 0
	}
	return &post, "", s
}

// leftMinusRight returns the posterior mean of the difference left − right
// in the metric's own units (the posteriors are of right − left, oriented).
func (c *Comparison) leftMinusRight(p *stats.CorrelatedPosterior) float64 {
	if c.HigherIsBetter {
		return -p.Mean
	}
	return p.Mean
}

// hasAcross reports whether the Bayesian table has an "across datasets"
// column: the table has several datasets.
func (c *Comparison) hasAcross() bool { return len(c.Datasets) > 1 }

// probText formats P(left) / P(rope) / P(right) with 3 decimals, each
// probability above 0.95 (a decision, in Benavoli et al.'s use) set with
// strong; without rope, P(rope) is left out.
func probText(p stats.Posterior3, rope float64, strong func(string) string) string {
	one := func(v float64) string {
		s := fixed(v, 3)
		if v > 0.95 {
			s = strong(s)
		}
		return s
	}
	if rope == 0 {
		return one(p.PLeft) + " / " + one(p.PRight)
	}
	return one(p.PLeft) + " / " + one(p.PRope) + " / " + one(p.PRight)
}

// bayesCells returns the entries of pair p's line: one per dataset, then
// the signed-rank test's when the table has an across-datasets column;
// "no test: WHY" where a test's preconditions fail (noTestCell) and "–"
// where there is no test otherwise (a value missing or failed).
func (c *Comparison) bayesCells(p BayesPair, strong func(string) string) []string {
	var out []string
	for d, post := range p.Datasets {
		var p3 *stats.Posterior3
		if post != nil {
			p3 = &post.Posterior3
		}
		out = append(out, c.bayesCell(p3, p.NoTest[d], strong))
	}
	if c.hasAcross() {
		var post *stats.Posterior3
		if p.Across != nil {
			post = &p.Across.Posterior3
		}
		out = append(out, c.bayesCell(post, p.AcrossNoTest, strong))
	}
	return out
}

// noTestReasons returns, for each entry of bayesCells(p), why its test's
// preconditions fail, "" where they hold or there is no test otherwise.
func (c *Comparison) noTestReasons(p BayesPair) []string {
	out := slices.Clone(p.NoTest) // one per dataset, as bayesCells reads it
	if c.hasAcross() {
		out = append(out, p.AcrossNoTest)
	}
	return out
}

// bayesCell is one entry of the Bayesian table: the probabilities of
// post, or why there is no test.
func (c *Comparison) bayesCell(post *stats.Posterior3, why string, strong func(string) string) string {
	switch {
	case why != "":
		return noTestCell(why)
	case post == nil:
		return "–"
	}
	return probText(*post, c.Bayes.Rope, strong)
}

// noTestCell is the entry of a test whose preconditions fail: "no test: "
// and the reason, e.g. "no test: 2 datasets (needs at least 3)".
func noTestCell(why string) string { return "no test: " + why }

// bayesHeads names the Bayesian table's columns after left and right.
func (c *Comparison) bayesHeads() []string {
	h := append([]string{}, c.Datasets...)
	if c.hasAcross() {
		h = append(h, "across datasets")
	}
	return h
}

// bayesTitle is the Bayesian table's heading.
func (c *Comparison) bayesTitle() string {
	what := "against the baseline"
	if c.Bayes.AllPairs {
		what = "between every pair of rows"
	}
	return fmt.Sprintf("%s: Bayesian comparisons %s (rope %s)", c.Metric, what, num(c.Bayes.Rope))
}

// rightLabel is the right row's label, "(baseline)" added to the
// baseline's.
func (c *Comparison) rightLabel(p BayesPair) string {
	if p.Right == c.Baseline {
		return c.Rows[p.Right].Label + " (baseline)"
	}
	return c.Rows[p.Right].Label
}

// bayesLegend explains the Bayesian table in the flavor's markup.
func bayesLegend(c *Comparison, f flavor) string {
	better := "higher"
	if !c.HigherIsBetter {
		better = "lower"
	}
	probs := "P(left) / P(rope) / P(right): the posterior probabilities that the left row's " + f.esc(c.Metric) + " is " + better +
		" than the right row's by more than the rope (" + num(c.Bayes.Rope) + "), that the two lie within the rope of each other, and that the right row's is " +
		better + " by more than the rope"
	if c.Bayes.Rope == 0 {
		probs = "P(left) / P(right): the posterior probabilities that the left row's " + f.esc(c.Metric) + " is " + better +
			" than the right row's, and the reverse (rope 0)"
	}
	s := probs + "; a probability above 0.95 is set in bold. Per dataset: Bayesian correlated t-test on the fold scores (Student t posterior with J " +
		"− 1 degrees of freedom, J folds, scale √((1/J + ρ/(1 − ρ))·s²), ρ = n_test/n)."
	if c.hasAcross() {
		s += fmt.Sprintf(" Across datasets: Bayesian signed-rank test on the mean scores of the datasets where both rows have one (Dirichlet process, prior weight %s at zero difference, %d Monte Carlo samples seeded from the experiment's seed).",
			num(c.Bayes.Prior), c.Bayes.Samples)
	}
	return s + fmt.Sprintf(" –: no test (a value missing or failed); no test: the test's preconditions fail (fewer than %d splits, fewer than %d datasets across datasets, or differences of zero variance). Benavoli, Corani, Demšar and Zaffalon, JMLR 18, 2017.",
		stats.MinFolds, stats.MinDatasets)
}

// texBayesLegend is bayesLegend in LaTeX: the shared sentence with its
// formula typeset.
func texBayesLegend(c *Comparison) string {
	s := bayesLegend(c, texFlavor)
	return strings.NewReplacer("√((1/J + ρ/(1 − ρ))·s²)", `$\sqrt{(1/J + \rho/(1-\rho))\,s^2}$`, "ρ = n_test/n", `$\rho = n_{\mathrm{test}}/n$`,
		"J − 1", `$J-1$`, "Demšar", `Dem\v{s}ar`).Replace(s)
}

// jsonBayes is the Bayesian comparisons of one metric.
type jsonBayes struct {
	Rope    jnum            `json:"rope"`
	Prior   jnum            `json:"prior"`
	Samples int             `json:"samples"`
	Pairs   []jsonBayesPair `json:"pairs"`
}

// jsonBayesPair is one comparison: the correlated t-test per dataset
// (mean_diff: the posterior mean of left − right in the metric's units,
// scale and df of its Student t) and the signed-rank test across datasets.
type jsonBayesPair struct {
	Left       string             `json:"left"`
	Right      string             `json:"right"`
	Datasets   []jsonBayesDataset `json:"datasets"`
	SignedRank *jsonSignedRank    `json:"signed_rank,omitempty"`
	// NoTest lists the datasets where both rows have a value but the
	// correlated t-test's preconditions fail, and SignedRankNoTest why
	// there is no signed-rank test, with several datasets.
	NoTest           []jsonNoTest `json:"no_test,omitempty"`
	SignedRankNoTest string       `json:"signed_rank_no_test,omitempty"`
}

// jsonNoTest is a dataset without a test and why.
type jsonNoTest struct {
	Dataset string `json:"dataset"`
	Reason  string `json:"reason"`
}

type jsonBayesDataset struct {
	Dataset  string `json:"dataset"`
	PLeft    jnum   `json:"p_left"`
	PRope    jnum   `json:"p_rope"`
	PRight   jnum   `json:"p_right"`
	MeanDiff jnum   `json:"mean_diff"`
	Scale    jnum   `json:"scale"`
	DF       jnum   `json:"df"`
}

type jsonSignedRank struct {
	Datasets []string `json:"datasets"`
	PLeft    jnum     `json:"p_left"`
	PRope    jnum     `json:"p_rope"`
	PRight   jnum     `json:"p_right"`
	Seed     uint64   `json:"seed"`
}

// jsonBayesOf lays out c's Bayesian comparisons; nil without them.
func jsonBayesOf(c *Comparison) *jsonBayes {
	if c.Bayes == nil {
		return nil
	}
	jb := &jsonBayes{Rope: jnum(c.Bayes.Rope), Prior: jnum(c.Bayes.Prior), Samples: c.Bayes.Samples, Pairs: []jsonBayesPair{}}
	for _, p := range c.Bayes.Pairs {
		jp := jsonBayesPair{Left: c.Rows[p.Left].Label, Right: c.Rows[p.Right].Label, Datasets: []jsonBayesDataset{}}
		for d, post := range p.Datasets {
			if p.NoTest[d] != "" {
				jp.NoTest = append(jp.NoTest, jsonNoTest{Dataset: c.Datasets[d], Reason: p.NoTest[d]})
			}
			if post == nil {
				continue
			}
			jp.Datasets = append(jp.Datasets, jsonBayesDataset{Dataset: c.Datasets[d], PLeft: jnum(post.PLeft), PRope: jnum(post.PRope),
				PRight: jnum(post.PRight), MeanDiff: jnum(c.leftMinusRight(post)), Scale: jnum(post.Scale), DF: jnum(post.DF)})
		}
		if a := p.Across; a != nil {
			jp.SignedRank = &jsonSignedRank{Datasets: p.AcrossDatasets, PLeft: jnum(a.PLeft), PRope: jnum(a.PRope), PRight: jnum(a.PRight), Seed: p.Seed}
		}
		jp.SignedRankNoTest = p.AcrossNoTest
		jb.Pairs = append(jb.Pairs, jp)
	}
	return jb
}

// bayesFigures draws the posterior of every Bayesian comparison of c: with
// one dataset the correlated t-test's density (file
// bayes_METRIC_LEFT_vs_RIGHT), with several the simplex of the signed-rank
// test's Monte Carlo samples; ff gets those that cannot be drawn.
func bayesFigures(c *Comparison, ff *figureFailures) []Figure {
	if c.Bayes == nil {
		return nil
	}
	var figs []Figure
	for _, p := range c.Bayes.Pairs {
		left, right := c.Rows[p.Left].Label, c.Rows[p.Right].Label
		name := "bayes_" + fileSafe(c.Metric) + "_" + fileSafe(left) + "_vs_" + fileSafe(right)
		title := fmt.Sprintf("%s: %s vs %s", c.Metric, left, right)
		var (
			f       *plots.Figure
			err     error
			caption string
		)
		switch {
		case !c.hasAcross() && p.Datasets[0] != nil:
			post := p.Datasets[0]
			diff := "right − left"
			if !c.HigherIsBetter {
				diff = "left − right"
			}
			caption = fmt.Sprintf("%s on %s: posterior of the mean difference of the fold scores (Bayesian correlated t-test, rope %s)", title, c.Datasets[0], num(c.Bayes.Rope))
			f, err = plots.PosteriorDensity(title+" on "+c.Datasets[0], fmt.Sprintf("difference in %s (%s)", c.Metric, diff), left, right,
				post.Mean, post.Scale, post.DF, post.Rope, plots.Probabilities{Left: post.PLeft, Rope: post.PRope, Right: post.PRight})
		case c.hasAcross() && p.Across != nil:
			a := p.Across
			caption = fmt.Sprintf("%s across %d datasets: %d Monte Carlo samples of the Bayesian signed-rank test's posterior (rope %s)",
				title, len(p.AcrossDatasets), len(a.Samples), num(c.Bayes.Rope))
			f, err = plots.Simplex(title, left, right, a.Samples, plots.Probabilities{Left: a.PLeft, Rope: a.PRope, Right: a.PRight})
		default:
			continue
		}
		if err != nil {
			ff.add(name, err)
			continue
		}
		figs = append(figs, Figure{Name: name, Metric: c.Metric, Kind: "bayes", Caption: caption, Fig: f,
			key: figureKey("bayes", c.Metric, c.Rows[p.Left].Full, c.Rows[p.Right].Full)})
	}
	return figs
}
