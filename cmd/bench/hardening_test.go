package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hugePlugins returns a plugins directory holding bench-plugin-huge, a
// sparse 64 GiB file: bench reads all of it for its SHA-256 before
// starting it, a read no context interrupts (as on a slow network file
// system), which keeps bench busy for a minute or more.
func hugePlugins(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	f, err := os.OpenFile(filepath.Join(dir, "bench-plugin-huge"), os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(64 << 30); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestBinarySecondSignalExitsAtOnce: bench started with SIGINT ignored
// (as a shell starts a background job) and busy where an interruption
// cannot reach (reading a huge plugin binary for its digest): the first
// SIGINT asks it to stop, the second ends it at once with status 130.
// Before, stopping the signal's handling after the first restored the
// inherited "ignore", and bench went on.
func TestBinarySecondSignalExitsAtOnce(t *testing.T) {
	bin := buildBench(t)
	file := writeExperiment(t, `experiment "huge" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "huge" {}
reduction "ova" {}
`)
	var stderr bytes.Buffer
	cmd := exec.Command("/bin/sh", "-c", `trap "" INT; exec "$0" "$@"`, bin, "validate", "--plugins", hugePlugins(t), file)
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+t.TempDir())
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill() //nolint:errcheck // ended already when the test passes
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	time.Sleep(time.Second) // reading the plugin by now
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		t.Fatalf("bench ended on the first SIGINT (%v): the test needs it busy\n%s", err, stderr.String())
	case <-time.After(500 * time.Millisecond):
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 130 {
			t.Errorf("exit %v, want status 130", err)
		}
		t.Logf("exited %v after the second SIGINT", time.Since(start).Round(time.Millisecond))
	case <-time.After(5 * time.Second):
		t.Fatalf("bench still runs 5 s after a second SIGINT\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), "exiting now") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
}

// TestValidateRefusesFIFOs: a named pipe given as the experiment file, a
// dataset's path or test_path, or a folds file is refused at once with an
// error naming it and, in the experiment file, the attribute's line and
// column. Before, bench blocked forever opening the pipe.
func TestValidateRefusesFIFOs(t *testing.T) {
	repo, _ := filepath.Abs("../..")
	iris := filepath.Join(repo, "experiments/data/iris.csv")
	for _, tc := range []struct {
		name, src, want string
	}{
		{"path", `dataset "d" { path = "PIPE" }`, `exp.hcl:2:22: error: Cannot load dataset|Dataset "d": data: open PIPE: is a named pipe (FIFO), not a regular file`},
		{"test_path", `dataset "d" {
  path      = "IRIS"
  test_path = "PIPE"
}`, `exp.hcl:4:15: error: Cannot load test file|Dataset "d": data: open PIPE: is a named pipe (FIFO), not a regular file`},
		{"folds_file", `dataset "d" {
  path       = "IRIS"
  folds_file = "PIPE"
}`, `exp.hcl:4:16: error: Cannot read folds file|folds file: open PIPE: is a named pipe (FIFO), not a regular file`},
		{"experiment", "", `error: Cannot read experiment file|The experiment file "PIPE" cannot be read: is a named pipe (FIFO), not a regular file`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			fifo := filepath.Join(dir, "pipe.csv")
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, "exp.hcl")
			src := `experiment "fifo" { seed = 1 }
` + tc.src + `
learner "lda" {}
reduction "ova" {}
`
			src = strings.NewReplacer("PIPE", fifo, "IRIS", iris).Replace(src)
			if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.name == "experiment" {
				file = fifo
			}
			type result struct {
				stderr string
				err    error
			}
			done := make(chan result, 1)
			go func() {
				_, stderr, err := bench(t, "validate", file)
				done <- result{stderr, err}
			}()
			var r result
			select {
			case r = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("bench validate blocks on a named pipe")
			}
			if r.err == nil {
				t.Fatalf("validate passes:\n%s", r.stderr)
			}
			flat := strings.Join(strings.Fields(r.stderr), " ")
			for _, want := range strings.Split(strings.NewReplacer("PIPE", fifo, "exp.hcl", file).Replace(tc.want), "|") {
				if !strings.Contains(flat, want) {
					t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
				}
			}
		})
	}
}

