package results

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFiles writes files (name: content) into dir, making their folders.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// checkFiles fails unless every file (name: content) in dir holds its
// content, byte for byte.
func checkFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, want := range files {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(b) != want {
			t.Errorf("%s now holds %q (%v), want %q", name, b, err, want)
		}
	}
}

// TestOwnership: a run writes into a directory that is absent, empty or
// bench's (a manifest, cells/, shards/, or only what bench submit makes);
// a directory holding the user's files is refused, naming them, and left
// as it was.
func TestOwnership(t *testing.T) {
	user := map[string]string{"summary.csv": "mine,1\n", "base.md": "# my notes\n"}
	record := `{"schema": 1, "files": {}}`
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  string // "" accepted
	}{
		{"absent", func(t *testing.T, dir string) { os.Remove(dir) }, ""},
		{"empty", func(*testing.T, string) {}, ""},
		{"user's files", func(t *testing.T, dir string) { writeFiles(t, dir, user) },
			`results directory $DIR is not bench's: it holds "base.md", "summary.csv" and no manifest.json; bench writes only into a directory that is absent, empty or its own: choose another directory with -o, or run with --adopt to write there (each file the run replaces is moved to superseded/TIME/ first, never deleted)`},
		{"one user file among bench's", func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"slurm/array.sbatch": "#!/bin/sh\n", "slurm/" + WrittenFile: record, "notes.txt": "x"})
		}, ""}, // slurm/ with its record is a mark of bench's, as cells/ is
		{"one user file beside submit's scripts with no record", func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"slurm/array.sbatch": "#!/bin/sh\n", "notes.txt": "x"})
		}, `results directory $DIR is not bench's: it holds "notes.txt", "slurm" (holds "array.sbatch" but no record .bench-written of bench submit's) and no manifest.json;`},
		{"an earlier run", func(t *testing.T, dir string) {
			r := begin(t, dir, "base", 1, Options{Render: fakeRender})
			finishCells(t, r, 0)
			r.Finish(StatusComplete, 0)
		}, ""},
		{"an earlier run without its manifest", func(t *testing.T, dir string) {
			r := begin(t, dir, "base", 1, Options{Render: fakeRender})
			finishCells(t, r, 0)
			r.Finish(StatusComplete, 0)
			os.Remove(filepath.Join(dir, ManifestFile))
		}, ""},
		{"bench submit's scripts only", func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"slurm/array.sbatch": "#!/bin/sh\n", "slurm/" + WrittenFile: record, "k8s/shards.json": "{}", "k8s/" + WrittenFile: record})
		}, ""},
		{"what bench makes before its files", func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{".lock": "", "superseded/20260101T000000.000000000Z/run.log": "x", "rerun/cells/.tmp-0000-ab.json-0123456789ab": "{",
				"slurm/.tmp-array.sbatch-17": "#", "k8s/.tmp-" + WrittenFile + "-4": "{"})
			os.MkdirAll(filepath.Join(dir, "slurm", "logs"), 0o755)
		}, ""},
		{"unfinished writes only", func(t *testing.T, dir string) { writeFiles(t, dir, map[string]string{".tmp-manifest.json-1": ""}) }, ""},
		// A name starting with .tmp- is the user's unless it is a temporary
		// name of bench's for a file bench writes there (campaign 22 N01).
		{"the user's .tmp- file", func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{".tmp-notes.md": "3 weeks of work"})
		},
			`results directory $DIR is not bench's: it holds ".tmp-notes.md" and no manifest.json;`},
		{"a temporary name of no file bench writes", func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{".tmp-notes.txt-123": "x", ".tmp-summary.csv-12345678901": "x"})
		}, `results directory $DIR is not bench's: it holds ".tmp-notes.txt-123", ".tmp-summary.csv-12345678901" and no manifest.json;`},
		// slurm/, k8s/, superseded/, rerun/ and .lock are bench's only when
		// they hold what bench puts there (campaign 22 N02).
		{"the user's slurm folder", func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"slurm/merge.sbatch": "#SBATCH --account=lab42\n", "slurm/README": "notes"})
		}, `results directory $DIR is not bench's: it holds "slurm" (holds "README", which bench submit does not write) and no manifest.json;`},
		{"the user's k8s manifest", func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"k8s/merge.json": `{"my":"own manifest"}`})
		},
			`results directory $DIR is not bench's: it holds "k8s" (holds "merge.json" but no record .bench-written of bench submit's) and no manifest.json;`},
		{"the user's superseded folder", func(t *testing.T, dir string) { writeFiles(t, dir, map[string]string{"superseded/v1/paper.tex": "x"}) },
			`results directory $DIR is not bench's: it holds "superseded" (holds "v1", which is no folder of files bench moved aside) and no manifest.json;`},
		{"the user's rerun folder", func(t *testing.T, dir string) { writeFiles(t, dir, map[string]string{"rerun/notes.txt": "x"}) },
			`results directory $DIR is not bench's: it holds "rerun" (no results directory of bench's) and no manifest.json;`},
		{"the user's .lock file", func(t *testing.T, dir string) { writeFiles(t, dir, map[string]string{".lock": "pid 42\n"}) },
			`results directory $DIR is not bench's: it holds ".lock" (not the empty lock file bench makes) and no manifest.json;`},
		// A user's own folders named shards or cells, or a manifest.json
		// of theirs, make no directory bench's (the fourth new-user trial).
		{"the user's shards folder beside their files", func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"shards/part1.csv": "a\n", "summary.csv": "mine,1\n"})
		}, `results directory $DIR is not bench's: it holds "shards", "summary.csv" and no manifest.json;`},
		{"the user's cells folder", func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"cells/notes.txt": "x"})
		}, `results directory $DIR is not bench's: it holds "cells" and no manifest.json;`},
		{"the user's manifest.json", func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"manifest.json": `{"name": "my web app"}`, "base.md": "# notes\n"})
		}, `results directory $DIR is not bench's: it holds "base.md", "manifest.json" and no manifest.json this bench reads;`},
		// An entry that looks like bench's but is not is named with why
		// (a file browser's .DS_Store among the cell files, a manifest
		// of a later bench).
		{"a stray file among cell files", func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"cells/0-x.json": "{}", "cells/.DS_Store": "", "cells/zz": ""})
		}, `results directory $DIR is not bench's: it holds "cells" (holds ".DS_Store", which is no cell file, beside its cell files) and no manifest.json;`},
		{"a stray file among a shard's files", func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"shards/0-of-2.json": "{}", "shards/notes.txt": ""})
		}, `results directory $DIR is not bench's: it holds "shards" (holds "notes.txt", which is no shard's file, beside its shard's files) and no manifest.json;`},
		{"a manifest of a newer schema", func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"manifest.json": `{"schema": 99, "experiment": "base"}`})
		}, `results directory $DIR is not bench's: it holds "manifest.json" (manifest schema 99, newer than the 1 this bench reads: written by a later version?) and no manifest.json this bench reads;`},
		{"an empty cells folder beside the user's files", func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"summary.csv": "mine,1\n"})
			if err := os.Mkdir(filepath.Join(dir, "cells"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, `results directory $DIR is not bench's: it holds "summary.csv" and no manifest.json;`},
		{"a shard's files", func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{"shards/0-of-2.json": "{}", "shards/0-of-2.log": "", "shards/.lock-0-of-2": "", "summary.csv": "x\n"})
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			tt.setup(t, dir)
			r, err := Begin(dir, manifest("base"), digests(1), Options{Render: fakeRender, Now: clock()})
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Begin: %v", err)
				}
				finishCells(t, r, 0)
				if _, err := r.Finish(StatusComplete, 0); err != nil {
					t.Fatal(err)
				}
				return
			}
			want := strings.ReplaceAll(tt.want, "$DIR", dir)
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("Begin: %v\nwant %s", err, want)
			}
			if tt.name == "user's files" {
				checkFiles(t, dir, user)
				if entries, _ := os.ReadDir(dir); len(entries) != len(user) {
					t.Errorf("%d entries in the directory, want the user's %d", len(entries), len(user))
				}
			}
			wantOwned := strings.Replace(want, "or run with --adopt to write there (each file the run replaces is moved to superseded/TIME/ first, never deleted)", "or move those files away", 1)
			if err := Owned(dir); err == nil || !strings.HasPrefix(err.Error(), wantOwned) {
				t.Errorf("Owned: %v\nwant %s", err, wantOwned)
			}
		})
	}
}

