package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// proc is one line of /proc/PID/stat: the fields this file needs.
type proc struct {
	pid, ppid int
	comm      string
	state     byte
}

// processes lists the processes of the machine from /proc.
func processes(t *testing.T) []proc {
	t.Helper()
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		t.Fatal(err)
	}
	var out []proc
	for _, s := range stats {
		b, err := os.ReadFile(s)
		if err != nil {
			continue // ended meanwhile
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses.
		open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
		if open < 0 || end < open {
			continue
		}
		f := strings.Fields(string(b[end+1:]))
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b[:open])))
		ppid, _ := strconv.Atoi(f[1])
		out = append(out, proc{pid: pid, ppid: ppid, comm: string(b[open+1 : end]), state: f[0][0]})
	}
	return out
}

// children returns the live plugin processes whose parent is pid.
func children(t *testing.T, pid int) []proc {
	var out []proc
	for _, p := range processes(t) {
		if p.ppid == pid && p.state != 'Z' && strings.HasPrefix(p.comm, "bench-plugin") {
			out = append(out, p)
		}
	}
	return out
}

// alive reports which of ps still run (neither gone nor a zombie).
func alive(t *testing.T, ps []proc) []proc {
	live := map[int]bool{}
	for _, p := range processes(t) {
		if p.state != 'Z' {
			live[p.pid] = true
		}
	}
	var out []proc
	for _, p := range ps {
		if live[p.pid] {
			out = append(out, p)
		}
	}
	return out
}

// waitFor polls cond every 20 ms for up to limit.
func waitFor(limit time.Duration, cond func() bool) bool {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

const stoppedExperiment = `experiment "stopped" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" {}
learner "stopped" {
  plugin = "hang"
  params = { stop = true }
}
reduction "ova" {}
cv {
  folds   = 3
  timeout = TIMEOUT
}
`

// TestStoppedPluginFailsOnlyItsCell: a plugin process that stops answering
// every call, its graceful shutdown included (SIGSTOP), fails its cell
// after the fold timeout; the other cell finishes and bench returns.
func TestStoppedPluginFailsOnlyItsCell(t *testing.T) {
	file := writeExperiment(t, strings.Replace(stoppedExperiment, "TIMEOUT", "2", 1))
	out := t.TempDir()
	_, stderr, err := bench(t, "run", "-j", "2", "-o", out, file)
	if err == nil || !strings.Contains(err.Error(), "1 of 2 cells failed") {
		t.Fatalf("error %v, want 1 of 2 cells failed\n%s", err, stderr)
	}
	cells := readCells(t, out)
	if c := cells["iris|logreg|ova"]; c == nil || c.Failed() || len(c.Folds) != 3 {
		t.Errorf("logreg cell: %+v", c)
	}
	if c := cells["iris|stopped|ova"]; c == nil || !strings.Contains(c.Error, "did not answer within the fold's timeout") {
		t.Errorf("stopped cell: %+v", c)
	}
	if left := children(t, os.Getpid()); len(left) > 0 {
		t.Errorf("plugin processes left after the run: %+v", left)
	}
}

// TestInterruptReturnsWithStoppedPlugin: with no fold timeout, a stopped
// plugin would hold the run forever; cancelling it (Ctrl-C) returns within
// 5 s and leaves no plugin process.
func TestInterruptReturnsWithStoppedPlugin(t *testing.T) {
	file := writeExperiment(t, strings.Replace(stoppedExperiment, "TIMEOUT", "0", 1))
	ctx, cancel := context.WithCancel(commandContext(t))
	defer cancel()
	done := make(chan error, 1)
	var stdout, stderr bytes.Buffer
	go func() {
		done <- run(ctx, []string{"run", "--plugins", pluginsDir, "--quiet", "-j", "2", "-o", t.TempDir(), file}, &stdout, &stderr)
	}()
	stopped := waitFor(30*time.Second, func() bool {
		for _, p := range children(t, os.Getpid()) {
			if p.state == 'T' {
				return true
			}
		}
		return false
	})
	if !stopped {
		cancel()
		<-done
		t.Fatalf("the hang plugin never stopped itself\n%s", stderr.String())
	}
	cancel()
	start := time.Now()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "interrupted") {
			t.Errorf("error %v, want an interrupted run", err)
		}
		t.Logf("returned %v after the interruption", time.Since(start).Round(time.Millisecond))
	case <-time.After(5 * time.Second):
		t.Fatal("run did not return within 5 s of the interruption")
	}
	if left := children(t, os.Getpid()); len(left) > 0 {
		t.Errorf("plugin processes left after the run: %+v", left)
	}
}

// hangingExperiment runs logreg and the hang plugin, stuck in Fit with no
// fold timeout: a run that is under way until something stops it.
const hangingExperiment = `experiment "hanging" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" {}
learner "hang" {}
reduction "ova" {}
cv {
  folds   = 3
  timeout = 0
}
`

