package results

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestRemoveStaleOnlyOutputs: the outputs an earlier manifest lists and a
// run no longer writes are moved to superseded/ (never deleted) only when
// a run of the experiment writes such a file: one of its tables at the
// top, a figure or a predictions file; never another name the manifest
// lists (the user's notes.md, another experiment's other.md, the
// manifest, a cell), never an input of the run, never outside the
// directory, never through a link. Campaign 5 case m02: an edited
// manifest made a resume delete the data and experiment files; campaign
// 6 case A07: one listing notes.md made a run with changed folds delete
// it.
func TestRemoveStaleOnlyOutputs(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	files := []string{"adv.html", "summary.csv", "plots/box.svg", "predictions/d.csv", "notes.md", "other.md", "notes.txt", "manifest.json", "run.log",
		"cells/0000-0123456789abcdef.json", "shards/0-of-2.json", "superseded/T/adv.md", "d.csv", "exp.hcl", "kept.md", "desc"}
	for _, f := range append(slices.Clone(files), "../victim.md", "../elsewhere/x.svg") {
		p := filepath.Join(out, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "elsewhere"), filepath.Join(out, "predictions", "linked")); err != nil {
		t.Fatal(err)
	}
	previous := map[string]string{}
	for _, f := range append(slices.Clone(files), "../victim.md", "predictions/linked/x.svg") {
		previous[f] = filepath.Join(out, f)
	}
	inputs := []Input{{Path: filepath.Join(out, "d.csv")}, {Path: filepath.Join(out, "exp.hcl")}}
	root, err := os.OpenRoot(out)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	aside := newSetup(out, func() time.Time { return time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC) }, nil)
	removeStale(root, out, "adv", previous, map[string]string{"kept.md": ""}, inputs, aside)
	const stamp = "superseded/20261128T120000.000000000Z/"
	for _, tc := range []struct {
		name  string
		moved bool
	}{
		{"adv.html", true}, {"summary.csv", true}, {"plots/box.svg", true}, {"predictions/d.csv", true},
		{"notes.md", false}, {"other.md", false}, {"notes.txt", false}, {"manifest.json", false}, {"run.log", false},
		{"cells/0000-0123456789abcdef.json", false}, {"shards/0-of-2.json", false}, {"superseded/T/adv.md", false},
		{"d.csv", false}, {"exp.hcl", false}, {"kept.md", false}, {"desc", false}, {"../victim.md", false}, {"../elsewhere/x.svg", false},
	} {
		b, err := os.ReadFile(filepath.Join(out, tc.name))
		if gone := os.IsNotExist(err); gone != tc.moved || (!gone && string(b) != tc.name) {
			t.Errorf("%s: gone %v (%q, %v), want gone %v", tc.name, gone, b, err, tc.moved)
		}
		if !tc.moved {
			continue
		}
		if b, err := os.ReadFile(filepath.Join(out, stamp+tc.name)); err != nil || string(b) != tc.name {
			t.Errorf("%s: not moved whole to %s: %q, %v", tc.name, stamp, b, err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "plots")); !os.IsNotExist(err) {
		t.Errorf("plots/, left empty, is still there (%v)", err)
	}
	if want := "moved adv.html aside to " + stamp + "adv.html: an earlier run wrote it and this run does not"; len(aside.notes) != 4 || aside.notes[0] != want {
		t.Errorf("notes %q, want 4, the first %q", aside.notes, want)
	}
}
