package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestResumeWarnsOfForeignCells: a run that keeps cells from a results
// directory, a cells/ or a cell file that others may write warns, naming
// each such entry with its owner and mode and saying to use --fresh; a
// private directory, a group-writable file (a umask of 002) and a fresh
// run (which keeps nothing) get no warning, and the cells are kept either
// way.
func TestResumeWarnsOfForeignCells(t *testing.T) {
	me := userName(os.Geteuid())
	cell0 := filepath.Join(CellsDir, CellFileName(0, digest(0)))
	for _, tc := range []struct {
		name  string
		modes map[string]os.FileMode // by path in the results directory
		fresh bool
		want  []string // "" for the results directory
	}{
		{"private", nil, false, nil},
		{"group-writable file", map[string]os.FileMode{cell0: 0o664, CellsDir: 0o775}, false, nil},
		{"directory writable by others", map[string]os.FileMode{".": 0o777}, false, []string{"$DIR (owner " + me + ", drwxrwxrwx)"}},
		{"all writable by others", map[string]os.FileMode{".": 0o777, CellsDir: 0o777, cell0: 0o666, filepath.Join(CellsDir, CellFileName(1, digest(1))): 0o646},
			false, []string{"$DIR (owner " + me + ", drwxrwxrwx), $DIR/cells (owner " + me + ", drwxrwxrwx), $DIR/" + cell0 + " (owner " + me + ", -rw-rw-rw-) and 1 more"}},
		{"fresh", map[string]os.FileMode{".": 0o777, cell0: 0o666}, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			r := begin(t, dir, "exp", 3, Options{Render: fakeRender})
			finishCells(t, r, 0, 1)
			r.Finish(StatusInterrupted, 0)
			for _, p := range []string{".", CellsDir} {
				os.Chmod(filepath.Join(dir, p), 0o755)
			}
			files, _ := filepath.Glob(filepath.Join(dir, CellsDir, "*.json"))
			for _, f := range files {
				os.Chmod(f, 0o644)
			}
			for p, m := range tc.modes {
				if err := os.Chmod(filepath.Join(dir, p), m); err != nil {
					t.Fatal(err)
				}
			}
			var notes strings.Builder
			r = begin(t, dir, "exp", 3, Options{Render: fakeRender, Notes: &notes, Fresh: tc.fresh})
			defer r.Finish(StatusInterrupted, 0)
			if want := map[bool]int{false: 2, true: 0}[tc.fresh]; len(r.Kept()) != want {
				t.Errorf("kept %d cells, want %d", len(r.Kept()), want)
			}
			got := strings.ReplaceAll(notes.String(), dir, "$DIR")
			if len(tc.want) == 0 {
				if strings.Contains(got, "another user") {
					t.Errorf("a warning:\n%s", got)
				}
				return
			}
			for _, w := range tc.want {
				want := "warning: 2 cell(s) kept from files that another user owns or may write: " + w + ". Cells planted there would be reported as the run's own; unless you trust whoever can write them, run the experiment with --fresh to compute them again (the files are moved to superseded/ first)."
				if !strings.Contains(got, want) {
					t.Errorf("notes lack\n%s\nin\n%s", want, got)
				}
			}
		})
	}
}

// TestWritableByOthers: a path is named when a user other than the one
// given owns it (the owner is compared with an injected uid, so that the
// test does not depend on who runs it) or when others may write it; a
// missing path is left out.
func TestWritableByOthers(t *testing.T) {
	dir := t.TempDir()
	private, open := filepath.Join(dir, "private"), filepath.Join(dir, "open")
	os.WriteFile(private, nil, 0o600)
	os.WriteFile(open, nil, 0o600)
	os.Chmod(open, 0o602)
	me, other := os.Geteuid(), os.Geteuid()+1
	name := userName(me)
	for _, tc := range []struct {
		uid  int
		want []string
	}{
		{me, []string{open + " (owner " + name + ", -rw-----w-)"}},
		{other, []string{private + " (owner " + name + ", -rw-------)", open + " (owner " + name + ", -rw-----w-)"}},
	} {
		got, _ := writableByOthers([]string{private, open, filepath.Join(dir, "missing")}, tc.uid)
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("uid %d: %q, want %q", tc.uid, got, tc.want)
		}
	}
	if got := userName(0); got != "root, uid 0" {
		t.Errorf("userName(0) = %q", got)
	}
}

