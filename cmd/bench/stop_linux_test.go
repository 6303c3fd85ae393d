//go:build linux

package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStoppedPluginStallsNoOtherCell: a learner plugin process stopped
// from outside (kill -STOP: no call is ever answered, Forget included)
// costs only folds of its own, at cv.timeout; the lda cells run on.
// Before, forgetting a finished matrix waited on the stopped process
// while holding up every other worker, whose folds' timeouts ran in the
// queue: the healthy plugins running them were killed and their cells
// failed, or the run stalled for minutes.
func TestStoppedPluginStallsNoOtherCell(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "bench-plugin-victim")
	b, err := os.ReadFile(filepath.Join(pluginsDir, "bench-plugin-hang"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(victim, b, 0o755); err != nil {
		t.Fatal(err)
	}
	file := writeExperiment(t, `experiment "stopped" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
dataset "wine" { path = "%REPO%/experiments/data/wine.csv" }
dataset "vehicle" { path = "%REPO%/experiments/data/vehicle.csv" }
encoder "std" { type = "standardize" }
learner "victim" { params = { hang = false } }
learner "lda" {}
reduction "ova" { scheme = "ova" }
cv {
  folds   = 5
  repeats = 10
  timeout = 2
}
`)
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute) // a stall fails the test, not the suite
	defer cancel()
	done := make(chan error, 1)
	var stdout, stderr strings.Builder
	go func() {
		done <- run(ctx, []string{"run", "-j", "2", "--plugins", dir + string(os.PathListSeparator) + pluginsDir, "-o", out, file}, &stdout, &stderr)
	}()
	stopped := false
	for !stopped {
		select {
		case err := <-done:
			t.Fatalf("the run ended (%v) before the victim plugin was seen\n%s", err, stderr.String())
		case <-time.After(50 * time.Millisecond):
		}
		if pid := processOf(victim); pid > 0 {
			time.Sleep(300 * time.Millisecond) // some folds done, others in flight
			stopped = syscall.Kill(pid, syscall.SIGSTOP) == nil
		}
	}
	if err := <-done; ctx.Err() != nil {
		t.Fatalf("the run stalled: %v\n%s", err, stderr.String())
	}
	cells := readCells(t, out)
	if len(cells) != 6 {
		t.Fatalf("%d cells, want 6\n%s", len(cells), stderr.String())
	}
	for key, c := range cells {
		if strings.Contains(key, "|lda|") && c.Failed() {
			t.Errorf("cell %s failed with the victim's stop: %s", key, c.Error)
		}
		if c.Failed() && !strings.Contains(c.Error, "did not answer within the fold's timeout") {
			t.Errorf("cell %s: error %q, want the victim's timeout", key, c.Error)
		}
	}
}

// processOf returns the pid of a running process of the executable path,
// 0 when there is none.
func processOf(path string) int {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); err == nil && exe == path {
			return pid
		}
	}
	return 0
}
