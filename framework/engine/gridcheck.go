package engine

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/metrics"
	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/suggest"
)

// checker collects diagnostics. Its checks of a bound grid (see check)
// are pure: they read the grid and report, and need no file and no
// process, so that each is tested on a grid built by hand.
type checker struct {
	diags hcl.Diagnostics
}

// errorf records an error at rng, or about the whole file when rng is
// empty.
func (ck *checker) errorf(rng hcl.Range, summary, format string, args ...any) {
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...)}
	if rng.Filename != "" {
		d.Subject = &rng
	}
	ck.diags = append(ck.diags, d)
}

// warnf records a warning at rng.
func (ck *checker) warnf(rng hcl.Range, summary, format string, args ...any) {
	ck.diags = append(ck.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: &rng})
}

// check applies the checks of the bound grid g: what fits with what. It
// reports every problem it finds.
func check(g *Grid) hcl.Diagnostics {
	var ck checker
	ck.metricNames(g.Experiment)
	ck.baselineTested(g.Experiment)
	ck.stratifiedMultiLabel(g)
	for _, l := range g.Learners {
		if l.StartErr != nil {
			continue // what its plugin offers is not known
		}
		if l.Config.Tune != nil {
			ck.tuned(l)
			ck.tuneMetricApplies(g, l)
			ck.tuneFolds(g, l)
			ck.iterativeTune(g, l)
			ck.halvingRows(g, l)
			ck.nIter(g, l)
		}
		ck.paramsApply(g, l)
		for _, red := range g.Reductions {
			if red.meets(l) {
				if red.StartErr == nil {
					ck.compatible(l, red)
				}
				ck.weighable(l, red)
			}
		}
	}
	ck.classNames(g)
	for _, d := range g.Datasets {
		for _, red := range g.Reductions {
			if red.covers(d) && red.StartErr == nil {
				ck.fits(d, red)
			}
		}
	}
	ck.metricsApply(g)
	ck.diags = append(ck.diags, bindOutput(&g.Experiment.Output, g.Experiment.Metrics)...)
	return unique(ck.diags)
}