// TestTableWarnsOfForeignCells: bench table (Render) reading the cells of
// a directory whose cell file others may write warns as a resumed run
// does, "read from"; the same directory made private again gets none.
func TestTableWarnsOfForeignCells(t *testing.T) {
	dir := t.TempDir()
	r := begin(t, dir, "exp", 2, Options{Render: fakeRender})
	finishCells(t, r, 0, 1)
	r.Finish(StatusComplete, 0)
	for _, p := range []string{".", CellsDir} {
		os.Chmod(filepath.Join(dir, p), 0o755)
	}
	cell1 := filepath.Join(CellsDir, CellFileName(1, digest(1)))
	for _, tc := range []struct {
		mode os.FileMode
		want string
	}{
		{0o646, "warning: 1 cell(s) read from files that another user owns or may write: $DIR/" + cell1 + " (owner " + userName(os.Geteuid()) + ", -rw-r--rw-). Cells planted there"},
		{0o644, ""},
	} {
		if err := os.Chmod(filepath.Join(dir, cell1), tc.mode); err != nil {
			t.Fatal(err)
		}
		var notes strings.Builder
		if _, _, err := Render(dir, fakeRender, &notes); err != nil {
			t.Fatal(err)
		}
		got := strings.ReplaceAll(notes.String(), dir, "$DIR")
		if tc.want == "" && strings.Contains(got, "another user") || !strings.Contains(got, tc.want) {
			t.Errorf("mode %v: notes\n%s\nwant %q", tc.mode, got, tc.want)
		}
	}
}

// TestMergeWarnsOfForeignShards: bench merge (and bench table over a
// directory of shards, which merges it) warns of each shard directory,
// cells/ and merged cell file that another user owns (an injected uid) or
// that others may write, as a resumed run does, "merged from"; private
// shards and a group-writable file (a umask of 002) get no warning.
func TestMergeWarnsOfForeignShards(t *testing.T) {
	const cells = 2
	me, other := os.Geteuid(), os.Geteuid()+1
	name := userName(me)
	cell1 := filepath.Join(CellsDir, CellFileName(1, digest(1)))
	for _, tc := range []struct {
		name  string
		uid   int
		modes map[string]os.FileMode // by path in shard 1's directory
		want  string                 // "" for none; $S1 for shard 1's directory
	}{
		{"private", me, nil, ""},
		{"group-writable", me, map[string]os.FileMode{".": 0o775, CellsDir: 0o775, cell1: 0o664}, ""},
		{"cell file writable by others", me, map[string]os.FileMode{cell1: 0o666},
			// One cell at risk of the two: the merge has no --fresh.
			"warning: 1 cell(s) merged from files that another user owns or may write: $S1/" + cell1 + " (owner " + name + ", -rw-rw-rw-). Cells planted there would be reported as the run's own; unless you trust whoever can write them, leave the shard directories named out of the merge, or run their shards again yourself (bench run --shard I/N)."},
		{"shard directory writable by others", me, map[string]os.FileMode{".": 0o777, CellsDir: 0o777},
			"merged from files that another user owns or may write: $S1 (owner " + name + ", drwxrwxrwx), $S1/cells (owner " + name + ", drwxrwxrwx). Cells planted there"},
		{"another user's shards", other, nil,
			"warning: 2 cell(s) merged from files that another user owns or may write: $OUT (owner " + name + ", drwxr-xr-x), $OUT/cells (owner " + name + ", drwxr-xr-x), $S0 (owner " + name + ", drwxr-xr-x) and 5 more."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			dirs := []string{t.TempDir(), t.TempDir()}
			for i, d := range dirs {
				r := begin(t, d, "exp", cells, Options{Render: fakeRender, Shard: shardOf(i, 2, cells)})
				finishCells(t, r, i)
				if _, err := r.Finish(StatusComplete, 0); err != nil {
					t.Fatal(err)
				}
			}
			for _, d := range append([]string{out}, dirs...) {
				os.Chmod(d, 0o755)
				os.Chmod(filepath.Join(d, CellsDir), 0o755)
				files, _ := filepath.Glob(filepath.Join(d, CellsDir, "*.json"))
				for _, f := range files {
					os.Chmod(f, 0o644)
				}
			}
			for p, m := range tc.modes {
				if err := os.Chmod(filepath.Join(dirs[1], p), m); err != nil {
					t.Fatal(err)
				}
			}
			res, err := mergeAs(out, dirs, fakeRender, tc.uid)
			if err != nil {
				t.Fatal(err)
			}
			got := strings.NewReplacer(out, "$OUT", dirs[0], "$S0", dirs[1], "$S1").Replace(strings.Join(res.Notes, "\n"))
			if tc.want == "" && strings.Contains(got, "another user") || !strings.Contains(got, tc.want) {
				t.Errorf("notes\n%s\nwant %q", got, tc.want)
			}
			if !res.Complete() || res.Cells != cells {
				t.Errorf("merged %d cells, complete %v", res.Cells, res.Complete())
			}
		})
	}
}
