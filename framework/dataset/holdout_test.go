package dataset

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
)

// TestHoldoutPartSizes: a holdout fraction that leaves the test or the
// training part fewer rows than the dataset has classes (1e-9 of 9 rows:
// one test row for 3 classes; 0.7: two training rows; 0.9: none) is an
// error at the holdout attribute saying how many rows each part gets and
// which fractions fit; a fraction that leaves both parts enough rows
// makes one split. On the code before, 1e-9 and 0.9 made folds and the
// run failed later, at the figures, with a NaN curve.
func TestHoldoutPartSizes(t *testing.T) {
	var rows strings.Builder
	rows.WriteString("a,class\n")
	for i := range 9 {
		fmt.Fprintf(&rows, "%d,%c\n", i, 'x'+i%3)
	}
	rng := hcl.Range{Filename: "exp.hcl", Start: hcl.Pos{Line: 7, Column: 13}, End: hcl.Pos{Line: 7, Column: 17}}
	for _, tc := range []struct {
		name    string
		holdout float64
		diags   string
	}{
		{name: "1e-9", holdout: 1e-9,
			diags: `error: Holdout leaves a part too small: Dataset "d": holdout = 1e-09 of its 9 rows gives the test part 1 row and the training part 8 rows; each part needs at least as many rows as the dataset has classes (3), or its metrics and curves are undefined: use a fraction above 2/9 (0.2222) and at most 6/9 (0.6667).`},
		{name: "0.2 leaves 2 test rows", holdout: 0.2,
			diags: `error: Holdout leaves a part too small: Dataset "d": holdout = 0.2 of its 9 rows gives the test part 2 rows and the training part 7 rows; each part needs at least as many rows as the dataset has classes (3), or its metrics and curves are undefined: use a fraction above 2/9 (0.2222) and at most 6/9 (0.6667).`},
		{name: "0.9 leaves no training row", holdout: 0.9,
			diags: `error: Holdout leaves a part too small: Dataset "d": holdout = 0.9 of its 9 rows gives the test part 9 rows and the training part 0 rows; each part needs at least as many rows as the dataset has classes (3), or its metrics and curves are undefined: use a fraction above 2/9 (0.2222) and at most 6/9 (0.6667).`},
		{name: "0.7 leaves 2 training rows", holdout: 0.7,
			diags: `error: Holdout leaves a part too small: Dataset "d": holdout = 0.7 of its 9 rows gives the test part 7 rows and the training part 2 rows; each part needs at least as many rows as the dataset has classes (3), or its metrics and curves are undefined: use a fraction above 2/9 (0.2222) and at most 6/9 (0.6667).`},
		{name: "0.25 fits", holdout: 0.25},
		{name: "2/3 fits", holdout: 2.0 / 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, ds, dir := loadTarget(t, "d.csv", rows.String(), config.Dataset{Target: "class"})
			cvc := config.CV{Folds: 5, Stratified: true, Repeats: 1, Holdout: tc.holdout, HoldoutRange: rng}
			if !bindClass(t, r, ds) {
				t.Fatal(diagLines(r.diags, dir))
			}
			ok := r.folds(ds, ds.Table.NumRows, &cvc, 0)
			if got := diagLines(r.diags, dir); got != tc.diags {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tc.diags)
			}
			if ok != (tc.diags == "") {
				t.Fatalf("folds = %v", ok)
			}
			if tc.diags != "" && (r.diags[0].Subject == nil || *r.diags[0].Subject != rng) {
				t.Errorf("subject %v, want the holdout attribute %v", r.diags[0].Subject, rng)
			}
			if ok && (len(ds.Folds) != 1 || ds.NumFolds != 1) {
				t.Errorf("folds %v (%d), want one split", ds.Folds, ds.NumFolds)
			}
		})
	}
}