// unique returns diags without repeats: a check of a pair (a learner's
// class_weight under each reduction it meets) may find the same problem
// more than once.
func unique(diags hcl.Diagnostics) hcl.Diagnostics {
	type key struct {
		summary, detail string
		at              hcl.Range
	}
	seen := map[key]bool{}
	var out hcl.Diagnostics
	for _, d := range diags {
		k := key{summary: d.Summary, detail: d.Detail}
		if d.Subject != nil {
			k.at = *d.Subject
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}

// metricNames checks that every metric the experiment names exists.
func (ck *checker) metricNames(exp *config.Experiment) {
	for i, m := range exp.Metrics {
		if _, err := metrics.Lookup(m); err != nil {
			ck.errorf(metricRange(exp, i), "Unknown metric", "%v", err)
		}
	}
}

// baselineTested warns of a baseline that no metric is tested against:
// every metric of the experiment is a timing metric, which the tables
// report without ranks or tests unless output { rank_timings = true }, so
// the baseline (and a rope's comparisons) would be ignored.
func (ck *checker) baselineTested(exp *config.Experiment) {
	o := &exp.Output
	if o.Baseline == "" || o.RankTimings || len(exp.Metrics) == 0 {
		return
	}
	for _, name := range exp.Metrics {
		m, err := metrics.Lookup(name)
		if err != nil || !m.Kind.Has(metrics.Timing) {
			return
		}
	}
	ck.warnf(o.BaselineRange, "Baseline not tested",
		"baseline = %q: every metric of the experiment (%s) is a timing metric, which the tables report without ranks or tests, so no row is tested against the baseline. Add a quality metric (accuracy, say) to metrics, or set rank_timings = true in the output block to test the timings.",
		o.Baseline, strings.Join(exp.Metrics, ", "))
}

// fits checks reduction red against dataset d, which it covers: a scheme
// for d's kind of data (multiclass or multi-label), and calibration on
// multiclass data only, with every class in enough training rows.
func (ck *checker) fits(d *Dataset, red *Reduction) {
	if d.MultiLabel && red.Config.Calibrate != "" {
		ck.errorf(red.Config.CalibrateRange, "Cannot calibrate", "Reduction %q: calibrate makes class probabilities of multiclass data; dataset %q is multi-label.", red.Config.Name, d.Config.Name)
	} else if red.Config.Calibrate != "" {
		ck.calibrationFolds(d, red)
	}
	if red.Scheme.MultiLabel != d.MultiLabel {
		kind := map[bool]string{false: "multiclass", true: "multi-label"}
		ck.errorf(red.Config.SchemeRange, "Reduction does not fit the dataset",
			"Reduction %q (scheme %s) is for %s data, but dataset %q is %s. Limit the reduction with datasets = [...].",
			red.Config.Name, red.Scheme.Name, kind[red.Scheme.MultiLabel], d.Config.Name, kind[d.MultiLabel])
	}
}

// metricsApply checks that each metric applies to some dataset of the
// grid (a multi-label metric on multiclass data alone would be empty).
func (ck *checker) metricsApply(g *Grid) {
	exp := g.Experiment
	if len(g.Datasets) == 0 {
		return
	}
	for _, name := range exp.Metrics {
		m, err := metrics.Lookup(name)
		if err != nil {
			continue // reported by metricNames
		}
		if !slices.ContainsFunc(g.Datasets, func(d *Dataset) bool { return applies(m, d) }) {
			ck.errorf(exp.MetricsRange, "Metric does not fit the datasets", "Metric %s (%s) applies to none of the datasets.", name, m.Kind)
		}
	}
}

// CheckCells checks the cells of grid g, resolved without an error in
// its file: an experiment of no cell (no reduction covers both a dataset
// and a learner) is an error at its experiment block, since a run would
// compute nothing and say "ok"; two rows shown alike are an error at a
// label (rowsAlike). A file with errors is left alone: its
// grid may lack what the errors left out.
func CheckCells(g *Grid) hcl.Diagnostics {
	var ck checker
	if len(g.Cells) == 0 {
		ck.errorf(g.Experiment.DeclRange, "No cells",
			"The experiment makes no cell: no reduction covers both a dataset and a learner (see their datasets and learners lists), so a run would compute nothing.")
	}
	ck.rowsAlike(g)
	return ck.diags
}

// compatible checks that learner l can train the problems of reduction
// red: the whole multiclass task, real-valued targets, or binary problems.
func (ck *checker) compatible(l *Learner, red *Reduction) {
	c := l.Info.Capabilities
	switch {
	case red.Scheme.NeedsMulticlass && !c.Multiclass:
		ck.errorf(red.Config.SchemeRange, "Learner cannot run without a reduction",
			"Reduction %q (scheme %s) hands the whole multiclass task to the learner, but learner %q (plugin %s) trains binary problems only. Use a reduction such as ova or ovo with it.",
			red.Config.Name, red.Scheme.Name, l.Config.Name, l.Config.Plugin)
	case red.Scheme.NeedsRegression && !c.Regression:
		ck.errorf(red.Config.SchemeRange, "Learner cannot fit real-valued targets",
			"Reduction %q needs a regression learner; learner %q (plugin %s) has no regression capability.",
			red.Config.Name, l.Config.Name, l.Config.Plugin)
	case !red.Scheme.NeedsMulticlass && !red.Scheme.NeedsRegression && !c.Binary:
		ck.errorf(red.Config.SchemeRange, "Learner cannot train binary problems",
			"Reduction %q trains binary problems; learner %q (plugin %s) cannot.", red.Config.Name, l.Config.Name, l.Config.Plugin)
	}
}

// weighable checks the class_weight of learner l under reduction red: set
// on one of them at most, and only for a learner that takes row weights.
func (ck *checker) weighable(l *Learner, red *Reduction) {
	lw, rw := l.Config.ClassWeight, red.Config.ClassWeight
	if lw != nil && rw != nil {
		ck.errorf(rw.Range, "Conflicting class weights",
			"Reduction %q and learner %q both set class_weight; set it on one of them (the learner's applies under every reduction).", red.Config.Name, l.Config.Name)
		return
	}
	ck.unweighable(l.Config, l.Info.Capabilities, classWeight(l, red))
}

// unweighable reports class weights w (nil: none) given to learner l,
// whose plugin has capabilities c, when the plugin takes no row weights.
func (ck *checker) unweighable(l *config.Learner, c plugin.Capabilities, w *config.ClassWeight) {
	if w == nil || c.Weights {
		return
	}
	ck.errorf(w.Range, "Learner cannot take class weights",
		"class_weight needs per-row weights, but learner %q (plugin %s) does not take them (its capabilities lack weights).", l.Name, l.Plugin)
}

// classNames checks every class_weight map against the datasets it meets:
// multiclass data only, and each class named must be a class of one of
// them. A learner block that did not bind (its plugin refused a
// parameter, or is missing) is checked too: its class names need only
// its block and the data, and would otherwise wait for the next pass.
func (ck *checker) classNames(g *Grid) {
	one := func(w *config.ClassWeight, owner string, covers func(*Dataset) bool) {
		if w == nil || w.Balanced {
			return
		}
		known := map[string]bool{}
		for _, d := range g.Datasets {
			if !covers(d) {
				continue
			}
			if d.MultiLabel {
				ck.errorf(w.Range, "Invalid class_weight", "%s: a class_weight map weighs rows by their class, but dataset %q is multi-label; use \"balanced\".", owner, d.Config.Name)
				return
			}
			for _, c := range d.Classes {
				known[c] = true
			}
		}
		ck.unknownClasses(w, owner, known)
	}
	all := func(*Dataset) bool { return true }
	for _, l := range learnerBlocks(g) {
		one(l.ClassWeight, "learner "+l.Name, all)
	}
	for _, red := range g.Reductions {
		one(red.Config.ClassWeight, "reduction "+red.Config.Name, red.covers)
	}
}

// unknownClasses reports each class of the class_weight map w that is not
// among known (the classes of the datasets its owner meets), with the
// known class it was probably meant to be ("tablewear" for "tableware").
func (ck *checker) unknownClasses(w *config.ClassWeight, owner string, known map[string]bool) {
	classes := make([]string, 0, len(known))
	for c := range known {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	names := make([]string, 0, len(w.ByClass))
	for n := range w.ByClass {
		names = append(names, n)
	}
	sort.Strings(names)
	named := map[int]string{} // the name given to each class of classes
	for _, n := range names {
		k := plugin.ClassIndex(n, classes) // "1.0" names class 1 of data compared as numbers
		switch first, twice := named[k]; {
		case k < 0:
			ck.errorf(w.Range, "Unknown class", "%s: class_weight names class %q, which no dataset it meets has%s.",
				owner, n, suggest.DidYouMean(n, classes))
		case twice:
			ck.errorf(w.Range, "Duplicate class", "%s: class_weight names class %q twice, as %q and %q.", owner, classes[k], first, n)
		default:
			named[k] = n
		}
	}
}

// learnerBlocks returns the learner blocks of grid g: those that bound,
// then those of its experiment that did not.
func learnerBlocks(g *Grid) []*config.Learner {
	blocks := make([]*config.Learner, 0, len(g.Learners))
	bound := map[*config.Learner]bool{}
	for _, l := range g.Learners {
		blocks = append(blocks, l.Config)
		bound[l.Config] = true
	}
	if g.Experiment == nil {
		return blocks
	}
	for _, l := range g.Experiment.Learners {
		if !bound[l] {
			blocks = append(blocks, l)
		}
	}
	return blocks
}

// tuned checks a tuned learner's tune block: something to tune, and a
// metric (the experiment's first one by default, see
// resolver.learnerParams) that exists and is not a timing;
// tuneMetricApplies checks it against the datasets.
func (ck *checker) tuned(l *Learner) {
	t := l.Config.Tune
	if len(l.Tuned) == 0 {
		ck.errorf(t.DeclRange, "Nothing to tune", "Learner %q has a tune block but no parameter given as a list, such as C = [0.1, 1, 10].", l.Config.Name)
	}
	ck.tuneMetric(l.Config, l.TuneMetric)
}

// tuneMetric checks the tune metric name (the tune block's, or the
// experiment's first metric by default) of learner l, which has a tune
// block: a metric that exists and is not a timing. It needs neither the
// learner's plugin nor the data, so it runs also for a learner that did
// not bind.
func (ck *checker) tuneMetric(l *config.Learner, name string) {
	t := l.Tune
	m, err := metrics.Lookup(name)
	switch {
	case err != nil && t.Metric == "":
		// The default, the experiment's first metric: its error is
		// reported once, at the metrics attribute.
	case err != nil:
		ck.errorf(t.MetricRange, "Unknown metric", "Learner %q: tune metric: %v", l.Name, err)
	case m.Kind.Has(metrics.Timing) && t.Metric == "":
		ck.errorf(t.DeclRange, "Invalid tune metric", "Learner %q: the tune metric defaults to the experiment's first metric, %s, a timing, not a quality to tune for; set tune { metric = \"...\" }.", l.Name, name)
	case m.Kind.Has(metrics.Timing):
		ck.errorf(t.MetricRange, "Invalid tune metric", "Learner %q: %s is a timing, not a quality to tune for.", l.Name, name)
	}
}

// tuneMetricApplies reports a tuned learner's metric that does not apply
// to the kind of a dataset it has cells on (a multi-label metric on
// multiclass data, or the other way round), which would fail every fold of
// those cells at run time.
func (ck *checker) tuneMetricApplies(g *Grid, l *Learner) {
	t := l.Config.Tune
	m, err := metrics.Lookup(l.TuneMetric)
	if err != nil || m.Kind.Has(metrics.Timing) {
		return // reported by tuned
	}
	for _, d := range g.Datasets {
		if !g.hasCells(d, l) {
			continue
		}
		kind, need := "multiclass", metrics.Multiclass
		if d.MultiLabel {
			kind, need = "multi-label", metrics.MultiLabel
		}
		if m.Kind.Has(need) {
			continue
		}
		if t.Metric == "" {
			ck.errorf(t.DeclRange, "Invalid tune metric", "Learner %q: the tune metric defaults to the experiment's first metric, %s, which does not apply to %s dataset %q; set tune { metric = \"...\" } to one that does.",
				l.Config.Name, m.Name, kind, d.Config.Name)
		} else {
			ck.errorf(t.MetricRange, "Invalid tune metric", "Learner %q: %s does not apply to %s dataset %q (it is a %s metric).", l.Config.Name, m.Name, kind, d.Config.Name, m.Kind)
		}
		return
	}
}

// tuneFolds checks the inner cross-validation of a tuned learner on each
// dataset it has cells on: an outer training part with fewer rows than
// tune folds cannot be split (an error the run would meet in that fold),
// and, when the inner folds are stratified, a class with fewer rows in a
// training part than tune folds leaves some inner test parts without it (a
// warning, as scikit-learn's StratifiedKFold gives).
func (ck *checker) tuneFolds(g *Grid, l *Learner) {
	t := l.Config.Tune
	for _, d := range g.Datasets {
		if !g.hasCells(d, l) {
			continue
		}
		fewest, fewestFold := fewestTrainRows(d)
		least, leastClass, leastFold := -1, 0, 0
		if g.Experiment.CV.Stratified && !d.MultiLabel {
			least, leastClass, leastFold = leastClassInTraining(d)
		}
		switch {
		case fewest >= 0 && fewest < t.Folds:
			ck.errorf(t.DeclRange, "Too few rows to tune",
				"Learner %q: on dataset %q the training part of fold %d has %d row(s), fewer than tune folds = %d; use fewer folds.",
				l.Config.Name, d.Config.Name, fewestFold, fewest, t.Folds)
		case least >= 0 && least < t.Folds:
			ck.warnf(t.DeclRange, "Class smaller than the number of tune folds",
				"Learner %q: on dataset %q the class %q has %d row(s) in the training part of fold %d, fewer than tune folds = %d, so some inner test parts have none of it (scikit-learn's StratifiedKFold warns the same).",
				l.Config.Name, d.Config.Name, d.Classes[leastClass], least, leastFold, t.Folds)
		}
	}
}

// leastClassInTraining returns the fewest rows a class of multiclass
// dataset d has in the training part of an outer fold (of any repeat),
// the class and the fold; -1 when d has no folds or no class of each row.
func leastClassInTraining(d *Dataset) (least, class, fold int) {
	least = -1
	if d.MultiLabel || len(d.Labels) == 0 {
		return least, 0, 0
	}
	for _, folds := range d.Folds {
		for f := 0; f < d.NumFolds; f++ {
			train, _ := cv.Split(folds, f)
			counts := make([]int, d.K())
			for _, i := range train {
				counts[d.Labels[i]]++
			}
			for c, n := range counts {
				if least < 0 || n < least {
					least, class, fold = n, c, f
				}
			}
		}
	}
	return least, class, fold
}

// calibrationFolds warns when reduction red calibrates on multiclass
// dataset d and a class has fewer rows in an outer training part than
// the CalibrationFolds inner folds calibrate splits it into: some of them
// hold no row of the class to calibrate its probability on, a set-up
// scikit-learn's CalibratedClassifierCV(cv=5) refuses.
func (ck *checker) calibrationFolds(d *Dataset, red *Reduction) {
	least, class, fold := leastClassInTraining(d)
	if least < 0 || least >= CalibrationFolds {
		return
	}
	ck.warnf(red.Config.CalibrateRange, "Class smaller than the number of calibration folds",
		"Reduction %q: on dataset %q the class %q has %d row(s) in the training part of fold %d, fewer than the %d inner folds of calibrate = %q, so some of them have none of it to calibrate its probability on (scikit-learn's CalibratedClassifierCV(cv=%d) refuses the same).",
		red.Config.Name, d.Config.Name, d.Classes[class], least, fold, CalibrationFolds, red.Config.Calibrate, CalibrationFolds)
}

// halvingRows checks a successive halving or hyperband search against each dataset
// it has cells on, planned for the fewest rows of an outer training part:
// min_resources (given, or the folds × 2 × classes "exhaust" and
// "smallest" start from) more than those rows is an error, as
// scikit-learn's; a search the rows allow one round only is warned
// about: it scores every candidate on a subsample once, and halves
// nothing.
func (ck *checker) halvingRows(g *Grid, l *Learner) {
	t := l.Config.Tune
	if !t.Halves() || len(l.Candidates) == 0 {
		return
	}
	at := cmp.Or(t.MinResourcesRange, t.DeclRange)
	for _, d := range g.Datasets {
		n, fold := fewestTrainRows(d)
		if !g.hasCells(d, l) || n < 0 {
			continue
		}
		classes := d.K()
		if d.MultiLabel {
			classes = 2
		}
		c := &Cell{Learner: l, Dataset: d}
		most := n
		if t.OverParam() {
			most = l.MaxResource
		}
		rounds, _, err := c.tuneRounds(most, classes)
		if err == nil {
			ck.halvingInnerRows(l, d, classes)
		}
		switch {
		case err != nil:
			ck.errorf(at, "Too few rows to halve", "Learner %q: on dataset %q (fold %d): %v; set a smaller min_resources.", l.Config.Name, d.Config.Name, fold, err)
		case len(rounds) == 1 && len(l.Candidates) > 1 && t.Strategy == config.StrategyHyperband:
			ck.warnf(at, "Halving in one round", "Learner %q: on dataset %q (fold %d) the %d rows are fewer than factor × min_resources: hyperband's one bracket scores %d of the %d candidates on every row; lower min_resources or use strategy \"random\".",
				l.Config.Name, d.Config.Name, fold, n, rounds[0].candidates, len(l.Candidates))
		case len(rounds) == 1 && len(l.Candidates) > 1:
			ck.warnf(at, "Halving in one round", "Learner %q: on dataset %q (fold %d) the %d rows allow one round only: every candidate is scored on %d of them and none is eliminated; lower min_resources or use strategy \"grid\".",
				l.Config.Name, d.Config.Name, fold, n, rounds[0].resources)
		}
	}
}

// fewestTrainRows returns the rows of the smallest outer training part of
// d and its fold, -1 when d has no folds.
func fewestTrainRows(d *Dataset) (int, int) {
	fewest, fold := -1, 0
	for _, folds := range d.Folds {
		for f := 0; f < d.NumFolds; f++ {
			if train, _ := cv.Split(folds, f); fewest < 0 || len(train) < fewest {
				fewest, fold = len(train), f
			}
		}
	}
	return fewest, fold
}

// metricRange returns the location of the experiment's i-th metric name.
func metricRange(exp *config.Experiment, i int) hcl.Range {
	if i < len(exp.MetricRanges) && exp.MetricRanges[i].Filename != "" {
		return exp.MetricRanges[i]
	}
	return exp.MetricsRange
}

// hasCells reports whether learner l has cells on dataset d: some
// reduction covers d and takes l.
func (g *Grid) hasCells(d *Dataset, l *Learner) bool {
	return slices.ContainsFunc(g.Reductions, func(red *Reduction) bool { return red.covers(d) && red.meets(l) })
}
