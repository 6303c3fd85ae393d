package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNestedResultsDirectory: a run into a directory inside another
// results directory (its cells/, plots/, any folder, or through a link
// into cells/) is refused naming both directories, and the outer run's
// cells stay as they were (campaign 5 s04, s08: the run exited 0 and the
// outer directory's tables then failed); rerun's own outer/rerun, and a
// directory beside the outer one, are allowed.
func TestNestedResultsDirectory(t *testing.T) {
	for _, tt := range []struct {
		name, rel, want string
		link            bool
	}{
		{"in cells", "out/cells/x", "results directory $ROOT/out/cells/x lies inside results directory $ROOT/out (in its cells/), whose entries bench takes for its own", false},
		{"in plots", "out/plots/x", "results directory $ROOT/out/plots/x lies inside results directory $ROOT/out (in its plots/)", false},
		{"in a folder of its own", "out/mine", "results directory $ROOT/out/mine lies inside results directory $ROOT/out, whose entries", false},
		{"through a link into cells", "link/x", "results directory $ROOT/link/x lies inside results directory $ROOT/out (in its cells/)", true},
		{"in a rerun's cells", "out/rerun/cells/x", "results directory $ROOT/out/rerun/cells/x lies inside results directory $ROOT/out/rerun (in its cells/)", false},
		{"rerun's own", "out/rerun", "", false},
		{"beside it", "other", "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			outer := filepath.Join(root, "out")
			r := begin(t, outer, "outer", 1, Options{Render: fakeRender})
			finishCells(t, r, 0)
			if _, err := r.Finish(StatusComplete, 0); err != nil {
				t.Fatal(err)
			}
			if tt.rel == "out/rerun/cells/x" {
				rr := begin(t, filepath.Join(outer, RerunDir), "outer", 1, Options{Render: fakeRender})
				finishCells(t, rr, 0)
				if _, err := rr.Finish(StatusComplete, 0); err != nil {
					t.Fatal(err)
				}
			}
			if tt.link {
				if err := os.Symlink(filepath.Join(outer, CellsDir), filepath.Join(root, "link")); err != nil {
					t.Fatal(err)
				}
			}
			before, _ := os.ReadDir(filepath.Join(outer, CellsDir))
			dir := filepath.Join(root, tt.rel)
			r2, err := Begin(dir, manifest("inner"), digests(1), Options{Render: fakeRender, Now: clock()})
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Begin: %v", err)
				}
				r2.Finish(StatusComplete, 0)
				if err := Owned(dir); err != nil {
					t.Errorf("Owned: %v", err)
				}
				return
			}
			want := strings.ReplaceAll(tt.want, "$ROOT", root)
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("Begin: %v\nwant %s", err, want)
			}
			// bench submit and bench merge check their directory with
			// Owned (campaign 20 N28, N29: submit wrote its scripts into
			// another run's cells/, merge its tables).
			if err := Owned(dir); err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("Owned: %v\nwant %s", err, want)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("%s was made (%v)", dir, err)
			}
			if after, _ := os.ReadDir(filepath.Join(outer, CellsDir)); len(after) != len(before) {
				t.Errorf("%d entries in the outer cells/, want %d", len(after), len(before))
			}
		})
	}
}
