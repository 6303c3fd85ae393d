package sklearn_test

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestBuildIsReproducible: build.py makes the same archive, byte for byte,
// from two copies of the sources that differ in everything a checkout
// varies (modification times, permission bits, the order the files were
// created in), and its entries carry a fixed date, not the build's.
func TestBuildIsReproducible(t *testing.T) {
	if _, err := os.Stat(python); err != nil {
		t.Skipf("build.py runs under %s: %v", python, err)
	}
	var sources []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(path) == ".py" && filepath.Base(filepath.Dir(path)) != "__pycache__" {
			sources = append(sources, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	build := func(order []string, mtime time.Time, mode os.FileMode) []byte {
		src := t.TempDir()
		for _, p := range order {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			to := filepath.Join(src, p)
			if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(to, b, mode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(to, mtime, mtime); err != nil {
				t.Fatal(err)
			}
		}
		out := filepath.Join(t.TempDir(), "bench-plugin-sklearn")
		if b, err := exec.Command(python, "build.py", out, src).CombinedOutput(); err != nil {
			t.Fatalf("build.py: %v\n%s", err, b)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a := build(sources, time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC), 0o644)
	reversed := slices.Clone(sources)
	slices.Reverse(reversed)
	b := build(reversed, time.Now(), 0o600)
	if !bytes.Equal(a, b) {
		t.Fatalf("two builds of the same sources differ (%d and %d bytes)", len(a), len(b))
	}
	if !bytes.HasPrefix(a, []byte("#!/usr/bin/python3\n")) {
		t.Fatalf("no shebang line: %q", a[:min(len(a), 40)])
	}
	z, err := zip.NewReader(bytes.NewReader(a), int64(len(a)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range z.File {
		names = append(names, f.Name)
		if y := f.Modified.Year(); y != 1980 {
			t.Errorf("%s dated %v, want 1980-01-01", f.Name, f.Modified)
		}
	}
	if !slices.IsSorted(names[1:]) || names[0] != "__main__.py" || !slices.Contains(names, "sklearn_bridge.py") {
		t.Errorf("entries %v: want __main__.py, then the sources sorted", names)
	}
}
