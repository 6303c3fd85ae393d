package engine

import (
	"slices"

	"github.com/polyclass/polyclass/framework/dataset"
)

// The splits that cv { stratified = "iterative" } does not reach: it
// stratifies the k-fold folds of multi-label data only, and the places
// that would silently use a plain random split instead are warned of at
// the stratified attribute (a dataset's holdout: package dataset).

// iterativeTune warns when tuned learner l has cells on a multi-label
// dataset under stratified = "iterative": the inner folds of its tune
// block are plain shuffled k-fold there, the outer folds alone being
// iteratively stratified.
func (ck *checker) iterativeTune(g *Grid, l *Learner) {
	cvc := &g.Experiment.CV
	if !cvc.Iterative {
		return
	}
	for _, d := range g.Datasets {
		if d.MultiLabel && g.hasCells(d, l) {
			ck.warnf(dataset.IterativeRange(d.Config, cvc), "Inner folds not stratified",
				`Learner %q tunes on multi-label dataset %q: stratified = "iterative" stratifies its outer folds, but the tune block's inner folds are plain shuffled k-fold.`,
				l.Config.Name, d.Config.Name)
			return
		}
	}
}

// stratifiedMultiLabel warns when the file writes stratified = true and
// every dataset of g is multi-label: it stratifies multiclass folds by
// class, and multi-label folds are plain shuffled k-fold unless
// stratified = "iterative", so it stratifies nothing.
func (ck *checker) stratifiedMultiLabel(g *Grid) {
	cvc := &g.Experiment.CV
	if cvc.StratifiedRange.Filename == "" || !cvc.Stratified || cvc.Iterative || len(g.Datasets) == 0 ||
		slices.ContainsFunc(g.Datasets, func(d *Dataset) bool { return !d.MultiLabel }) {
		return
	}
	ck.warnf(cvc.StratifiedRange, "Stratification that applies to no dataset",
		`stratified = true stratifies multiclass folds by class, and every dataset is multi-label, whose folds it leaves plain shuffled k-fold. Set stratified = "iterative" for iterative stratification (Sechidis et al. 2011), or drop stratified.`)
}
