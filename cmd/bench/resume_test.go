package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// fileState is what tells a cell file apart from a rewrite of it.
type fileState struct {
	content string
	mtime   time.Time
	inode   uint64
}

// cellFiles returns the state of every cell file of a results directory.
func cellFiles(t *testing.T, dir string) map[string]fileState {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "cells", "*.json"))
	out := map[string]fileState{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(n)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(n)] = fileState{string(b), fi.ModTime(), fi.Sys().(*syscall.Stat_t).Ino}
	}
	return out
}

// runBin runs the bench binary bin with the test plugins, quietly.
func runBin(bin string, args ...string) (string, string, error) {
	full := []string{args[0]}
	if c, ok := lookupCommand(args[0]); ok && slices.Contains(c.flags, "plugins") {
		full = append(full, "--plugins", pluginsDir)
	}
	cmd := exec.Command(bin, append(append(full, "--quiet"), args[1:]...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.String(), stderr.String(), err
}

// buildBench returns the bench binary, built once by TestMain, for tests
// that run it as a process (to kill it, or to run several at once).
func buildBench(t *testing.T) string {
	t.Helper()
	if benchBinary == "" {
		t.Fatal("TestMain built no bench binary")
	}
	return benchBinary
}

// digits is the experiment file of digitsExperiment and the results
// directory of one uninterrupted run of it (bench run -j 2, as a process),
// made once for the tests that kill and resume runs of it and compare
// their tables with that run's.
var digits struct {
	once      sync.Once
	file, ref string
	err       error
}

// digitsReference returns the experiment file of digitsExperiment and the
// results of its uninterrupted run (see digits).
func digitsReference(t *testing.T) (file, ref string) {
	t.Helper()
	src := experimentSource(t, digitsExperiment)
	digits.once.Do(func() {
		dir := filepath.Join(pluginsDir, "digits-reference")
		digits.file, digits.ref = filepath.Join(dir, "digits.hcl"), filepath.Join(dir, "results")
		if digits.err = os.MkdirAll(dir, 0o755); digits.err != nil {
			return
		}
		if digits.err = os.WriteFile(digits.file, []byte(src), 0o644); digits.err != nil {
			return
		}
		cmd := exec.Command(benchBinary, "run", "--plugins", pluginsDir, "--quiet", "-j", "2", "-o", digits.ref, digits.file)
		cmd.Env = shardlessEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			digits.err = fmt.Errorf("uninterrupted run: %w\n%s", err, out)
		}
	})
	if digits.err != nil {
		t.Fatal(digits.err)
	}
	return digits.file, digits.ref
}

const digitsExperiment = `experiment "digits" { seed = 4 }
dataset "digits" { path = "%DATA%/digits.csv" }
learner "logreg" { params = { C = [0.1, 1, 10] } }
learner "svm" { params = { C = [0.1, 1] } }
reduction "ova" {}
cv { folds = 3 }
metrics = ["accuracy", "macro_f1", "kappa"]
output { formats = ["markdown", "csv", "json"] }
`

// TestKilledRunResumes: bench run on digits (5 cells, 15 folds) is killed
// with SIGKILL at several points — before any cell finished, then after
// more and more cells — and run again each time. No finished cell is lost
// or computed again (every cell file, once written, keeps its content,
// modification time and inode through every later run), the last run
// computes only the missing cells, and the tables are byte-identical to
// those of an uninterrupted run.
func TestKilledRunResumes(t *testing.T) {
	t.Parallel() // its waits overlap the other parallel tests' (see main_test.go)
	bin := buildBench(t)
	file, ref := digitsReference(t)
	const cells = 5

	out := t.TempDir()
	seen := map[string]fileState{}
	check := func(when string) {
		now := cellFiles(t, out)
		for name, was := range seen {
			is, ok := now[name]
			switch {
			case !ok:
				t.Errorf("%s: finished cell %s lost", when, name)
			case is != was:
				t.Errorf("%s: finished cell %s written again", when, name)
			}
		}
		for name, st := range now {
			seen[name] = st
		}
	}
	// Kill points: once the manifest exists (no cell yet), then after at
	// least 1, 2 and 4 cell files.
	kills := 0
	for _, point := range []int{0, 1, 2, 4} {
		cmd := exec.Command(bin, "run", "--plugins", pluginsDir, "--quiet", "-j", "2", "-o", out, file)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		reached := waitFor(60*time.Second, func() bool {
			if point == 0 {
				_, err := os.Stat(filepath.Join(out, "manifest.json"))
				return err == nil
			}
			return len(cellFiles(t, out)) >= point
		})
		select {
		case err := <-exited:
			t.Logf("kill point %d: bench ended first (%v)\n%s", point, err, stderr.String())
		default:
			if !reached {
				t.Fatalf("kill point %d never reached\n%s", point, stderr.String())
			}
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			<-exited
			kills++
			n := len(cellFiles(t, out))
			t.Logf("killed at point %d with %d cell files", point, n)
			if point == 2 && n < cells {
				// The tables of what survived say they are partial, and
				// the run that stopped without finishing interrupted.
				if _, stderr, err := runBin(bin, "table", out); err != nil {
					t.Fatalf("bench table after the kill: %v\n%s", err, stderr)
				}
				want := fmt.Sprintf("> **Partial results:** %d of %d cells finished (run status: interrupted).", n, cells)
				if md := readFile(t, filepath.Join(out, "digits.md")); !strings.Contains(md, want) {
					t.Errorf("digits.md after the kill lacks %q:\n%s", want, md)
				}
			}
		}
		check(fmt.Sprintf("after the kill at point %d", point))
	}
	if kills < 3 {
		t.Errorf("only %d of 4 runs were killed before they ended", kills)
	}
	before := len(seen)
	if before == cells {
		t.Logf("every cell finished before the last kill")
	}
	stdout, stderr, err := runBin(bin, "run", "-j", "2", "-o", out, file)
	if err != nil {
		t.Fatalf("resumed run: %v\n%s", err, stderr)
	}
	check("after the resumed run")
	if want := "kept from an earlier run"; before > 0 && !strings.Contains(stdout, want) {
		t.Errorf("stdout lacks %q:\n%s", want, stdout)
	}
	if len(seen) != cells {
		t.Errorf("%d cell files, want %d", len(seen), cells)
	}
	// The last run computed exactly the cells that had no file.
	log := readFile(t, filepath.Join(out, "run.log"))
	sections := strings.Split(log, "=== ")
	last := sections[len(sections)-2]
	if want := fmt.Sprintf("(%d kept), %d folds to run", before, 3*(cells-before)); !strings.Contains(last, want) {
		t.Errorf("last run: want %q in:\n%s", want, last)
	}
	for _, f := range []string{"summary.csv", "folds.csv", "digits.md", "digits.json"} {
		if a, b := readFile(t, filepath.Join(ref, f)), readFile(t, filepath.Join(out, f)); a != b {
			t.Errorf("%s differs from the uninterrupted run's:\n%s\n---\n%s", f, b, a)
		}
	}
}
