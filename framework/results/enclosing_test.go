package results

import (
	"os"
	"path/filepath"
	"testing"
)

// TestInside: a path is inside a directory when it is the directory or
// lies below it, by their absolute cleaned forms; a sibling whose name
// starts with the directory's is not.
func TestInside(t *testing.T) {
	for _, c := range []struct {
		path, dir string
		want      bool
	}{
		{"/r/out", "/r/out", true},
		{"/r/out/cells", "/r/out", true},
		{"/r/out/../out/p", "/r/out", true},
		{"/r/outside", "/r/out", false},
		{"/r", "/r/out", false},
		{"/r/out/..x", "/r/out", true},
	} {
		if got := Inside(c.path, c.dir); got != c.want {
			t.Errorf("Inside(%q, %q) = %v, want %v", c.path, c.dir, got, c.want)
		}
	}
}

// TestEnclosing: the nearest directory at or above a path with a
// manifest bench reads; none for a directory with a manifest.json that is
// not bench's.
func TestEnclosing(t *testing.T) {
	root := t.TempDir()
	run := filepath.Join(root, "run")
	if err := os.MkdirAll(filepath.Join(run, "cells"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ManifestFile), []byte("not a manifest"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Enclosing(filepath.Join(run, "cells", "p")); got != "" {
		t.Errorf("Enclosing without a bench manifest = %q, want none", got)
	}
	root2, err := os.OpenRoot(run)
	if err != nil {
		t.Fatal(err)
	}
	defer root2.Close()
	if err := writeManifest(root2, run, &Manifest{Experiment: "e"}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{run, filepath.Join(run, "cells"), filepath.Join(run, "cells", "p", "q")} {
		if got := Enclosing(p); got != run {
			t.Errorf("Enclosing(%q) = %q, want %q", p, got, run)
		}
	}
	if got := Enclosing(root); got != "" {
		t.Errorf("Enclosing(%q) = %q, want none (its manifest.json is not bench's)", root, got)
	}
}
