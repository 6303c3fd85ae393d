package engine

import (
	"fmt"
	"testing"
)

// tunedShareExperiment tunes logreg by Newton (no seed read) and by SGD
// (seeded) over C = 0.1, 1, 10 with 3 inner folds, each under ovo and
// dag (whose 10 pairwise problems coincide), on shareGrid's data in 3
// folds; innerSeed is the tune block's inner_seed line.
func tunedShareExperiment(innerSeed string) string {
	return fmt.Sprintf(`
experiment "share" { seed = 11 }
dataset "five" { path = "five.csv" }
encoder "std" { type = "standardize" }
learner "logreg" {
  params = { C = [0.1, 1, 10] }
  tune {
    folds = 3
    %s
  }
}
learner "logreg_sgd" {
  plugin = "logreg"
  params = {
    C      = [0.1, 1, 10]
    solver = "sgd"
  }
  tune {
    folds = 3
    %s
  }
}
reduction "ovo" { scheme = "ovo" }
reduction "dag" {
  scheme = "ovo"
  decode = "dag"
}
cv { folds = 3 }
metrics = ["accuracy", "macro_f1"]
`, innerSeed, innerSeed)
}

// TestInnerFitsShared: tuning's inner fits go through the run's fit
// table. With inner_seed the ovo and dag cells of a learner split each
// outer training part alike, so a candidate's 10 pairwise fits on an
// inner fold are made once for both: each of the 2 learners' 3 folds
// requests 2 cells × (10 final + 3 inner folds × 3 candidates × 10) =
// 200 fits and makes 100 (before: 190, the inner ones made per cell).
// Without inner_seed the inner split is seeded from the cell, so no inner
// fit coincides: 180 inner fits made per learner and fold, and the final
// fits shared only where ovo and dag chose the same C (10 or 20 made). Every cell file, times aside, is the
// one the cell writes in a run of its own, with -j 1 as with -j 4, and
// with nothing shared (NoShare).
func TestInnerFitsShared(t *testing.T) {
	const learners, folds, pairs, inner, cands = 2, 3, 10, 3, 3
	perCell := pairs + inner*cands*pairs
	for _, tc := range []struct {
		name, innerSeed     string
		leastMade, mostMade int
	}{
		{"inner_seed", "inner_seed = 0", learners * folds * perCell, learners * folds * perCell},
		{"inner split seeded from the cell", "", learners * folds * (pairs + 2*inner*cands*pairs), learners * folds * 2 * perCell},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := shareGridOf(t, tunedShareExperiment(tc.innerSeed))
			if len(g.Cells) != 4 {
				t.Fatalf("%d cells, want 4", len(g.Cells))
			}
			wantRequested := int64(learners * folds * 2 * perCell)
			together, stats := cellFiles(t, g, 4, nil)
			made := int(stats.FitsMade)
			if stats.FitsRequested != wantRequested || made < tc.leastMade || made > tc.mostMade {
				t.Errorf("fits: %d requested, %d made; want %d requested, %d to %d made", stats.FitsRequested, made, wantRequested, tc.leastMade, tc.mostMade)
			}
			serial, stats1 := cellFiles(t, g, 1, nil)
			if stats1.FitsMade != stats.FitsMade {
				t.Errorf("-j 1: %d fits made, -j 4 %d", stats1.FitsMade, stats.FitsMade)
			}
			unshared, statsN := cellFilesOf(t, g, Options{Workers: 4, NoShare: true})
			if statsN.FitsMade != wantRequested {
				t.Errorf("NoShare: %d fits made, want %d", statsN.FitsMade, wantRequested)
			}
			for _, c := range g.Cells {
				alone, st := cellFiles(t, g, 2, func(i int) bool { return i == c.Index })
				if want := int64(folds * perCell); st.FitsMade != want {
					t.Errorf("%s alone: %d fits made, want %d", c.ID().Key(), st.FitsMade, want)
				}
				for name, other := range map[string]string{"its own run": alone[c.Index], "-j 1": serial[c.Index], "NoShare": unshared[c.Index]} {
					if together[c.Index] != other {
						t.Errorf("%s: cell file differs from %s:\n%s", c.ID().Key(), name, firstDiff(together[c.Index], other))
					}
				}
			}
		})
	}
}
