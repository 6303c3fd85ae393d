package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyclass/polyclass/internal/refdata"
)

// pythonPath is the interpreter of the Python plugins: Debian's, whose
// packages (python3-sklearn, python3-grpcio) they import.
const pythonPath = "/usr/bin/python3"

// pluginsDir holds the real plugin binaries, built once for all tests, plus
// the crash and hang test plugins.
var pluginsDir string

// Tests that spend their time waiting — on plugin processes that crash,
// hang or are killed, on bench processes, on Chromium — call t.Parallel,
// so that their waits overlap. A test that looks for the plugin processes
// of this process (children(t, os.Getpid())) must not: a parallel test's
// plugins would be among them. Go starts the parallel tests only once
// every other test has ended.

// benchBinary is the bench command itself, built once with the plugins for
// the tests that run it as a process (buildBench).
var benchBinary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "bench-plugins-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pluginsDir = dir
	if err := buildPlugins(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	// The Python plugin is a zip archive run by Debian's python3.
	if out, err := exec.Command(pythonPath, "../../plugins/sklearn/build.py", filepath.Join(dir, "bench-plugin-sklearn")).CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the sklearn plugin: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	// The plugins' digest cache (os.UserCacheDir) of every run of the
	// tests goes into the temporary directory, not the user's. The go
	// commands the tests run keep the user's build cache, which the go
	// command would otherwise also look for under XDG_CACHE_HOME: an empty
	// one makes their first go build compile every dependency again.
	if err := pinGoCache(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	os.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	code := m.Run()
	closeBrowser()
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildPlugins builds the real plugins and the test plugins into dir,
// each as bench-plugin-NAME, and bench itself as dir/cmd/bench
// (benchBinary), in one go build, whose packages compile and link in
// parallel (TestMain took 9.2 s so, 23.2 s with one go build per plugin).
// The deliberately broken plugins of the conformance tests (one source
// under four names) go into dir/broken, the same source as the learner
// stuck in CheckParams into dir/hangcheck; the third-party reducer knobs
// into dir/third (its scheme ova would shadow the shipped one's in
// listings) and, as bench-plugin-notrowwise, whose decode is not
// row-wise as it claims, into dir/broken; the learner whose Fit never
// returns is dir/broken/bench-plugin-spinfit.
func buildPlugins(dir string) error {
	mains, _ := filepath.Glob("../../plugins/*/main.go")
	mains = append(mains, "testdata/plugins/crash/main.go", "testdata/plugins/hang/main.go", "testdata/plugins/centroid/main.go", "testdata/plugins/memorise/main.go",
		"testdata/plugins/broken/main.go", "testdata/plugins/knobs/main.go")
	built := filepath.Join(dir, "built") + string(filepath.Separator)
	args := []string{"build", "-o", built, "."}
	for _, mf := range mains {
		args = append(args, "./"+filepath.Dir(mf))
	}
	cmd := exec.Command("go", args...)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building the plugins (go %s): %w", strings.Join(args, " "), err)
	}
	names := map[string][]string{
		"broken": {"broken/bench-plugin-wrongshape", "broken/bench-plugin-nocancel", "broken/bench-plugin-csrcrash", "hangcheck/bench-plugin-hangcheck", "broken/bench-plugin-spinfit", "broken/bench-plugin-hostilefit"},
		"knobs":  {"third/bench-plugin-knobs", "broken/bench-plugin-notrowwise"},
	}
	for _, mf := range mains {
		pkg := filepath.Base(filepath.Dir(mf))
		outs, ok := names[pkg]
		if !ok {
			outs = []string{"bench-plugin-" + pkg}
		}
		for _, out := range outs {
			out = filepath.Join(dir, out)
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				return err
			}
			if err := os.Link(filepath.Join(built, pkg), out); err != nil {
				return fmt.Errorf("naming the %s plugin: %w", pkg, err)
			}
		}
	}
	benchBinary = filepath.Join(dir, "cmd", "bench")
	if err := os.MkdirAll(filepath.Dir(benchBinary), 0o755); err != nil {
		return err
	}
	if err := os.Rename(filepath.Join(built, "bench"), benchBinary); err != nil {
		return fmt.Errorf("placing the bench binary: %w", err)
	}
	return os.RemoveAll(built)
}