// TestAdopt: with Options.Adopt a run writes into the user's directory,
// moving each file it replaces (and the run log it appends to) to
// superseded/TIME/ unchanged; the user's other files stay where they are.
func TestAdopt(t *testing.T) {
	dir := t.TempDir()
	replaced := map[string]string{"summary.csv": "mine,1\n", "base.md": "# my notes\n", "run.log": "my log\n"}
	writeFiles(t, dir, replaced)
	writeFiles(t, dir, map[string]string{"notes.txt": "keep me\n"})
	var notes strings.Builder
	r, err := Begin(dir, manifest("base"), digests(1), Options{Render: fakeRender, Now: clock(), Adopt: true, Notes: &notes})
	if err != nil {
		t.Fatal(err)
	}
	finishCells(t, r, 0)
	if _, err := r.Finish(StatusComplete, 0); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir, map[string]string{"notes.txt": "keep me\n"})
	for name, body := range replaced {
		aside, _ := filepath.Glob(filepath.Join(dir, SupersededDir, "*", name))
		if len(aside) != 1 {
			t.Errorf("%s moved aside to %v, want one place", name, aside)
			continue
		}
		if b, _ := os.ReadFile(aside[0]); string(b) != body {
			t.Errorf("%s moved aside holds %q, want %q", name, b, body)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) == body {
			t.Errorf("%s: the run did not write its own", name)
		}
	}
	log, _ := os.ReadFile(filepath.Join(dir, LogFile))
	for _, want := range []string{"moved run.log aside to superseded/", "moved summary.csv aside to superseded/", "listed it among its outputs, and an output of the run replaces it"} {
		if !strings.Contains(string(log)+notes.String(), want) {
			t.Errorf("no %q in the run log:\n%s\nnotes:\n%s", want, log, notes.String())
		}
	}
	// The directory is now bench's: the next run needs no --adopt.
	if err := Owned(dir); err != nil {
		t.Errorf("Owned after an adopting run: %v", err)
	}
}

