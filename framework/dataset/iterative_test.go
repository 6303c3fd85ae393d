package dataset

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
)

// at is a location on line n of exp.hcl.
func at(n int) hcl.Range {
	return hcl.Range{Filename: "exp.hcl", Start: hcl.Pos{Line: n, Column: 1}, End: hcl.Pos{Line: n, Column: 2}}
}

// reachDiags returns each diagnostic of ck as "line: summary: detail".
func reachDiags(ck *checker) []string {
	var out []string
	for _, d := range ck.diags {
		out = append(out, fmt.Sprintf("%d: %s: %s", d.Subject.Start.Line, d.Summary, d.Detail))
	}
	return out
}

// TestIterativeHoldout: cv { stratified = "iterative" } stratifies the
// k-fold folds of multi-label data only; a multi-label holdout (a plain
// random split) used it in silence, and is now a warning at the
// stratified attribute (a tune block's inner folds: engine's
// TestIterativeReach). Multiclass data, k-fold, and a dataset whose
// split is fixed by a file get none.
func TestIterativeHoldout(t *testing.T) {
	iterative := config.CV{Folds: 5, Repeats: 1, Stratified: true, Iterative: true, StratifiedRange: at(9)}
	holdout := iterative
	holdout.Holdout = 0.25
	const holdoutWarning = `9: Holdout not stratified: Dataset "emotions": stratified = "iterative" stratifies the k-fold folds of multi-label data; its holdout = 0.25 is a plain random split of the rows. Use folds (k-fold) for iterative stratification, or drop stratified.`
	for _, tc := range []struct {
		name       string
		cv         config.CV
		multiLabel bool
		testPath   string
		want       []string
	}{
		{"multi-label holdout", holdout, true, "", []string{holdoutWarning}},
		{"multi-label k-fold", iterative, true, "", nil},
		{"multiclass holdout", holdout, false, "", nil},
		{"multi-label test file", holdout, true, "t.csv", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &Dataset{Config: &config.Dataset{Name: "emotions", TestPath: tc.testPath, DeclRange: at(3)}, MultiLabel: tc.multiLabel}
			var ck checker
			ck.iterativeHoldout(d, &tc.cv)
			if got := reachDiags(&ck); !slices.Equal(got, tc.want) {
				t.Errorf("diagnostics %q, want %q", got, tc.want)
			}
		})
	}
}
