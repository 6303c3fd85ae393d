//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestRerunRefusesDirectoryInUse: while a bench run holds its results
// directory (its exclusive flock on DIR/.lock), bench rerun DIR is
// refused with bench table's error and writes nothing there (no
// DIR/rerun); once the run is gone the rerun goes ahead.
func TestRerunRefusesDirectoryInUse(t *testing.T) {
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, writeExperiment(t, rerunExperiment)); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	f, err := os.OpenFile(filepath.Join(out, ".lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	want := "results directory " + out + " is in use by another bench run"
	for _, cmd := range []string{"table", "rerun"} {
		if _, _, err := bench(t, cmd, out); errString(err) != want {
			t.Errorf("bench %s during a run: %v, want %q", cmd, err, want)
		}
	}
	if _, err := os.Lstat(filepath.Join(out, "rerun")); !os.IsNotExist(err) {
		t.Errorf("rerun refused, yet %s/rerun: %v", out, err)
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	if stdout, stderr, err := bench(t, "rerun", out); err != nil {
		t.Errorf("rerun after the run: %v\n%s%s", err, stdout, stderr)
	}
}