// TestInputsAmongOutputs: an input of the experiment that is one of the
// files a run writes (by device and inode, under any name) or lies inside
// a directory bench manages is refused where the experiment file names it,
// even with Adopt, and left unchanged; an input beside the outputs is not.
func TestInputsAmongOutputs(t *testing.T) {
	const folds = "row,fold\n0,1\n"
	tests := []struct {
		name string
		// setup makes the input (returned) in or near dir.
		setup func(t *testing.T, dir string) string
		want  string // "" accepted
	}{
		{"folds file is folds.csv", func(t *testing.T, dir string) string {
			writeFiles(t, dir, map[string]string{"folds.csv": folds})
			return filepath.Join(dir, "folds.csv")
		}, `exp.hcl:4:14: cv.folds_file "folds.csv" ($DIR/folds.csv) is folds.csv of results directory $DIR, which the run writes: it would overwrite its own input; choose another results directory (-o DIR, or output { dir = ... }) or move the input out of it`},
		{"hard link as the markdown table", func(t *testing.T, dir string) string {
			in := filepath.Join(filepath.Dir(dir), "folds.csv")
			writeFiles(t, filepath.Dir(dir), map[string]string{"folds.csv": folds})
			if err := os.Link(in, filepath.Join(dir, "exp.md")); err != nil {
				t.Fatal(err)
			}
			return in
		}, `exp.hcl:4:14: cv.folds_file "folds.csv" ($UP/folds.csv) is exp.md of results directory $DIR`},
		{"named through a link", func(t *testing.T, dir string) string {
			writeFiles(t, dir, map[string]string{"summary.csv": folds})
			link := filepath.Join(filepath.Dir(dir), "folds.csv")
			if err := os.Symlink(filepath.Join(dir, "summary.csv"), link); err != nil {
				t.Fatal(err)
			}
			return link
		}, `exp.hcl:4:14: cv.folds_file "folds.csv" ($UP/folds.csv) is summary.csv of results directory $DIR`},
		{"inside cells/", func(t *testing.T, dir string) string {
			writeFiles(t, dir, map[string]string{"cells/folds.csv": folds})
			return filepath.Join(dir, "cells", "folds.csv")
		}, `exp.hcl:4:14: cv.folds_file "folds.csv" ($DIR/cells/folds.csv) lies inside cells/ of results directory $DIR, whose files bench replaces, moves aside or removes`},
		{"inside plots/ through a linked folder", func(t *testing.T, dir string) string {
			writeFiles(t, dir, map[string]string{"plots/folds.csv": folds})
			link := filepath.Join(filepath.Dir(dir), "data")
			if err := os.Symlink(filepath.Join(dir, "plots"), link); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(link, "folds.csv")
		}, `exp.hcl:4:14: cv.folds_file "folds.csv" ($UP/data/folds.csv) lies inside plots/ of results directory $DIR`},
		{"hard link inside plots/ (campaign 4 s09)", func(t *testing.T, dir string) string {
			in := filepath.Join(filepath.Dir(dir), "folds.csv")
			writeFiles(t, filepath.Dir(dir), map[string]string{"folds.csv": folds})
			writeFiles(t, dir, map[string]string{"plots/other.svg": "<svg/>"})
			if err := os.Link(in, filepath.Join(dir, "plots", "box.png")); err != nil {
				t.Fatal(err)
			}
			return in
		}, `exp.hcl:4:14: cv.folds_file "folds.csv" ($UP/folds.csv) is plots/box.png of results directory $DIR (the same file under another name), which the run replaces, moves aside or removes`},
		{"beside the outputs", func(t *testing.T, dir string) string {
			writeFiles(t, dir, map[string]string{"my-folds.csv": folds})
			return filepath.Join(dir, "my-folds.csv")
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			path := tt.setup(t, dir)
			in := Input{Path: path, What: `cv.folds_file "folds.csv"`, At: "exp.hcl:4:14"}
			r, err := Begin(dir, manifest("exp"), digests(1), Options{Render: fakeRender, Now: clock(), Adopt: true, Inputs: []Input{in}})
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				finishCells(t, r, 0)
				if _, err := r.Finish(StatusComplete, 0); err != nil {
					t.Fatal(err)
				}
			} else {
				want := strings.NewReplacer("$DIR", dir, "$UP", filepath.Dir(dir)).Replace(tt.want)
				if err == nil || !strings.HasPrefix(err.Error(), want) {
					t.Fatalf("Begin: %v\nwant %s", err, want)
				}
			}
			if b, err := os.ReadFile(path); err != nil || string(b) != folds {
				t.Errorf("the input now holds %q (%v)", b, err)
			}
		})
	}
}

