package engine

import (
	"fmt"
	"slices"
	"testing"

	"github.com/polyclass/polyclass/framework/config"
)

// reachDiags returns each diagnostic of ck as "line: summary: detail".
func reachDiags(ck *checker) []string {
	var out []string
	for _, d := range ck.diags {
		out = append(out, fmt.Sprintf("%d: %s: %s", d.Subject.Start.Line, d.Summary, d.Detail))
	}
	return out
}

// TestIterativeReach: cv { stratified = "iterative" } stratifies the
// k-fold folds of multi-label data only; a tune block's inner folds on
// multi-label data (plain shuffled k-fold) used it in silence, and are
// now a warning at the stratified attribute (a multi-label holdout:
// dataset.TestIterativeHoldout).
func TestIterativeReach(t *testing.T) {
	iterative := config.CV{Folds: 5, Repeats: 1, Stratified: true, Iterative: true, StratifiedRange: at(9)}
	const tuneWarning = `9: Inner folds not stratified: Learner "svm" tunes on multi-label dataset "emotions": stratified = "iterative" stratifies its outer folds, but the tune block's inner folds are plain shuffled k-fold.`
	for _, tc := range []struct {
		name string
		cv   config.CV
		want []string
	}{
		{"iterative", iterative, []string{tuneWarning}},
		{"stratified true", config.CV{Folds: 5, Stratified: true, StratifiedRange: at(9)}, nil},
	} {
		t.Run("tune/"+tc.name, func(t *testing.T) {
			g := handGrid() // iris (multiclass) and emotions (multi-label)
			g.Experiment.CV = tc.cv
			var ck checker
			ck.iterativeTune(g, g.Learners[0])
			if got := reachDiags(&ck); !slices.Equal(got, tc.want) {
				t.Errorf("diagnostics %q, want %q", got, tc.want)
			}
		})
	}
}

// TestStratifiedMultiLabel: stratified = true written out over datasets
// that are all multi-label stratified nothing (their folds are plain
// shuffled k-fold) in silence; it is a warning at stratified. With a
// multiclass dataset, with "iterative", or left at its default, none.
func TestStratifiedMultiLabel(t *testing.T) {
	const warning = `9: Stratification that applies to no dataset: stratified = true stratifies multiclass folds by class, and every dataset is multi-label, whose folds it leaves plain shuffled k-fold. Set stratified = "iterative" for iterative stratification (Sechidis et al. 2011), or drop stratified.`
	for _, tc := range []struct {
		name         string
		cv           config.CV
		withMultiCls bool
		want         []string
	}{
		{"written out, multi-label only", config.CV{Stratified: true, StratifiedRange: at(9)}, false, []string{warning}},
		{"written out, with a multiclass dataset", config.CV{Stratified: true, StratifiedRange: at(9)}, true, nil},
		{"iterative", config.CV{Stratified: true, Iterative: true, StratifiedRange: at(9)}, false, nil},
		{"default", config.CV{Stratified: true}, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := handGrid() // iris (multiclass) and emotions (multi-label)
			if !tc.withMultiCls {
				g.Datasets = g.Datasets[1:]
			}
			g.Experiment.CV = tc.cv
			var ck checker
			ck.stratifiedMultiLabel(g)
			if got := reachDiags(&ck); !slices.Equal(got, tc.want) {
				t.Errorf("diagnostics %q, want %q", got, tc.want)
			}
		})
	}
}