// TestBinaryInterruptWithStoppedPluginsExitsWithin2s: Ctrl-C to a run
// whose plugin process is stopped (SIGSTOP: it answers nothing, its
// graceful shutdown included) ends bench within 2 s, with status 130 and
// no plugin process left. Before, each stopped plugin cost the graceful
// shutdown's 2 s, then the kill's, then go-plugin's own: 12 s.
func TestBinaryInterruptWithStoppedPluginsExitsWithin2s(t *testing.T) {
	bin := buildBench(t)
	file := writeExperiment(t, strings.Replace(stoppedExperiment, "TIMEOUT", "0", 1))
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "run", "--plugins", pluginsDir, "--quiet", "-j", "2", "-o", t.TempDir(), file)
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill() //nolint:errcheck // ended already when the test passes
	var plugins []proc
	if !waitFor(30*time.Second, func() bool {
		plugins = children(t, cmd.Process.Pid)
		for _, p := range plugins {
			if p.state == 'T' {
				return true
			}
		}
		return false
	}) {
		t.Fatalf("the hang plugin never stopped itself\n%s", stderr.String())
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		took := time.Since(start)
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 130 {
			t.Errorf("exit %v, want status 130\n%s", err, stderr.String())
		}
		t.Logf("exited %v after SIGINT", took.Round(time.Millisecond))
		if took > 2*time.Second {
			t.Errorf("bench took %v to exit after SIGINT, want at most 2 s", took.Round(time.Millisecond))
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("bench still runs 15 s after SIGINT\n%s", stderr.String())
	}
	if !waitFor(time.Second, func() bool { return len(alive(t, plugins)) == 0 }) {
		t.Errorf("plugin processes left: %+v", alive(t, plugins))
	}
}

// socketFiles returns the unix sockets under dir, however deep.
func socketFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error { //nolint:errcheck // a vanished entry is not a socket
		if err == nil && d.Type()&os.ModeSocket != 0 {
			out = append(out, path)
		}
		return nil
	})
	return out
}