// TestInputsAmongOutputsEach: every input among the outputs is named, each
// where the experiment file names it, the experiment file by its path.
func TestInputsAmongOutputsEach(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"folds.csv": "f", "summary.csv": "d", "exp.md": "e"})
	inputs := []Input{
		{Path: filepath.Join(dir, "summary.csv"), What: `dataset "iris" path`, At: "exp.hcl:3:10"},
		{Path: filepath.Join(dir, "folds.csv"), What: `cv.folds_file`, At: "exp.hcl:7:15"},
		{Path: filepath.Join(dir, "exp.md"), What: "the experiment file", At: filepath.Join(dir, "exp.md")},
	}
	_, err := Begin(dir, manifest("exp"), digests(1), Options{Now: clock(), Adopt: true, Inputs: inputs})
	if err == nil {
		t.Fatal("Begin accepted inputs among its outputs")
	}
	var got []string
	for _, l := range strings.Split(err.Error(), "\n") {
		got = append(got, strings.SplitN(l, " (", 2)[0])
	}
	want := []string{`exp.hcl:3:10: dataset "iris" path`, `exp.hcl:7:15: cv.folds_file`, filepath.Join(dir, "exp.md") + ": the experiment file"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDirGoneMidRun: a results directory removed, replaced or moved away
// while a run writes into it ends the run, saying so: nothing is written
// any more, and the directory is not made again.
func TestDirGoneMidRun(t *testing.T) {
	tests := []struct {
		name   string
		gone   func(t *testing.T, dir string)
		exists bool // a directory is at the path afterwards (not the run's)
		want   string
	}{
		{"removed", func(t *testing.T, dir string) { os.RemoveAll(dir) }, false,
			"results directory $DIR was removed or replaced during the run (stat $DIR: no such file or directory): bench does not make it again, and writes nothing more; the cells not yet written are lost: run again to compute them"},
		{"replaced", func(t *testing.T, dir string) {
			os.RemoveAll(dir)
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}, true, "results directory $DIR was removed or replaced during the run: another directory is there now, and bench writes nothing into it; the cells not yet written are lost: run again to compute them"},
		{"moved away", func(t *testing.T, dir string) {
			if err := os.Rename(dir, dir+".moved"); err != nil {
				t.Fatal(err)
			}
		}, false, "results directory $DIR was removed or replaced during the run (stat $DIR: no such file or directory)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			var stopped []error
			var notes strings.Builder
			r := begin(t, dir, "exp", 3, Options{Render: fakeRender, Notes: &notes, Stop: func(err error) { stopped = append(stopped, err) }})
			finishCells(t, r, 0)
			tt.gone(t, dir)
			finishCells(t, r, 1, 2)
			want := strings.ReplaceAll(tt.want, "$DIR", dir)
			if len(stopped) != 1 || !errors.Is(stopped[0], ErrDirGone) || !strings.HasPrefix(stopped[0].Error(), want) {
				t.Errorf("stopped with %v\nwant once: %s", stopped, want)
			}
			if !strings.Contains(notes.String(), want) {
				t.Errorf("notes:\n%s", notes.String())
			}
			_, err := r.Finish(StatusComplete, 0)
			if !errors.Is(err, ErrDirGone) || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("Finish: %v\nwant %s", err, want)
			}
			entries, err := os.ReadDir(dir)
			switch {
			case tt.exists && (err != nil || len(entries) != 0):
				t.Errorf("the new directory holds %d entries (%v): the run wrote into it", len(entries), err)
			case !tt.exists && !errors.Is(err, os.ErrNotExist):
				t.Errorf("the directory was made again: %d entries (%v)", len(entries), err)
			}
			if tt.name == "moved away" {
				cells, _ := os.ReadDir(filepath.Join(dir+".moved", CellsDir))
				if len(cells) != 1 {
					t.Errorf("the moved directory holds %d cell files, want the 1 written before", len(cells))
				}
			}
		})
	}
}

