package results

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLinkSwappedInMidRun: a symbolic link put in place of cells/ or
// plots/ while a run writes (campaign 4, r10b, r12) is never followed:
// nothing is written outside the results directory, and the run ends
// with an error naming the link. On the code before, the start-up check
// (checkLayout) saw no link, and the writes (by path) went through it:
// every cell file and figure landed in the user's directory, exit 0.
func TestLinkSwappedInMidRun(t *testing.T) {
	swapCells := func(t *testing.T, dir string) {
		cells := filepath.Join(dir, CellsDir)
		if err := os.Rename(cells, cells+".old"); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("../user", cells); err != nil {
			t.Fatal(err)
		}
	}
	linkPlots := func(t *testing.T, dir string) {
		if err := os.Symlink("../user", filepath.Join(dir, "plots")); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		// during swaps a link in after cell 0 (nil: while rendering, by
		// rendering).
		during, rendering func(t *testing.T, dir string)
		want              string
	}{
		{"cells/ swapped for a link between cells", swapCells, nil,
			"the cells/ folder of results directory $DIR was replaced by a symbolic link (to ../user) during the run: bench follows no symbolic link inside a results directory, and writes nothing more; the cells not yet written are lost: move the link away and run again"},
		{"plots/ made a link before the figures", nil, linkPlots,
			"writing $DIR/plots/box.svg: results directory $DIR: plots is a symbolic link (to ../user), put there while bench was writing; bench follows no symbolic link inside a results directory and wrote nothing through it: move it away and run again (path escapes from parent)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			top := t.TempDir()
			dir, user := filepath.Join(top, "out"), filepath.Join(top, "user")
			if err := os.Mkdir(user, 0o755); err != nil {
				t.Fatal(err)
			}
			render := func(m *Manifest, cells []*Cell) ([]Output, error) {
				if tt.rendering != nil {
					tt.rendering(t, dir)
				}
				return []Output{{"summary.csv", func(w io.Writer) error { _, err := io.WriteString(w, "x\n"); return err }},
					{"plots/box.svg", func(w io.Writer) error { _, err := io.WriteString(w, "<svg/>"); return err }}}, nil
			}
			var stopped []error
			r := begin(t, dir, "exp", 3, Options{Render: render, Notes: io.Discard, Stop: func(err error) { stopped = append(stopped, err) }})
			finishCells(t, r, 0)
			if tt.during != nil {
				tt.during(t, dir)
			}
			finishCells(t, r, 1, 2)
			_, err := r.Finish(StatusComplete, 0)
			want := strings.ReplaceAll(tt.want, "$DIR", dir)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("Finish: %v\nwant %s", err, want)
			}
			if tt.during != nil && (len(stopped) != 1 || !errors.Is(stopped[0], ErrDirGone)) {
				t.Errorf("stopped %v, want once with the link named", stopped)
			}
			if entries, _ := os.ReadDir(user); len(entries) != 0 {
				t.Errorf("%d files written through the link into the user's directory: %v", len(entries), entries)
			}
		})
	}
}

// TestWriteAtRefusesLinksOut: a cell written while cells/ is a link out
// of the results directory (swapped in after the run checked it) is
// refused with the link named, and nothing is written where it leads;
// a link that stays inside the directory is no escape.
func TestWriteAtRefusesLinksOut(t *testing.T) {
	tests := []struct {
		name, link, want string
	}{
		{"relative link out", "../user", "results directory $DIR: cells is a symbolic link (to ../user), put there while bench was writing"},
		{"absolute link", "$TOP/user", "results directory $DIR: cells is a symbolic link (to $TOP/user), put there while bench was writing"},
		{"link inside", "inner", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			top := t.TempDir()
			dir, user := filepath.Join(top, "out"), filepath.Join(top, "user")
			for _, d := range []string{user, dir, filepath.Join(dir, "inner")} {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			root, err := openRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer root.Close()
			if err := os.Symlink(strings.ReplaceAll(tt.link, "$TOP", top), filepath.Join(dir, CellsDir)); err != nil {
				t.Fatal(err)
			}
			err = writeCellIn(root, dir, cell(0), digest(0), nil)
			want := strings.NewReplacer("$DIR", dir, "$TOP", top).Replace(tt.want)
			if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
				t.Errorf("writeCellIn: %v\nwant %q", err, want)
			}
			if entries, _ := os.ReadDir(user); len(entries) != 0 {
				t.Errorf("written into the user's directory: %v", entries)
			}
		})
	}
}

