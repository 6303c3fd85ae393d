package cv

import "testing"

// TestChecks checks the cv options' checks against a dataset: nil when
// the option fits, else the reason with its numbers.
func TestChecks(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{name: "repeats fit", err: CheckRepeats(100, 671088)},
		{name: "one repeat of any size", err: CheckRepeats(1, MaxFoldAssignments+1)},
		{name: "too many repeats", err: CheckRepeats(1000000000, 10),
			want: "repeats = 1000000000 of its 10 rows make 10000000000 fold assignments, more than the 67108864 (512 MiB) a run holds in memory; use fewer repeats"},
		{name: "holdout fits", err: CheckHoldout(9, 0.25, 3, false)},
		{name: "holdout test part too small", err: CheckHoldout(9, 0.2, 3, false),
			want: "holdout = 0.2 of its 9 rows gives the test part 2 rows and the training part 7 rows; each part needs at least as many rows as the dataset has classes (3), or its metrics and curves are undefined: use a fraction above 2/9 (0.2222) and at most 6/9 (0.6667)"},
		{name: "multi-label holdout needs a row", err: CheckHoldout(1, 0.5, 4, true),
			want: "holdout = 0.5 of its 1 rows gives the test part 1 row and the training part 0 rows; each part needs at least a row, or its metrics and curves are undefined: no fraction fits: the dataset has too few rows for a holdout; use k-fold cross-validation"},
		{name: "folds unset", err: CheckFoldsAgree(5, false, "f.csv", 3)},
		{name: "folds agree", err: CheckFoldsAgree(3, true, "f.csv", 3)},
		{name: "folds differ", err: CheckFoldsAgree(5, true, "f.csv", 3),
			want: "the cv block sets folds = 5, but its folds_file f.csv holds 3 folds (numbered 0 to 2); drop folds (the file fixes them) or set it to 3"},
		{name: "dataset folds unset", err: CheckDatasetFoldsAgree(5, false, "iris", "f.csv", 3)},
		{name: "dataset folds agree", err: CheckDatasetFoldsAgree(3, true, "iris", "f.csv", 3)},
		{name: "dataset folds differ", err: CheckDatasetFoldsAgree(5, true, "iris", "f.csv", 3),
			want: `the cv block sets folds = 5, but dataset "iris" takes its folds from its folds_file f.csv, which holds 3 folds (numbered 0 to 2); set folds to 3 (or drop it), or drop the dataset's folds_file to draw 5 folds`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ""
			if tc.err != nil {
				got = tc.err.Error()
			}
			if got != tc.want {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}
