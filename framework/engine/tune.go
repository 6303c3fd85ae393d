package engine

import (
	"fmt"
	"strconv"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/metrics"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/param"
)

// tuning is what the inner cross-validation of a fold found.
type tuning struct {
	best   param.Params // the chosen candidate, every parameter set
	chosen string       // its tuned parameters, e.g. "C=10"
	scores []float64    // mean inner metric per candidate, in grid order
	// rounds are successive halving's rounds (none for the grid and
	// random strategies).
	rounds []outcome.TuneRound
}

// tune runs the nested cross-validation of a tuned learner on the fold's
// training part: each inner fold's design matrix is built by fitting the
// pipeline on the inner training rows only (no leakage), every candidate
// is trained and scored on it (calibrated, when the reduction calibrates),
// and the candidate with the best mean of the tune metric wins; ties go to
// the first in grid order, as scikit-learn's GridSearchCV. The inner
// models are released as soon as they are scored.
func (f *fold) tune(t task) (*tuning, error) {
	l, d := f.c.Learner, f.c.Dataset
	m, err := metrics.Lookup(l.TuneMetric)
	if err != nil {
		return nil, err
	}
	inner, err := f.innerFolds(l.Config.Tune.Folds, l.Config.Tune.InnerSeed)
	if err != nil {
		return nil, fmt.Errorf("tune: %w", err)
	}
	switch tc := l.Config.Tune; {
	case tc.Strategy == config.StrategyHalving:
		return f.halve(t, m, inner)
	case tc.Strategy == config.StrategyHyperband:
		return f.hyperband(t, m, inner)
	case tc.MaxTime > 0:
		return f.timedSearch(t, m, inner)
	}
	k := l.Config.Tune.Folds
	n := len(l.Candidates)
	if me := l.Config.Tune.MaxEvals; me > 0 {
		n = min(n, me) // a random search's first max_evals candidates
	}
	sums := make([]float64, n)
	for j := 0; j < k; j++ {
		fitIdx, scoreIdx := cv.Split(inner, j)
		train, test := pick(f.train, fitIdx), pick(f.train, scoreIdx)
		seed := cv.Seed(f.g.Experiment.Seed, "encode", d.Config.Name, f.c.Pipeline.Config.Name,
			strconv.Itoa(t.repeat), strconv.Itoa(t.fold), "tune", strconv.Itoa(j))
		x, err := f.innerDesign(train, seed)
		if err != nil {
			return nil, fmt.Errorf("tune inner fold %d: %w", j, err)
		}
		enc := matrixStream(x)
		for ci, cand := range l.Candidates[:n] {
			v, err := f.innerScore(train, test, cand, x, enc, m)
			if err != nil {
				return nil, fmt.Errorf("tune inner fold %d, %s: %w", j, cand, err)
			}
			sums[ci] += v
		}
	}
	tr := &tuning{scores: make([]float64, len(sums))}
	for ci, s := range sums {
		tr.scores[ci] = s / float64(k)
	}
	tr.best = l.Candidates[best(tr.scores, m.HigherIsBetter)]
	tr.chosen = l.tunedName(tr.best)
	return tr, nil
}

// timedSearch is a random search under max_time: every inner fold's
// design is built first, then the candidates are scored one by one, each
// on every inner fold, while the budget lasts (the first always); the
// scores are the scored candidates' (a prefix of the candidates).
func (f *fold) timedSearch(t task, m metrics.Metric, inner []int) (*tuning, error) {
	l, d := f.c.Learner, f.c.Dataset
	k := l.Config.Tune.Folds
	type innerFold struct {
		train, test []int
		x           matrix.Matrix
		enc         *matrix.EncodedMatrix
	}
	folds := make([]innerFold, k)
	for j := range folds {
		fitIdx, scoreIdx := cv.Split(inner, j)
		train, test := pick(f.train, fitIdx), pick(f.train, scoreIdx)
		seed := cv.Seed(f.g.Experiment.Seed, "encode", d.Config.Name, f.c.Pipeline.Config.Name,
			strconv.Itoa(t.repeat), strconv.Itoa(t.fold), "tune", strconv.Itoa(j))
		x, err := f.innerDesign(train, seed)
		if err != nil {
			return nil, fmt.Errorf("tune inner fold %d: %w", j, err)
		}
		folds[j] = innerFold{train, test, x, matrixStream(x)}
	}
	tr := &tuning{}
	bud := newBudget(l.Config.Tune)
	for ci, cand := range l.Candidates {
		if ci > 0 && !bud.open() {
			break
		}
		sum := 0.0
		for j, in := range folds {
			v, err := f.innerScore(in.train, in.test, cand, in.x, in.enc, m)
			if err != nil {
				return nil, fmt.Errorf("tune inner fold %d, %s: %w", j, cand, err)
			}
			sum += v
		}
		bud.spend(1)
		tr.scores = append(tr.scores, sum/float64(k))
	}
	tr.best = l.Candidates[best(tr.scores, m.HigherIsBetter)]
	tr.chosen = l.tunedName(tr.best)
	return tr, nil
}