// TestKilledBenchLeavesNoPlugins: kill -9 of a running bench leaves no
// plugin process alive 2 s later.
func TestKilledBenchLeavesNoPlugins(t *testing.T) {
	t.Parallel() // its waits overlap the other parallel tests' (see main_test.go)
	bin := buildBench(t)
	file := writeExperiment(t, hangingExperiment)
	cmd := exec.Command(bin, "run", "--plugins", pluginsDir, "--quiet", "-o", t.TempDir(), file)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var plugins []proc
	// logreg, hang and reducers, with hang stuck in Fit.
	if !waitFor(30*time.Second, func() bool { plugins = children(t, cmd.Process.Pid); return len(plugins) >= 3 }) {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("bench started %d plugin processes, want 3", len(plugins))
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if !waitFor(2*time.Second, func() bool { return len(alive(t, plugins)) == 0 }) {
		left := alive(t, plugins)
		for _, p := range left {
			_ = syscall.Kill(p.pid, syscall.SIGKILL)
		}
		t.Fatalf("plugin processes alive 2 s after kill -9 of bench: %+v", left)
	}
}

// TestBinaryRunSurvivesPluginCrash: the bench binary (with its signal
// handling, which run() in-process lacks) keeps running when a plugin
// crashes mid-call. gRPC's write to the dead plugin's connection raises
// SIGPIPE, which once stopped the whole run as an interrupt; now only the
// crashed cell fails and the others are written.
func TestBinaryRunSurvivesPluginCrash(t *testing.T) {
	t.Parallel() // its waits overlap the other parallel tests' (see main_test.go)
	bin := buildBench(t)
	file := writeExperiment(t, `experiment "crashed" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
encoder "std" { type = "standardize" }
learner "logreg" {}
learner "crash" {}
learner "crash_ok" {
  plugin = "crash"
  params = { crash = false }
}
reduction "ova" { scheme = "ova" }
cv { folds = 3 }
`)
	out := t.TempDir()
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "run", "--plugins", pluginsDir, "--quiet", "-o", out, file)
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("exit %v, want status 1 (a failed cell)\n%s", err, stderr.String())
	}
	if strings.Contains(stderr.String(), "interrupted") || !strings.Contains(stderr.String(), "1 of 3 cells failed") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	cells := readCells(t, out)
	for key, failed := range map[string]bool{"iris|logreg|ova": false, "iris|crash|ova": true, "iris|crash_ok|ova": false} {
		if c := cells[key]; c == nil || c.Failed() != failed {
			t.Errorf("cell %s: %+v, want failed %v", key, c, failed)
		}
	}
}

// TestBinaryInterruptExitStatus: the bench binary stopped by a signal
// exits as a shell expects (128 + the signal: 130 for Ctrl-C, 143 for
// SIGTERM), names the signal and says that running again resumes.
func TestBinaryInterruptExitStatus(t *testing.T) {
	t.Parallel() // its waits overlap the other parallel tests' (see main_test.go)
	bin := buildBench(t)
	file := writeExperiment(t, hangingExperiment)
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
		name string
	}{{syscall.SIGINT, 130, "interrupted (SIGINT, Ctrl-C)"}, {syscall.SIGTERM, 143, "interrupted (SIGTERM)"}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			var stderr bytes.Buffer
			out := t.TempDir()
			cmd := exec.Command(bin, "run", "--plugins", pluginsDir, "--quiet", "-o", out, file)
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// The folds under way (the run log's "bench run" line comes
			// just before them; the plugins start earlier, while the file
			// is resolved), hang stuck in Fit.
			if !waitFor(30*time.Second, func() bool {
				b, _ := os.ReadFile(filepath.Join(out, "run.log"))
				return strings.Contains(string(b), "bench run ") && len(children(t, cmd.Process.Pid)) >= 3
			}) {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
				t.Fatalf("the run never got going\n%s", stderr.String())
			}
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != tc.code {
				t.Errorf("exit %v, want status %d", err, tc.code)
			}
			for _, want := range []string{tc.name, "run the same command again to resume"} {
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
				}
			}
			if strings.Contains(stderr.String(), "context canceled") {
				t.Errorf("stderr speaks of a context:\n%s", stderr.String())
			}
		})
	}
}

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
		// The run has started once its manifest is written (after
		// validation, which talks to the plugins with no fold timeout):
		// stopping the victim before that tested validation, not the
		// folds, and on a loaded machine 300 ms after the victim started
		// could still be before it.
		if _, err := os.Stat(filepath.Join(out, "manifest.json")); err != nil {
			continue
		}
		for _, p := range children(t, os.Getpid()) {
			if p.comm == victimComm {
				time.Sleep(300 * time.Millisecond) // some folds done, others in flight
				stopped = syscall.Kill(p.pid, syscall.SIGSTOP) == nil
			}
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

// victimComm is the process name of bench-plugin-victim: /proc truncates
// it to 15 bytes.
const victimComm = "bench-plugin-vi"