// TestSubdir: bench's own folders in a results directory (slurm/, k8s/,
// rerun/) are made there, never followed when they are links.
func TestSubdir(t *testing.T) {
	root := t.TempDir()
	dir, elsewhere := filepath.Join(root, "out"), filepath.Join(root, "elsewhere")
	if err := os.Mkdir(elsewhere, 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := Subdir(dir, "slurm/logs")
	if err != nil || got != filepath.Join(dir, "slurm", "logs") {
		t.Fatalf("Subdir: %q, %v", got, err)
	}
	f, err := OpenFolder(dir, "slurm", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.WriteFile("array.sbatch", []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "slurm", "array.sbatch")); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("array.sbatch: %v, %v", fi, err)
	}
	tests := []struct{ name, make, want string }{
		{"k8s", "link", "results directory $DIR: k8s is a symbolic link (to $ELSE); bench follows no symbolic link inside a results directory: move it away, or choose another directory with -o"},
		{"rerun", "link", "results directory $DIR: rerun is a symbolic link (to $ELSE)"},
		{"slurm/logs2", "link", "results directory $DIR: slurm/logs2 is a symbolic link (to $ELSE)"},
		{"plain", "file", "results directory $DIR: plain is not a directory"},
		{"../up", "", `output name "../up" would leave the results directory $DIR`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, filepath.FromSlash(tt.name))
			switch tt.make {
			case "link":
				if err := os.Symlink(elsewhere, path); err != nil {
					t.Fatal(err)
				}
			case "file":
				writeFiles(t, dir, map[string]string{tt.name: ""})
			}
			_, err := Subdir(dir, tt.name)
			want := strings.NewReplacer("$DIR", dir, "$ELSE", elsewhere).Replace(tt.want)
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("Subdir: %v\nwant %s", err, want)
			}
		})
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Errorf("bench wrote %d entries into the link's target", len(entries))
	}
}

