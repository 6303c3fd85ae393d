package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// mountTmpfs mounts a tmpfs of the given size (as mount(8) reads it, "256k")
// on a temporary directory and unmounts it when the test ends; it skips
// the test, saying why, when this process may not mount (not root).
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("the full-disk test mounts a small tmpfs, which needs root: run make test as root")
	}
	dir := t.TempDir()
	if b, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("the full-disk test cannot mount a tmpfs (%v: %s): run make test as root outside a restricted container", err, bytes.TrimSpace(b))
	}
	t.Cleanup(func() {
		if b, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, b)
		}
	})
	return dir
}

// fill writes a filler file into dir until the file system is full, then
// shrinks it to leave free bytes.
func fill(t *testing.T, dir string, free int64) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 4096)
	var n int64
	for {
		m, err := f.Write(block)
		n += int64(m)
		if err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	if err := f.Truncate(max(n-free, 0)); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestFullDisk: a run whose disk fills up keeps every cell it could write,
// whole, and its manifest; once there is room again, bench table renders
// the tables from the surviving cells, saying they are partial.
func TestFullDisk(t *testing.T) {
	disk := mountTmpfs(t, "1m")
	out := filepath.Join(disk, "out")
	file := writeExperiment(t, `experiment "full" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" { params = { C = [0.01, 0.1, 1, 10, 100, 1000] } }
reduction "ova" {}
reduction "ovo" {}
cv { folds = 10 }
output { formats = ["markdown", "csv", "html", "json"] }
`)
	// Room for the manifest (27 kB: the set-up of its 12 rows, the
	// plugins' runtimes) and a few cells (11 kB each with their threshold
	// views), not for 12 cells and tables.
	filler := fill(t, disk, 100<<10)
	stdout, stderr, err := bench(t, "run", "-j", "2", "-o", out, file)
	if err == nil || !strings.Contains(err.Error(), "no space left on device") {
		t.Fatalf("run on a full disk: error %v\n%s%s", err, stdout, stderr)
	}
	m := readFile(t, filepath.Join(out, "manifest.json"))
	var man struct {
		Status string
		Cells  int
	}
	if err := json.Unmarshal([]byte(m), &man); err != nil || man.Cells != 12 {
		t.Fatalf("manifest after the full disk: %v\n%s", err, m)
	}
	kept := cellFiles(t, out)
	if len(kept) == 0 || len(kept) == 12 {
		t.Fatalf("%d cell files: the disk did not fill up in the middle of the run", len(kept))
	}
	t.Logf("full disk: %d of 12 cells saved, manifest status %q; %s", len(kept), man.Status, err)
	// Every file is whole: no truncated table or cell, no temporary file.
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if strings.HasPrefix(d.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", p)
		}
		return nil
	})
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err = bench(t, "table", out)
	if err != nil {
		t.Fatalf("bench table after the full disk: %v\n%s", err, stderr)
	}
	if !strings.Contains(stdout, fmt.Sprintf("full: %d cells", len(kept))) {
		t.Errorf("bench table: %s", stdout)
	}
	md := readFile(t, filepath.Join(out, "full.md"))
	if !strings.Contains(md, fmt.Sprintf("Partial results:** %d of 12 cells finished", len(kept))) {
		t.Errorf("tables without a partial header:\n%s", md)
	}
	summary := strings.Split(strings.TrimSpace(readFile(t, filepath.Join(out, "summary.csv"))), "\n")
	if len(summary) != 1+2*len(kept) {
		t.Errorf("summary.csv has %d lines for %d cells", len(summary), len(kept))
	}
	if after := cellFiles(t, out); len(after) != len(kept) {
		t.Errorf("cells before %d, after %d", len(kept), len(after))
	}
}