// innerDesign is the design matrix of an inner fold: the cell's pipeline
// fitted on the inner training rows train only, in the learner's form.
func (f *fold) innerDesign(train []int, seed uint64) (matrix.Matrix, error) {
	x, err := encodeRows(f.c.Dataset, f.c.Pipeline, train, seed)
	if err != nil {
		return matrix.Matrix{}, err
	}
	return forLearner(f.c, x, f.denseBudget)
}

// matrixStream encodes x for the plugins (matrix.StreamMatrix).
func matrixStream(x matrix.Matrix) *matrix.EncodedMatrix { return matrix.StreamMatrix(x) }

// tunedName names a candidate of a tuned learner by its tuned parameters
// ("C=10"), the others left out.
func (l *Learner) tunedName(cand param.Params) string {
	varied := param.Params{}
	for n := range l.Tuned {
		varied[n] = cand[n]
	}
	return varied.String()
}

// innerFolds splits the fold's training rows for tuning: stratified as
// the outer folds are (multiclass data), scikit-learn's split when
// innerSeed ≥ 0, else seeded from the cell and the fold.
func (f *fold) innerFolds(k int, innerSeed int64) ([]int, error) {
	d := f.c.Dataset
	stratified := f.g.Experiment.CV.Stratified && !d.MultiLabel
	labels := make([]int, len(f.train))
	for i, r := range f.train {
		if !d.MultiLabel {
			labels[i] = d.Labels[r]
		}
	}
	switch {
	case innerSeed >= 0 && stratified:
		return cv.SklearnStratifiedKFold(labels, k, uint64(innerSeed))
	case innerSeed >= 0:
		return cv.SklearnKFold(len(f.train), k, uint64(innerSeed))
	case stratified:
		return cv.StratifiedKFold(labels, k, cv.Seed(f.solverSeed, "tune"))
	}
	return cv.KFold(len(f.train), k, cv.Seed(f.solverSeed, "tune"))
}

// innerScore trains candidate params on the train rows of x and returns
// metric m on the test rows; when the reduction calibrates, it trains the
// calibration's models on the train rows instead (see calibrated) and
// scores their calibrated probabilities, as the outer fold scores the
// winner. Its time counts toward the fold's. The candidate's fits go
// through the fold's innerShare table, where other cells of the share
// group may have made them (see fitTable), else through a table of its
// own; either way they are seeded by their identity.
func (f *fold) innerScore(train, test []int, params param.Params, x matrix.Matrix, enc *matrix.EncodedMatrix, m metrics.Metric) (float64, error) {
	ctx, cancel := f.candidateContext()
	defer cancel()
	sub := &fold{ctx: ctx, g: f.g, c: f.c, stats: f.stats, clock: f.clock, plans: f.plans, train: train, test: test,
		seed: f.seed, solverSeed: f.solverSeed, lp: f.lp, rp: f.rp, params: params, threads: f.threads, decodeBlock: f.decodeBlock,
		repeat: f.repeat, foldIndex: f.foldIndex, share: f.innerShare, group: f.group}
	if sub.share == nil {
		// No other fold to share with: a table of the candidate's own,
		// its models let go once scored; its fits are seeded by identity
		// all the same, so that sharing changes no number.
		own := newFitTable()
		own.stats = f.stats
		sub.share = own
		defer own.release(f.ctx, f.group)
	}
	defer func() {
		sub.release()
		f.fitSeconds += sub.fitSeconds
		f.predictSeconds += sub.predictSeconds
	}()
	var out foldOutcome
	var err error
	if f.c.Reduction.Config.Calibrate != "" {
		// The candidate is scored as the outer fold will be: calibrated
		// (GridSearchCV over CalibratedClassifierCV).
		out.dec, err = sub.calibratedDecoding(x, enc)
	} else if out, err = sub.evaluate(x, enc); err == nil {
		err = checkDecoding(out.dec, f.c.Dataset, len(test), f.rp.Name)
	}
	if err != nil {
		return 0, err
	}
	v, _, err := m.Eval(sub.metricsInput(out.dec))
	return v, err
}

// best returns the index of the best score; a tie goes to the first, as
// scikit-learn's GridSearchCV (its best_index_ is the first of rank 1).
func best(scores []float64, higherIsBetter bool) int {
	b := 0
	for i, v := range scores {
		if (higherIsBetter && v > scores[b]) || (!higherIsBetter && v < scores[b]) {
			b = i
		}
	}
	return b
}
