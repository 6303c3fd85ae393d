package results

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLateWritesNeverRemakeDir: a results directory (or its cells/
// folder) removed or replaced while Finish renders the tables ends the
// run with an error that says so; Finish writes no output and no
// manifest, and never makes the directory again. On the code before,
// Finish checked the directory once, before rendering, and its writes
// (MkdirAll) made a removed directory again, holding the tables and a
// manifest of cells that were gone.
func TestLateWritesNeverRemakeDir(t *testing.T) {
	removeDir := func(t *testing.T, dir string) { os.RemoveAll(dir) }
	replaceDir := func(t *testing.T, dir string) {
		os.RemoveAll(dir)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	removeCells := func(t *testing.T, dir string) { os.RemoveAll(filepath.Join(dir, CellsDir)) }
	tests := []struct {
		name   string
		gone   func(t *testing.T, dir string)
		remain []string // the entries of dir afterwards; nil: dir absent
		want   string
		file   bool // dir is a file afterwards, holding x
	}{
		{"removed while rendering", removeDir, nil,
			"results directory $DIR was removed or replaced during the run (stat $DIR: no such file or directory): bench does not make it again, and writes nothing more", false},
		{"replaced while rendering", replaceDir, []string{},
			"results directory $DIR was removed or replaced during the run: another directory is there now, and bench writes nothing into it", false},
		// Campaign 12: a file put where the directory was was called
		// another directory.
		{"replaced by a file while rendering", func(t *testing.T, dir string) {
			if err := os.Rename(dir, dir+".old"); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(dir, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, nil,
			"results directory $DIR was removed or replaced during the run: a file, not a directory, is there now, and bench writes nothing into it", true},
		{"cells/ removed while rendering", removeCells, []string{".lock", ManifestFile, LogFile},
			"the cells/ folder of results directory $DIR was removed during the run: bench does not make it again, and writes nothing more; the cell files written before went with it: run again to compute them", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			render := func(m *Manifest, cells []*Cell) ([]Output, error) {
				tt.gone(t, dir)
				return []Output{{"summary.csv", func(w io.Writer) error { _, err := io.WriteString(w, "x\n"); return err }},
					{"plots/box.svg", func(w io.Writer) error { _, err := io.WriteString(w, "<svg/>"); return err }}}, nil
			}
			r := begin(t, dir, "exp", 2, Options{Render: render})
			finishCells(t, r, 0, 1)
			written, err := r.Finish(StatusComplete, 0)
			want := strings.ReplaceAll(tt.want, "$DIR", dir)
			if !errors.Is(err, ErrDirGone) || !strings.HasPrefix(err.Error(), want) || len(written) != 0 {
				t.Errorf("Finish: %v (wrote %q)\nwant %s", err, written, want)
			}
			if tt.file {
				if b, err := os.ReadFile(dir); err != nil || string(b) != "x" {
					t.Errorf("the file put in the directory's place holds %q (%v), want x", b, err)
				}
				return
			}
			entries, err := os.ReadDir(dir)
			if tt.remain == nil {
				if !errors.Is(err, os.ErrNotExist) {
					t.Errorf("the directory was made again: %d entries (%v)", len(entries), err)
				}
				return
			}
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			if strings.Join(names, " ") != strings.Join(tt.remain, " ") {
				t.Errorf("the directory holds %q, want %q", names, tt.remain)
			}
		})
	}
}

// TestCellsDirGoneMidRun: the cells/ folder alone removed while cells
// finish ends the run with an error that says cells/ was
// removed, not the full-disk advice ("make room"); Finish reports it and
// cells/ is not made again. On the code before, the next cell's write
// failed and the run said "make room and run the same command again".
func TestCellsDirGoneMidRun(t *testing.T) {
	const want = "the cells/ folder of results directory $DIR was removed during the run: bench does not make it again, and writes nothing more; the cell files written before went with it: run again to compute them"
	tests := []struct {
		name          string
		before, after []int // the cells finished before and after cells/ goes
		stops         int   // how often the run is stopped
	}{
		{"between cells", []int{0}, []int{1, 2}, 1},
		{"before the first cell", nil, []int{0, 1, 2}, 1},
		{"after the last cell", []int{0, 1, 2}, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			var stopped []error
			var notes strings.Builder
			r := begin(t, dir, "exp", 3, Options{Render: fakeRender, Notes: &notes, Stop: func(err error) { stopped = append(stopped, err) }})
			finishCells(t, r, tt.before...)
			if err := os.RemoveAll(filepath.Join(dir, CellsDir)); err != nil {
				t.Fatal(err)
			}
			finishCells(t, r, tt.after...)
			want := strings.ReplaceAll(want, "$DIR", dir)
			if len(stopped) != tt.stops || tt.stops > 0 && (!errors.Is(stopped[0], ErrDirGone) || stopped[0].Error() != want) {
				t.Errorf("stopped with %v\nwant %d times: %s", stopped, tt.stops, want)
			}
			if n := notes.String(); tt.stops > 0 && !strings.Contains(n, want) || strings.Contains(n, "make room") {
				t.Errorf("notes:\n%s", n)
			}
			if _, err := r.Finish(StatusComplete, 0); !errors.Is(err, ErrDirGone) || err.Error() != want {
				t.Errorf("Finish: %v\nwant %s", err, want)
			}
			if _, err := os.Lstat(filepath.Join(dir, CellsDir)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("cells/ made again (%v)", err)
			}
		})
	}
}
