package cv

import (
	"errors"
	"testing"
)

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

// TestSplitChecksFirst: Split checks the options against the rows before
// drawing folds, so that one call says which option does not fit (Unfit)
// and which folds cannot be drawn.
func TestSplitChecksFirst(t *testing.T) {
	labels := []int{0, 0, 0, 1, 1, 1}
	rows := Rows{N: len(labels), Classes: 2, Labels: labels}
	for _, tc := range []struct {
		name   string
		opts   Options
		option string
		unfit  bool
	}{
		{"holdout leaves a part too small", Options{Repeats: 1, Holdout: 0.01}, OptionHoldout, true},
		{"too many repeats", Options{Folds: 2, Repeats: MaxFoldAssignments}, OptionRepeats, true},
		{"more folds than rows", Options{Folds: 7, Repeats: 1}, OptionFolds, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			folds, err := tc.opts.Split(rows, 1, "d")
			oe := (*OptionError)(nil)
			if !errors.As(err, &oe) {
				t.Fatalf("Split = %v, %v; want an *OptionError", folds, err)
			}
			if oe.Option != tc.option || oe.Unfit != tc.unfit {
				t.Errorf("option %q unfit %v (%v), want %q unfit %v", oe.Option, oe.Unfit, err, tc.option, tc.unfit)
			}
		})
	}
	if folds, err := (Options{Folds: 3, Repeats: 2, Stratified: true}).Split(rows, 1, "d"); err != nil || len(folds) != 2 {
		t.Errorf("Split of options that fit = %v, %v; want 2 repeats", folds, err)
	}
}
