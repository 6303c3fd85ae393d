package cv

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlanAssign checks that a plan takes a dataset's folds from its
// folds file, the dataset's own or the cv block's, refusing one that
// cannot be read, that assigns another number of rows, or whose folds the
// cv block contradicts (each a *FileError naming its problem, in the
// words the dataset's diagnostics quote), and draws them from its options
// without one.
func TestPlanAssign(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "folds.csv")
	if err := os.WriteFile(file, []byte("fold\n0\n1\n0\n1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rows := Rows{N: 4, Classes: 2, Labels: []int{0, 0, 1, 1}}
	k3 := Options{Folds: 3, Repeats: 1}
	for _, tc := range []struct {
		name    string
		plan    Plan
		rows    Rows
		folds   int
		problem FileProblem
		want    string // the error's text; "": none
	}{
		{name: "options", plan: Plan{Options: Options{Folds: 2, Repeats: 3}}, rows: rows, folds: 2},
		{name: "holdout", plan: Plan{Options: Options{Repeats: 1, Holdout: 0.5}}, rows: rows, folds: 1},
		{name: "cv folds file", plan: Plan{Options: k3, File: file}, rows: rows, folds: 2},
		{name: "missing file", plan: Plan{Options: k3, File: filepath.Join(dir, "none.csv")}, rows: rows,
			problem: FileUnread, want: "folds file: "},
		{name: "rows differ", plan: Plan{Options: k3, File: file}, rows: Rows{N: 5, Classes: 2, Labels: []int{0, 0, 1, 1, 1}},
			problem: FileRows, want: file + ` assigns 4 rows, dataset "iris" has 5`},
		{name: "cv block's folds differ", plan: Plan{Options: k3, FoldsSet: true, File: file}, rows: rows,
			problem: FileConflict, want: "the cv block sets folds = 3, but its folds_file " + file + " holds 2 folds (numbered 0 to 1); drop folds (the file fixes them) or set it to 2"},
		{name: "dataset's folds differ", plan: Plan{Options: k3, FoldsSet: true, File: file, Own: true}, rows: rows,
			problem: FileConflict, want: `the cv block sets folds = 3, but dataset "iris" takes its folds from its folds_file ` + file + ", which holds 2 folds (numbered 0 to 1); set folds to 2 (or drop it), or drop the dataset's folds_file to draw 3 folds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			folds, k, err := tc.plan.Assign(tc.rows, 1, "iris")
			if tc.want == "" {
				if err != nil || k != tc.folds || len(folds) != max(tc.plan.Repeats, 1) || len(folds[0]) != tc.rows.N {
					t.Fatalf("Assign = %v, %d, %v; want %d folds of %d rows", folds, k, err, tc.folds, tc.rows.N)
				}
				return
			}
			fe := (*FileError)(nil)
			if !errors.As(err, &fe) || fe.Problem != tc.problem || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("Assign error %v, want problem %d: %q", err, tc.problem, tc.want)
			}
		})
	}
}
