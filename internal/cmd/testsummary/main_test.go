package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A stream of three packages: one passing test with a passing subtest, a
// test skipped for a missing data file, a test skipped for an installable
// tool, and one failing test.
const stream = `{"Action":"run","Package":"p/a","Test":"TestA"}
{"Action":"output","Package":"p/a","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"run","Package":"p/a","Test":"TestA/sub"}
{"Action":"pass","Package":"p/a","Test":"TestA/sub","Elapsed":0}
{"Action":"pass","Package":"p/a","Test":"TestA","Elapsed":0.1}
{"Action":"output","Package":"p/a","Test":"TestData","Output":"=== RUN   TestData\n"}
{"Action":"output","Package":"p/a","Test":"TestData","Output":"    a_test.go:9: data file missing\n"}
{"Action":"output","Package":"p/a","Test":"TestData","Output":"--- SKIP: TestData (0.00s)\n"}
{"Action":"skip","Package":"p/a","Test":"TestData","Elapsed":0}
{"Action":"pass","Package":"p/a","Elapsed":0.2}
{"Action":"output","Package":"p/b","Test":"TestTeX","Output":"    b_test.go:3: pdflatex not installed (apt-get install texlive-latex-base)\n"}
{"Action":"skip","Package":"p/b","Test":"TestTeX","Elapsed":0}
{"Action":"output","Package":"p/b","Test":"TestBad","Output":"    b_test.go:7: got 2, want 3\n"}
{"Action":"fail","Package":"p/b","Test":"TestBad","Elapsed":0}
{"Action":"fail","Package":"p/b","Elapsed":0.3}
# p/c [build failed]
`

func TestSummary(t *testing.T) {
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"-min", "6"}, strings.NewReader(stream), &out, &errOut)
	if err == nil {
		t.Fatal("no error for a failed test and a skip for missing data")
	}
	for _, want := range []string{
		"tests: 5 run, 2 passed, 1 failed, 2 skipped\n",
		"skipped: p/a.TestData: a_test.go:9: data file missing\n",
		"skipped: p/b.TestTeX: b_test.go:3: pdflatex not installed (apt-get install texlive-latex-base)\n",
		"b_test.go:7: got 2, want 3\n",
		"ok\tp/a\t0.200s\n",
		"FAIL\tp/b\t0.300s\n",
		"# p/c [build failed]\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	for _, want := range []string{
		"p/a.TestData was skipped (a_test.go:9: data file missing)",
		"1 tests failed in 1 packages: p/b",
		"5 tests ran, fewer than the 6 recorded",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if strings.Contains(err.Error(), "TestTeX") {
		t.Errorf("a skip for an installable tool is an error: %v", err)
	}
}

func TestSummaryClean(t *testing.T) {
	clean := strings.Join(strings.Split(stream, "\n")[:5], "\n") + "\n"
	count := filepath.Join(t.TempDir(), "count")
	if err := os.WriteFile(count, []byte("2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-min-file", count}, strings.NewReader(clean), &out, &out); err != nil {
		t.Fatalf("clean stream: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "tests: 2 run, 2 passed, 0 failed, 0 skipped") {
		t.Errorf("totals: %s", out.String())
	}
}

// TestUnendedTestsShown: a package whose binary died while a test ran
// (no pass or fail for it) shows that test's output before its FAIL line:
// the package result alone said nothing of the cause.
func TestUnendedTestsShown(t *testing.T) {
	in := `{"Action":"output","Package":"p/e","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"pass","Package":"p/e","Test":"TestA"}
{"Action":"output","Package":"p/e","Test":"TestB","Output":"=== RUN   TestB\n"}
{"Action":"output","Package":"p/e","Test":"TestB","Output":"panic: Log in goroutine after TestA has completed\n"}
{"Action":"output","Package":"p/e","Output":"FAIL\tp/e\t1.0s\n"}
{"Action":"fail","Package":"p/e","Elapsed":1}
`
	var out strings.Builder
	s, err := summarise(strings.NewReader(in), &out)
	if err != nil {
		t.Fatal(err)
	}
	want := "(no end) p/e TestB:\n=== RUN   TestB\npanic: Log in goroutine after TestA has completed\nFAIL\tp/e\t1.0s\nFAIL\tp/e\t1.000s\n"
	if out.String() != want || s.passed != 1 || len(s.pkgFailed) != 1 {
		t.Errorf("output:\n%s\nwant:\n%s\n(passed %d, packages failed %v)", out.String(), want, s.passed, s.pkgFailed)
	}
}

// TestSummaryTimeout: a package that runs past go test's -timeout. The
// stream is what `go test -json -timeout 2s` printed for a test that starts
// a goroutine and a subtest, both blocked, beside two parallel tests
// (testdata/timeout.json): after the totals, the summary names the tests
// that were running and shows their goroutines, not the others of the
// dump, so the end of a long log says what hung.
func TestSummaryTimeout(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "timeout.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	err = run(context.Background(), nil, f, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "tmo timed out running TestHang (2s), TestHang/sub (2s)") {
		t.Errorf("error %v, want the timed-out tests named", err)
	}
	text := out.String()
	totals := strings.Index(text, "tests: 0 run")
	tail := text[totals:]
	for _, want := range []string{
		"tmo: panic: test timed out after 2s; running tests:\n\tTestHang (2s)\n\tTestHang/sub (2s)\n",
		"tmo.TestHang(",           // the test's goroutine, in t.Run
		"created by tmo.TestHang", // the goroutine it started
		"tmo.TestHang.func2(",     // the subtest's goroutine, asleep
	} {
		if !strings.Contains(tail, want) {
			t.Errorf("after the totals, no %q:\n%s", want, tail)
		}
	}
	if strings.Contains(tail, "goroutine 1 [") || strings.Contains(tail, "TestP") {
		t.Errorf("after the totals, goroutines that do not belong to the running tests:\n%s", tail)
	}
}

// TestSummaryRaceSkips: the race pass skips the tests make test's first
// pass runs (cmd/bench's skipUnderRace); that skip is acceptable, a skip
// that only resembles it is not.
func TestSummaryRaceSkips(t *testing.T) {
	for _, c := range []struct {
		reason string
		ok     bool
	}{
		{"x_test.go:3: make test's first pass runs this test; under -race: it runs Python", true},
		{"x_test.go:3: pdflatex not installed (apt-get install texlive-latex-base)", true},
		{"x_test.go:3: the first pass runs this", false},
		{"x_test.go:3: data file missing", false},
	} {
		stream := `{"Action":"output","Package":"p","Test":"TestX","Output":"    ` + c.reason + `\n"}
{"Action":"skip","Package":"p","Test":"TestX","Elapsed":0}
{"Action":"pass","Package":"p","Elapsed":0.1}
`
		var out bytes.Buffer
		err := run(context.Background(), nil, strings.NewReader(stream), &out, &out)
		if (err == nil) != c.ok {
			t.Errorf("skip %q: error %v, want acceptable %v", c.reason, err, c.ok)
		}
		// The race pass's skips are counted, not listed one by one.
		counted := strings.Contains(c.reason, firstPassRuns)
		if listed := strings.Contains(out.String(), "skipped: p.TestX:"); listed == counted {
			t.Errorf("skip %q: listed %v, want %v:\n%s", c.reason, listed, !counted, out.String())
		}
		if counted && !strings.Contains(out.String(), "skipped: 1 tests under -race that make test's first pass runs\n") {
			t.Errorf("skip %q: not counted:\n%s", c.reason, out.String())
		}
	}
}