// TestMergeDirGoneMidMerge: the output directory of bench merge removed
// or replaced while the merge writes (campaign 4, s11) ends the merge with
// an error that says so, and the directory is not made again (nothing is
// written into its replacement). On the code before, merge wrote by path
// (MkdirAll): it made OUT again, with tables and a manifest but without
// the cell files, and exited 0.
func TestMergeDirGoneMidMerge(t *testing.T) {
	tests := []struct {
		name    string
		replace bool
	}{
		{"removed", false},
		{"replaced", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const cells = 4
			top := t.TempDir()
			s0, s1, out := filepath.Join(top, "s0"), filepath.Join(top, "s1"), filepath.Join(top, "m")
			for i, d := range []string{s0, s1} {
				r := begin(t, d, "exp", cells, Options{Render: fakeRender, Shard: shardOf(i, 2, cells)})
				finishCells(t, r, i, i+2)
				if _, err := r.Finish(StatusComplete, 0); err != nil {
					t.Fatal(err)
				}
			}
			render := func(m *Manifest, c []*Cell) ([]Output, error) {
				os.RemoveAll(out)
				if tt.replace {
					os.Mkdir(out, 0o755)
				}
				return fakeRender(m, c)
			}
			_, err := Merge(out, []string{s0, s1}, render)
			want := "merge: results directory " + out + " was removed or replaced during the merge: bench does not make it again and wrote nothing more there; run the merge again"
			if !errors.Is(err, ErrDirGone) || err.Error() != want {
				t.Errorf("Merge: %v\nwant %s", err, want)
			}
			entries, err := os.ReadDir(out)
			if tt.replace && len(entries) != 0 || !tt.replace && !errors.Is(err, os.ErrNotExist) {
				t.Errorf("out made again or written into: %v (%v)", entries, err)
			}
		})
	}
}

// TestRefusedFreshMovesNothing: a --fresh run refused because an input of
// the experiment is a file of the results directory (a hard link in
// plots/, campaign 4 s09) refuses before it moves anything: the earlier
// manifest and cells stay, and no superseded/ is made. On the code before,
// the hard link was found only when the run wrote its figures, after
// --fresh had moved the manifest and cells into superseded/.
func TestRefusedFreshMovesNothing(t *testing.T) {
	top := t.TempDir()
	dir, in := filepath.Join(top, "out"), filepath.Join(top, "d.csv")
	writeFiles(t, top, map[string]string{"d.csv": "a,class\n"})
	render := func(m *Manifest, cells []*Cell) ([]Output, error) {
		return []Output{{"plots/box.png", func(w io.Writer) error { _, err := io.WriteString(w, "png"); return err }}}, nil
	}
	r := begin(t, dir, "exp", 1, Options{Render: render})
	finishCells(t, r, 0)
	if _, err := r.Finish(StatusComplete, 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "plots", "box.png")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(in, filepath.Join(dir, "plots", "box.png")); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, ManifestFile))
	_, err := Begin(dir, manifest("exp"), digests(1), Options{Render: render, Now: clock(), Fresh: true,
		Inputs: []Input{{Path: in, What: `dataset "d" path`, At: "exp.hcl:3:10"}}})
	want := `exp.hcl:3:10: dataset "d" path (` + in + `) is plots/box.png of results directory ` + dir + ` (the same file under another name)`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("Begin: %v\nwant %s…", err, want)
	}
	if _, err := os.Stat(filepath.Join(dir, SupersededDir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused run made %s/ (%v)", SupersededDir, err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, ManifestFile))
	cells, _ := filepath.Glob(filepath.Join(dir, CellsDir, "*.json"))
	if string(after) != string(before) || len(cells) != 1 {
		t.Errorf("the refused run changed the manifest or moved the cell (%d cells left)", len(cells))
	}
	if b, _ := os.ReadFile(in); string(b) != "a,class\n" {
		t.Errorf("the input now holds %q", b)
	}
}

// TestAppendAtRefusesHardLinks is campaign 12's Y2: a run log that is a
// hard link to a file outside the results directory took the run's log
// lines, appended to the user's file. appendAt now refuses a file of
// more than one name, naming it, and the user's file is unchanged; a run
// log of one name opens.
func TestAppendAtRefusesHardLinks(t *testing.T) {
	top := t.TempDir()
	dir, user := filepath.Join(top, "out"), filepath.Join(top, "notes.txt")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(user, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(user, filepath.Join(dir, LogFile)); err != nil {
		t.Fatal(err)
	}
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	f, err := appendAt(root, dir, LogFile)
	want := filepath.Join(dir, LogFile) + " has 2 names (hard links)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("appendAt: %v, want an error containing %q", err, want)
	}
	if f != nil {
		f.Close()
	}
	if b, _ := os.ReadFile(user); string(b) != "mine\n" {
		t.Errorf("the user's file holds %q", b)
	}
	if err := os.Remove(filepath.Join(dir, LogFile)); err != nil {
		t.Fatal(err)
	}
	f, err = appendAt(root, dir, LogFile)
	if err != nil {
		t.Fatalf("appendAt of a new run log: %v", err)
	}
	f.Close()
}