// pinGoCache sets GOCACHE to the go command's build cache when it is not
// set, so that it does not move with XDG_CACHE_HOME.
func pinGoCache() error {
	if os.Getenv("GOCACHE") != "" {
		return nil
	}
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		return fmt.Errorf("go env GOCACHE: %w", err)
	}
	if c := strings.TrimSpace(string(out)); c != "" && c != "off" {
		os.Setenv("GOCACHE", c)
	}
	return nil
}

// commandLimit bounds one bench command of a test: a plugin that never
// answers (a deadlock) interrupts the run and fails its test, with the
// run's stderr, instead of holding the whole suite until go test's
// -timeout. The longest command of these tests takes well under a minute.
const commandLimit = 5 * time.Minute

// commandContext returns the context of one bench command of test t,
// ended after commandLimit. When the limit ends it, the goroutines of the
// test process at that moment go to stderr (dumpOnLimit): a hang seen only
// in a loaded full run must show where it hung.
func commandContext(t *testing.T) context.Context {
	limit := fmt.Errorf("the test's limit of %v for one bench command (a plugin that never answers?)", commandLimit)
	ctx, cancel := context.WithTimeoutCause(t.Context(), commandLimit, limit)
	stop, _ := dumpOnLimit(ctx, limit, t.Name(), os.Stderr)
	t.Cleanup(func() {
		stop()
		cancel()
	})
	return ctx
}

// dumpOnLimit writes the stacks of every goroutine to w when ctx ends
// with cause limit (not when it is cancelled otherwise), headed by name
// and the cause: taken then, before the run unwinds, they show what the
// stuck fold was waiting for. stop ends the watch; done is closed once the
// watch has ended, after the dump if there was one.
func dumpOnLimit(ctx context.Context, limit error, name string, w io.Writer) (stop func() bool, done <-chan struct{}) {
	ended := make(chan struct{})
	after := context.AfterFunc(ctx, func() {
		defer close(ended)
		if context.Cause(ctx) != limit {
			return
		}
		var buf bytes.Buffer
		_ = pprof.Lookup("goroutine").WriteTo(&buf, 2)
		fmt.Fprintf(w, "%s: %v; the goroutines then:\n%s", name, limit, buf.Bytes())
	})
	return func() bool {
		if after() {
			close(ended)
			return true
		}
		return false
	}, ended
}

// bench runs the command in-process and returns its stdout and stderr.
func bench(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	// --plugins to the commands that take it; --quiet every command takes.
	full := []string{args[0]}
	if c, ok := lookupCommand(args[0]); ok && slices.Contains(c.flags, "plugins") {
		full = append(full, "--plugins", pluginsDir)
	}
	full = append(append(full, "--quiet"), args[1:]...)
	if args[0] == "plugins" {
		full = []string{"plugins", "--plugins", pluginsDir}
	}
	err := run(commandContext(t), full, &stdout, &stderr)
	return stdout.String(), stderr.String(), err
}

// writeExperiment writes src into a temporary directory and returns its
// path. %REPO% is replaced by the repository's absolute path, %REF% by
// the reference directory of testdata, and %DATA%/NAME by the path of the
// data set NAME in testdata (compressed or not).
func writeExperiment(t *testing.T, src string) string {
	t.Helper()
	src = experimentSource(t, src)
	path := filepath.Join(t.TempDir(), "exp.hcl")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// experimentSource returns src with the references writeExperiment
// replaces replaced.
func experimentSource(t *testing.T, src string) string {
	t.Helper()
	repo, _ := filepath.Abs("../..")
	src = dataRef.ReplaceAllStringFunc(src, func(m string) string {
		return refdata.Data(t, strings.TrimPrefix(m, "%DATA%/"))
	})
	src = strings.ReplaceAll(src, "%REF%", filepath.Dir(refdata.Reference(t, "sklearn_cv.jsonl")))
	return strings.ReplaceAll(src, "%REPO%", repo)
}

// dataRef matches a %DATA%/NAME reference in an experiment source.
var dataRef = regexp.MustCompile(`%DATA%/[A-Za-z0-9_.]+`)

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// reference returns the per-fold accuracies of a set-up in
// sklearn_cv.jsonl.
func reference(t *testing.T, dataset, setup string) []float64 {
	t.Helper()
	b := readFile(t, refdata.Reference(t, "sklearn_cv.jsonl"))
	for _, line := range strings.Split(strings.TrimSpace(b), "\n") {
		var r struct {
			Dataset, Setup string
			AccFolds       []float64 `json:"acc_folds"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if r.Dataset == dataset && r.Setup == setup {
			return r.AccFolds
		}
	}
	t.Fatalf("no reference for %s %s", dataset, setup)
	return nil
}
