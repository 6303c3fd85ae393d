package results

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestRemoveStaleOnlyOutputs: the outputs an earlier manifest lists and a
// run no longer writes are removed only when they are outputs: a table
// at the top, a figure or a predictions file; never a file no output
// could be (the user's notes, the manifest, a cell), never an input of
// the run, and never outside the directory. Campaign 5 case m02: an
// edited manifest made a resume delete the data and experiment files.
func TestRemoveStaleOnlyOutputs(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	files := []string{"adv.html", "plots/box.svg", "predictions/d.csv", "notes.txt", "manifest.json",
		"cells/0000-0123456789abcdef.json", "shards/0-of-2.json", "superseded/T/adv.md", "data.csv", "exp.hcl", "kept.md"}
	for _, f := range append(slices.Clone(files), "../victim.md") {
		p := filepath.Join(out, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	previous := map[string]string{}
	for _, f := range append(slices.Clone(files), "../victim.md") {
		previous[f] = filepath.Join(out, f)
	}
	inputs := []Input{{Path: filepath.Join(out, "data.csv")}, {Path: filepath.Join(out, "exp.hcl")}}
	root, err := os.OpenRoot(out)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	removeStale(root, out, previous, map[string]string{"kept.md": ""}, inputs)
	for _, tc := range []struct {
		name string
		gone bool
	}{
		{"adv.html", true}, {"plots/box.svg", true}, {"predictions/d.csv", true},
		{"notes.txt", false}, {"manifest.json", false}, {"cells/0000-0123456789abcdef.json", false},
		{"shards/0-of-2.json", false}, {"superseded/T/adv.md", false},
		{"data.csv", false}, {"exp.hcl", false}, {"kept.md", false}, {"../victim.md", false},
	} {
		_, err := os.Stat(filepath.Join(out, tc.name))
		if gone := os.IsNotExist(err); gone != tc.gone {
			t.Errorf("%s: removed %v, want %v", tc.name, gone, tc.gone)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "plots")); !os.IsNotExist(err) {
		t.Errorf("plots/, left empty, is still there (%v)", err)
	}
}
