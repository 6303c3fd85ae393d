package main

import (
	"context"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"testing"
	"time"
)

// TestPprofTop: pprofTop runs `go tool pprof -top` on the CPU profile of
// the named process in a directory and drops the lines that change from
// run to run (build ID, date), keeping the table; a directory without
// the profile is an error that names the process.
func TestPprofTop(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "bench-42.cpu.pprof"))
	if err != nil {
		t.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		t.Fatal(err)
	}
	x := 0.0
	for start := time.Now(); time.Since(start) < 200*time.Millisecond; {
		x += 1e-9
	}
	pprof.StopCPUProfile()
	f.Close()
	top, err := pprofTop(context.Background(), dir, "bench")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Type: cpu", "flat  flat%   sum%        cum   cum%"} {
		if !strings.Contains(top, want) {
			t.Errorf("pprofTop lacks %q:\n%s", want, top)
		}
	}
	for _, gone := range []string{"Build ID:", "Time:"} {
		if strings.Contains(top, gone) {
			t.Errorf("pprofTop keeps %q:\n%s", gone, top)
		}
	}
	if _, err := pprofTop(context.Background(), dir, "svm"); err == nil || !strings.Contains(err.Error(), "no CPU profile of svm") {
		t.Errorf("no svm profile: error %v", err)
	}
	_ = x
}