// TestKilledBenchSocketsRemovedByNextRun: the plugins' unix sockets live
// in a directory of the run's own under the temporary directory; kill -9
// of bench leaves it (with the sockets of the plugins it killed), and the
// next bench that starts plugins removes it; a run that ends normally
// leaves nothing. Before, every killed run left its sockets in /tmp.
func TestKilledBenchSocketsRemovedByNextRun(t *testing.T) {
	bin := buildBench(t)
	// Short: a unix socket's path holds at most 107 bytes.
	tmp, err := os.MkdirTemp("", "sk")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	env := append(os.Environ(), "TMPDIR="+tmp)
	file := writeExperiment(t, hangingExperiment)
	cmd := exec.Command(bin, "run", "--plugins", pluginsDir, "--quiet", "-o", t.TempDir(), file)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if !waitFor(30*time.Second, func() bool { return len(socketFiles(t, tmp)) >= 3 }) {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		out, _ := exec.Command("find", tmp).CombinedOutput()
		t.Fatalf("the run made %d sockets, want 3 (logreg, hang, reducers)\n%s\n%s", len(socketFiles(t, tmp)), out, stderr.String())
	}
	base := filepath.Join(tmp, "polyclass-sockets-"+strconv.Itoa(os.Getuid()))
	left, _ := filepath.Glob(filepath.Join(base, "run-*"))
	for _, s := range socketFiles(t, tmp) {
		if len(left) != 1 || filepath.Dir(s) != left[0] {
			t.Errorf("socket %s is not in the run's directory %v", s, left)
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if len(socketFiles(t, tmp)) == 0 {
		t.Fatal("kill -9 left no socket: nothing for the next run to remove")
	}
	next := exec.Command(bin, "validate", "--plugins", pluginsDir, writeExperiment(t, `experiment "next" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "lda" {}
reduction "ova" {}
`))
	next.Env = env
	if out, err := next.CombinedOutput(); err != nil {
		t.Fatalf("bench validate: %v\n%s", err, out)
	}
	if s := socketFiles(t, tmp); len(s) > 0 {
		t.Errorf("sockets left after the next run: %v", s)
	}
	if dirs, _ := filepath.Glob(filepath.Join(base, "run-*")); len(dirs) > 0 {
		t.Errorf("run directories left after the next run: %v", dirs)
	}
}

// TestShardHintQuotesPaths: the command bench run --shard prints for
// merging the shards quotes a results directory that the shell would
// split or expand, so that it can be pasted as it is: bash, running it
// in an empty directory, reads the directory once per argument and
// creates nothing.
func TestShardHintQuotesPaths(t *testing.T) {
	file := writeExperiment(t, `experiment "hint" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "lda" {}
reduction "ova" {}
cv { folds = 3 }
`)
	for _, name := range []string{"it's my results", "$(touch PWNED) #x", "a;b`touch PWNED`|c&d", "%x%% ${HOME} \\ *"} {
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), name)
			stdout, stderr, err := bench(t, "run", "--shard", "0/2", "-o", out, file)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			quoted := "'" + strings.ReplaceAll(out, "'", `'\''`) + "'"
			// The name shows no shard index: the hint for separate
			// directories has placeholders, the one for a shared
			// directory names it.
			if want := "  or, if every shard wrote into this directory: bench merge " + quoted + "\n"; !strings.Contains(stdout, want) {
				t.Errorf("stdout:\n%s\nwant %q", stdout, want)
			}
			// The line, pasted into a shell, names the directory as one
			// argument and runs nothing.
			line := stdout[strings.Index(stdout, "directory: bench merge "):]
			line = strings.TrimPrefix(line[:strings.IndexByte(line, '\n')], "directory: ")
			cmd := exec.Command("bash", "-c", `for a in `+strings.TrimPrefix(line, "bench merge ")+`; do echo "$a"; done`)
			cmd.Dir = t.TempDir()
			b, err := cmd.Output()
			if err != nil || string(b) != out+"\n" {
				t.Errorf("bash reads %q as %q (%v)", line, b, err)
			}
			if entries, _ := os.ReadDir(cmd.Dir); len(entries) > 0 {
				t.Errorf("pasting %q created %s", line, entries[0].Name())
			}
		})
	}
}

// TestFullDiskFromTheStartStops: with no room for a single cell file, the
// run stops at the first cell it cannot save, saying why, instead of
// computing every cell (and losing them all); its manifest and log are
// kept, and the run resumes once there is room.
func TestFullDiskFromTheStartStops(t *testing.T) {
	disk := mountTmpfs(t, "512k")
	out := filepath.Join(disk, "out")
	file := writeExperiment(t, `experiment "full" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" { params = { C = [0.01, 0.1, 1, 10, 100, 1000] } }
reduction "ova" {}
reduction "ovo" {}
cv { folds = 10 }
`)
	// Room for the manifest (about 26 kB: the set-up of its 12 rows) and
	// the run log, not for a cell file (about 11 kB with its curves).
	filler := fill(t, disk, 40<<10)
	stdout, stderr, err := bench(t, "run", "-j", "2", "-o", out, file)
	if err == nil || !strings.Contains(err.Error(), "could not be saved") || !strings.Contains(err.Error(), "no space left on device") {
		t.Fatalf("run on a full disk: error %v\n%s%s", err, stdout, stderr)
	}
	if !strings.Contains(stderr, "stopping the run") {
		t.Errorf("stderr does not say the run stops:\n%s", stderr)
	}
	var done, total int
	if _, serr := fmt.Sscanf(err.Error()[strings.Index(err.Error(), "run interrupted after "):], "run interrupted after %d of %d folds", &done, &total); serr != nil || total != 120 || done >= total {
		t.Errorf("the run went on: %v (%d of %d folds)", err, done, total)
	}
	t.Logf("stopped after %d of %d folds: %v", done, total, err)
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err = bench(t, "run", "-j", "2", "-o", out, file)
	if err != nil || !strings.Contains(stdout, "full: 12 cells (0 failed") {
		t.Errorf("the run again, with room: %v\n%s%s", err, stdout, stderr)
	}
}
