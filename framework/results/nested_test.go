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

// TestNestedInUnmergedDirectory: a directory that bears a run's mark but
// no manifest yet (a shard not merged: shards/ and cells/; a run killed
// before its first manifest: cells/) is a results directory too, so that
// a run, a submit or a merge into its cells/ or shards/ is refused
// (campaign 21 N01: while a job array ran, all three wrote there, and the
// merge then failed on "cells/x: not a cell file"); a folder of the
// user's named cells, holding other files, marks nothing.
func TestNestedInUnmergedDirectory(t *testing.T) {
	for _, tt := range []struct {
		name  string
		files []string // the files of outer, made empty
		rel   string   // the directory checked, under outer
		want  string   // the error's start, "" for none
	}{
		{"a shard not merged", []string{"cells/0000-0123456789abcdef.json", "shards/0-of-2.json", "shards/0-of-2.log"}, "cells/x",
			"results directory $OUTER/cells/x lies inside results directory $OUTER (in its cells/)"},
		{"into its shards", []string{"cells/0000-0123456789abcdef.json", "shards/0-of-2.json"}, "shards/m",
			"results directory $OUTER/shards/m lies inside results directory $OUTER (in its shards/)"},
		{"a shard that wrote no cell yet", []string{"shards/1-of-2.log"}, "cells/x",
			"results directory $OUTER/cells/x lies inside results directory $OUTER (in its cells/)"},
		{"a run killed before its manifest", []string{"cells/0003-0123456789abcdef.json"}, "plots/x",
			"results directory $OUTER/plots/x lies inside results directory $OUTER (in its plots/)"},
		{"the user's folder named cells", []string{"cells/notes.txt"}, "cells/x", ""},
		{"the user's folder named shards", []string{"shards/0-of-2.csv"}, "shards/x", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			outer := filepath.Join(t.TempDir(), "outer")
			for _, f := range tt.files {
				p := filepath.Join(outer, filepath.FromSlash(f))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			dir := filepath.Join(outer, filepath.FromSlash(tt.rel))
			err := Owned(dir)
			if tt.want == "" {
				if err != nil {
					t.Errorf("Owned: %v", err)
				}
				return
			}
			want := strings.ReplaceAll(tt.want, "$OUTER", outer)
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("Owned: %v\nwant %s", err, want)
			}
			if err := checkNested(dir); err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("checkNested: %v\nwant %s", err, want)
			}
		})
	}
}

// TestNestedInSubmitted: a directory where bench submit wrote its scripts
// (slurm/ or k8s/ with its record) is a results directory: a run into its
// slurm/logs/ or k8s/ is refused (campaign 22 R03); a user's own slurm/
// (no record) makes no results directory.
func TestNestedInSubmitted(t *testing.T) {
	for _, tt := range []struct {
		name, folder, file, rel, want string
	}{
		{"slurm logs", SlurmDir, "array.sbatch", "Z/slurm/logs", "results directory $ROOT/Z/slurm/logs lies inside results directory $ROOT/Z (in its slurm/), whose entries bench takes for its own"},
		{"k8s", K8sDir, "shards.json", "Z/k8s/out", "results directory $ROOT/Z/k8s/out lies inside results directory $ROOT/Z (in its k8s/)"},
		{"the user's slurm", "", "", "Z/slurm/logs", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			z := filepath.Join(root, "Z")
			if tt.folder != "" {
				f, err := OpenFolder(z, tt.folder, nil)
				if err != nil {
					t.Fatal(err)
				}
				if err := f.WriteFile(tt.file, []byte("#!/bin/bash\n"), 0o755); err != nil {
					t.Fatal(err)
				}
				f.Close()
				os.MkdirAll(filepath.Join(z, SlurmDir, "logs"), 0o755)
			} else {
				writeFiles(t, z, map[string]string{"slurm/array.sbatch": "#!/bin/bash\n", "slurm/README": "notes"})
			}
			dir := filepath.Join(root, tt.rel)
			_, err := Begin(dir, manifest("inner"), digests(1), Options{Render: fakeRender, Now: clock()})
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Begin: %v", err)
				}
				return
			}
			want := strings.ReplaceAll(tt.want, "$ROOT", root)
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("Begin: %v\nwant %s", err, want)
			}
			if err := Owned(dir); err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("Owned: %v\nwant %s", err, want)
			}
			if err := Owned(z); err != nil {
				t.Errorf("Owned(Z): %v", err)
			}
		})
	}
}
