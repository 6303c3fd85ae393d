package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/sdk/conformance"
)

// checkRow is one row of the conformance table: check name and result.
var checkRow = regexp.MustCompile(`(?m)^(\S+)\s+(PASS|FAIL|SKIP)\b`)

// TestPluginCheck runs bench plugin check on every shipped plugin (all
// pass) and on the deliberately broken ones, which fail exactly the checks
// their defect breaks, by name; the plugins are checked in parallel.
func TestPluginCheck(t *testing.T) {
	for _, tt := range []struct {
		path   string
		fail   []string // the checks that must fail; every other passes or is skipped
		skip   []string // the checks that must be skipped
		python bool
	}{
		{path: "bench-plugin-logreg"},
		{path: "bench-plugin-svm"},
		{path: "bench-plugin-lda", skip: []string{"csr"}},
		{path: "bench-plugin-knn"},
		{path: "bench-plugin-naive_bayes"},
		{path: "bench-plugin-reducers"},
		{path: "bench-plugin-sklearn", python: true},
		{path: "broken/bench-plugin-wrongshape", fail: []string{"csr", "fit-predict"}},
		{path: "broken/bench-plugin-csrcrash", fail: []string{"csr"}},
		{path: "broken/bench-plugin-nocancel", fail: []string{"cancel"}},
		{path: "third/bench-plugin-knobs"},
		{path: "broken/bench-plugin-notrowwise", fail: []string{"row-wise-decode"}},
	} {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			// Each check runs its own plugin process and host: the
			// plugins' starts and waits overlap.
			t.Parallel()
			if tt.python {
				needPython(t)
			}
			stdout, stderr, err := runBench(t, "plugin", "check", filepath.Join(pluginsDir, tt.path))
			rows := checkRow.FindAllStringSubmatch(stdout, -1)
			if len(rows) < 4 {
				t.Fatalf("no table:\n%s\nstderr:\n%s", stdout, stderr)
			}
			var failed, skipped []string
			for _, r := range rows {
				switch r[2] {
				case "FAIL":
					failed = append(failed, r[1])
				case "SKIP":
					skipped = append(skipped, r[1])
				}
			}
			if !slices.Equal(failed, tt.fail) || !slices.Equal(skipped, tt.skip) {
				t.Errorf("failed %v, skipped %v; want %v, %v\n%s", failed, skipped, tt.fail, tt.skip, stdout)
			}
			if (err != nil) != (len(tt.fail) > 0) {
				t.Errorf("error %v with %d failed checks", err, len(failed))
			}
			if len(tt.fail) > 0 && err != nil && !strings.Contains(err.Error(), "conformance checks failed") {
				t.Errorf("error %q", err)
			}
		})
	}
}

func TestPluginCheckUsage(t *testing.T) {
	for _, args := range [][]string{{"plugin"}, {"plugin", "check"}, {"plugin", "verify", "x"}} {
		if _, _, err := runBench(t, args...); err == nil || !strings.Contains(err.Error(), "bench plugin check PATH") {
			t.Errorf("%v: error %v", args, err)
		}
	}
	if _, _, err := runBench(t, "plugin", "check", filepath.Join(t.TempDir(), "none")); err == nil || !strings.Contains(err.Error(), "none") {
		t.Errorf("missing binary: error %v", err)
	}
}

// TestPluginCheckNameMismatch: bench plugin check warns when the name a
// plugin declares is not its file's (knn's binary copied as
// bench-plugin-gocentroid), naming the file and the declared name, and
// says nothing when they agree; the checks pass either way.
func TestPluginCheckNameMismatch(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(pluginsDir, "bench-plugin-knn"))
	if err != nil {
		t.Fatal(err)
	}
	renamed := filepath.Join(t.TempDir(), "bench-plugin-gocentroid")
	if err := os.WriteFile(renamed, b, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, want string
	}{
		{"renamed", renamed, `warning: bench-plugin-gocentroid declares itself learner "knn", but the host knows a plugin by its file name: ` +
			`experiment files and reports call it "gocentroid"; rename the file bench-plugin-knn or the name in its Info to make them agree` + "\n"},
		{"agree", filepath.Join(pluginsDir, "bench-plugin-knn"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, err := runBench(t, "plugin", "check", tc.path)
			if err != nil {
				t.Fatalf("%v\n%s\n%s", err, stdout, stderr)
			}
			got := regexp.MustCompile(`(?m)^warning: .*\n`).FindString(stdout)
			if got != tc.want {
				t.Errorf("warning %q, want %q\nstdout:\n%s", got, tc.want, stdout)
			}
		})
	}
}

// TestPluginCheckSpinningFit: bench plugin check on a learner whose Fit
// never returns and ignores its context (broken/bench-plugin-spinfit),
// under a per-check limit of 2 s: each check that fits fails with the
// limit in its detail, said on stderr as soon as it failed, the plugin is
// stopped and started again for the next check (info, which needs no Fit,
// passes after restarts too), and the whole check ends within about one
// limit per check rather than waiting behind the stuck process.
func TestPluginCheckSpinningFit(t *testing.T) {
	const limit = 2 * time.Second
	o := &options{args: []string{"check", filepath.Join(pluginsDir, "broken", "bench-plugin-spinfit")}, checkLimit: limit}
	var stdout, stderr strings.Builder
	start := time.Now()
	err := pluginCommand(context.Background(), o, &stdout, &stderr)
	elapsed := time.Since(start)
	checks := len(conformance.Checks())
	if bound := time.Duration(checks)*(limit+host.ShutdownGrace) + 10*time.Second; elapsed > bound {
		t.Errorf("bench plugin check took %s, more than %s", elapsed, bound)
	}
	if err == nil || err.Error() != fmt.Sprintf("%d of %d conformance checks failed", strings.Count(stdout.String(), "  FAIL  "), checks) {
		t.Errorf("error %v\n%s", err, stdout.String())
	}
	// The checks that fit time out, each said on stderr as it ended; the
	// others pass, on a plugin restarted after each timeout.
	var timedOut, passed []string
	for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		name, rest, _ := strings.Cut(strings.TrimPrefix(line, "check "), ": ")
		switch {
		case rest == "PASS":
			passed = append(passed, name)
		case strings.HasPrefix(rest, "FAIL: did not answer within the check's limit of 2s (") &&
			strings.HasSuffix(rest, "); the plugin was stopped and started again for the next check"):
			timedOut = append(timedOut, name)
		default:
			t.Errorf("stderr line %q", line)
		}
	}
	wantTimedOut := []string{"upload", "csr", "fit-predict", "release", "cancel", "deterministic", "together", "one-class", "empty"}
	if !slices.Equal(timedOut, wantTimedOut) || !slices.Equal(passed, []string{"info", "forget", "bad-params"}) {
		t.Errorf("timed out %v, passed %v; want %v, [info forget bad-params]\nstderr:\n%s", timedOut, passed, wantTimedOut, stderr.String())
	}
	rows := checkRow.FindAllStringSubmatch(stdout.String(), -1)
	if len(rows) != checks {
		t.Fatalf("%d rows for %d checks:\n%s", len(rows), checks, stdout.String())
	}
}
