package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFinishCountsCellsOnDisk: cell files removed during a run (and the
// run log) are noticed when it finishes: the manifest counts the cells on
// disk and is not complete, the tables say they are partial, Finish's
// error names the lost cells and what to do, and the notes say the log is
// gone. A whole run and a shard alike.
func TestFinishCountsCellsOnDisk(t *testing.T) {
	for _, tc := range []struct {
		name      string
		shard     *Shard
		finish    []int
		remove    []int
		finished  int
		lostCells string
	}{
		{name: "whole run", finish: []int{0, 1, 2, 3}, remove: []int{0, 2}, finished: 2, lostCells: "(cell 0, 2)"},
		{name: "one removed", finish: []int{0, 1, 2, 3}, remove: []int{3}, finished: 3, lostCells: "(cell 3)"},
		{name: "shard", shard: shardOf(0, 2, 4), finish: []int{0, 2}, remove: []int{2}, finished: 1, lostCells: "(cell 2)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var notes strings.Builder
			r := begin(t, dir, "exp", 4, Options{Render: fakeRender, Notes: &notes, Shard: tc.shard})
			finishCells(t, r, tc.finish...)
			for _, i := range tc.remove {
				if err := os.Remove(filepath.Join(dir, CellsDir, CellFileName(i, digest(i)))); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Remove(r.LogPath()); err != nil {
				t.Fatal(err)
			}
			_, err := r.Finish(StatusComplete, 0)
			want := "cell file(s) of this run were removed from " + filepath.Join(dir, CellsDir) + " during the run " + tc.lostCells +
				": they are left out of the tables and the manifest, which count only the cells on disk; run the same command again to compute them"
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("Finish error %v\nwant one containing %s", err, want)
			}
			if !strings.Contains(notes.String(), "bench: warning: "+r.LogPath()+" was removed during the run") {
				t.Errorf("notes lack the removed log:\n%s", notes.String())
			}
			var m *Manifest
			if tc.shard != nil {
				var ms []*Manifest
				ms, err = readShardManifests(dir)
				if len(ms) == 1 {
					m = ms[0]
				}
			} else {
				m, err = ReadManifest(dir)
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.Status != StatusInterrupted || m.Finished != tc.finished {
				t.Errorf("manifest status %s, finished %d; want interrupted, %d", m.Status, m.Finished, tc.finished)
			}
			if tc.shard != nil {
				return
			}
			b, err := os.ReadFile(filepath.Join(dir, "exp.md"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), "partial: ") || strings.Count(string(b), "\ncell ") != tc.finished {
				t.Errorf("tables:\n%s", b)
			}
		})
	}
}

// TestFinishWholeWhenNothingRemoved: a run whose cell files are all there
// finishes complete, without an error or a note.
func TestFinishWholeWhenNothingRemoved(t *testing.T) {
	dir := t.TempDir()
	var notes strings.Builder
	r := begin(t, dir, "exp", 3, Options{Render: fakeRender, Notes: &notes})
	finishCells(t, r, 0, 1, 2)
	if _, err := r.Finish(StatusComplete, 0); err != nil {
		t.Fatal(err)
	}
	m, err := ReadManifest(dir)
	if err != nil || m.Status != StatusComplete || m.Finished != 3 || notes.Len() != 0 {
		t.Errorf("manifest %+v, %v; notes %q", m, err, notes.String())
	}
}