// TestShardNeverAdopts: a shard refuses a directory that is not bench's
// even with Adopt (it writes no outputs to move aside; the merge would
// replace the user's files), and leaves it as it was.
func TestShardNeverAdopts(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"summary.csv": "mine\n"})
	_, err := Begin(dir, manifest("exp"), digests(4), Options{Now: clock(), Adopt: true, Shard: shardOf(0, 2, 4)})
	want := `results directory ` + dir + ` is not bench's: it holds "summary.csv" and no manifest.json; bench writes only into a directory that is absent, empty or its own: shards and their merge write only into bench's directories (--adopt is for a whole run): choose another directory with -o, or move those files away`
	if err == nil || err.Error() != want {
		t.Fatalf("Begin: %v\nwant %s", err, want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d entries in the refused directory, want the user's one", len(entries))
	}
	checkFiles(t, dir, map[string]string{"summary.csv": "mine\n"})
}

// TestAdoptKilledBeforeFinish: a run adopting a directory killed before it
// wrote its outputs leaves the user's files there; the next run (without
// --adopt: the directory is bench's now) still moves each one aside
// before replacing it, since no run lists it among its outputs.
func TestAdoptKilledBeforeFinish(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"summary.csv": "mine\n"})
	r := begin(t, dir, "exp", 1, Options{Render: fakeRender, Adopt: true})
	r.close() // killed: no Finish
	checkFiles(t, dir, map[string]string{"summary.csv": "mine\n"})
	r = begin(t, dir, "exp", 1, Options{Render: fakeRender})
	finishCells(t, r, 0)
	if _, err := r.Finish(StatusComplete, 0); err != nil {
		t.Fatal(err)
	}
	aside, _ := filepath.Glob(filepath.Join(dir, SupersededDir, "*", "summary.csv"))
	if len(aside) != 1 {
		t.Fatalf("summary.csv moved aside to %v", aside)
	}
	checkFiles(t, filepath.Dir(aside[0]), map[string]string{"summary.csv": "mine\n"})
	// Run again: the outputs are the last run's now, replaced in place.
	r = begin(t, dir, "exp", 1, Options{Render: fakeRender})
	if _, err := r.Finish(StatusComplete, 0); err != nil {
		t.Fatal(err)
	}
	if again, _ := filepath.Glob(filepath.Join(dir, SupersededDir, "*", "summary.csv")); len(again) != 1 {
		t.Errorf("bench's own summary.csv moved aside too: %v", again)
	}
}

// TestOutputOverAnInput: an output whose name checkInputs does not know
// (a renderer's new file) is still never written over an input: Finish
// refuses it where the experiment file names the input, and the input
// stays as it was.
func TestOutputOverAnInput(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"extra.csv": "x,class\n"})
	in := Input{Path: filepath.Join(dir, "extra.csv"), What: `dataset "d" path`, At: "exp.hcl:2:24"}
	render := func(m *Manifest, cells []*Cell) ([]Output, error) {
		return []Output{{"extra.csv", func(w io.Writer) error { _, err := io.WriteString(w, "overwritten\n"); return err }}}, nil
	}
	r, err := Begin(dir, manifest("exp"), digests(1), Options{Render: render, Now: clock(), Adopt: true, Inputs: []Input{in}})
	if err != nil {
		t.Fatal(err)
	}
	finishCells(t, r, 0)
	_, err = r.Finish(StatusComplete, 0)
	want := "exp.hcl:2:24: dataset \"d\" path (" + in.Path + ") is extra.csv of results directory " + dir + ", which the run writes: it would overwrite its own input"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Finish: %v\nwant %s", err, want)
	}
	checkFiles(t, dir, map[string]string{"extra.csv": "x,class\n"})
}

// TestCellsDirNotMadeAgain: a run's cells directory removed under it is
// not made again by the next cell's write (the run is told that cells/
// was removed and stops), so that a results directory removed between
// the check and the write is not made again either.
func TestCellsDirNotMadeAgain(t *testing.T) {
	dir := t.TempDir()
	var stopped error
	r := begin(t, dir, "exp", 2, Options{Stop: func(err error) { stopped = err }})
	finishCells(t, r, 0)
	if err := os.RemoveAll(filepath.Join(dir, CellsDir)); err != nil {
		t.Fatal(err)
	}
	finishCells(t, r, 1)
	if _, err := os.Lstat(filepath.Join(dir, CellsDir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("cells/ made again (%v)", err)
	}
	if stopped == nil || !strings.Contains(stopped.Error(), "the cells/ folder of results directory") || !errors.Is(stopped, ErrDirGone) {
		t.Errorf("stopped with %v", stopped)
	}
	r.close()
}
