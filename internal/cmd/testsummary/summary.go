package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// event is one line of `go test -json` (test2json's TestEvent).
type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

// summary counts the tests of one `go test -json` stream. Subtests count
// as tests of their own, as `go test -v` lists them.
type summary struct {
	passed, failed int
	skipped        []skip
	pkgFailed      []string
	// timeouts are the packages whose test binary hit go test's
	// -timeout, with the tests it was running and their goroutines.
	timeouts []timeout
}

// timeout is a package whose tests ran past go test's -timeout: the
// tests running then (the "running tests:" lines of the panic) and the
// goroutines of its dump that name them (the test's own goroutine and
// those it started). Printed again after the totals, since the whole dump
// can be too long to read back from the end of a log.
type timeout struct {
	pkg     string
	running []string
	stacks  []string
}

// skip is a skipped test and the message it gave.
type skip struct{ name, reason string }

// summarise reads events from r, writes a line per package and the output
// of failed tests to w, and returns the counts.
func summarise(r io.Reader, w io.Writer) (*summary, error) {
	s := &summary{}
	output := map[string][]string{} // package/test → output lines
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			// Build errors and other non-JSON lines pass through.
			fmt.Fprintln(w, sc.Text())
			continue
		}
		key := e.Package + " " + e.Test
		if e.Action == "fail" && e.Test == "" {
			if t, ok := timedOut(e.Package, output); ok {
				s.timeouts = append(s.timeouts, t)
			}
		}
		switch e.Action {
		case "output":
			output[key] = append(output[key], e.Output)
		case "pass", "fail", "skip":
			if e.Test == "" && e.Action == "fail" {
				unended(w, e.Package, output)
			}
			s.record(w, e, output[key])
			delete(output, key)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading go test -json: %w", err)
	}
	return s, nil
}

// unended writes, and forgets, the output of the tests of package pkg
// that never ended (no pass or fail): those running when its test binary
// died, whose output holds the cause (a panic in a goroutine, a crash),
// which the package's own FAIL line does not.
func unended(w io.Writer, pkg string, output map[string][]string) {
	var keys []string
	for k := range output {
		if strings.HasPrefix(k, pkg+" ") && k != pkg+" " {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "(no end) %s:\n%s", k, strings.Join(output[k], ""))
		delete(output, k)
	}
}

// timedOut reads the output of package pkg's tests for go test's timeout
// panic ("panic: test timed out after …", then "running tests:" and a
// line per test) and returns the tests it names with the goroutines of
// the dump that mention them.
func timedOut(pkg string, output map[string][]string) (timeout, bool) {
	// The panic and its dump are the output of one test (the one
	// test2json saw running last), never mixed with another's.
	text, at := "", -1
	for k, out := range output {
		if !strings.HasPrefix(k, pkg+" ") {
			continue
		}
		if t := strings.Join(out, ""); strings.Contains(t, "panic: test timed out") {
			text, at = t, strings.Index(t, "panic: test timed out")
			break
		}
	}
	if at < 0 {
		return timeout{}, false
	}
	t := timeout{pkg: pkg}
	blocks := strings.Split(text[at:], "\n\n")
	head := strings.Split(blocks[0], "\n")
	t.running = append(t.running, strings.TrimSpace(head[0]))
	for _, l := range head[1:] {
		if l = strings.TrimSpace(l); l != "" && l != "running tests:" {
			t.running = append(t.running, l)
		}
	}
	for _, b := range blocks[1:] {
		for _, r := range t.running[1:] {
			name, _, _ := strings.Cut(r, " ")
			name, _, _ = strings.Cut(name, "/") // a subtest runs in a closure of its test
			if strings.Contains(b, "."+name+"(") || strings.Contains(b, "."+name+" in goroutine") || strings.Contains(b, "."+name+".func") {
				t.stacks = append(t.stacks, strings.TrimSpace(b))
				break
			}
		}
	}
	return t, true
}

// print writes the timeout: its tests, then their goroutines, the first
// 40 at most.
func (t timeout) print(w io.Writer) {
	fmt.Fprintf(w, "\n%s: %s; running tests:\n", t.pkg, t.running[0])
	for _, r := range t.running[1:] {
		fmt.Fprintf(w, "\t%s\n", r)
	}
	for i, st := range t.stacks {
		if i == 40 {
			fmt.Fprintf(w, "(and %d more goroutines)\n", len(t.stacks)-i)
			break
		}
		fmt.Fprintf(w, "\n%s\n", st)
	}
}

func (s *summary) record(w io.Writer, e event, out []string) {
	if e.Test == "" { // a package result
		switch e.Action {
		case "fail":
			s.pkgFailed = append(s.pkgFailed, e.Package)
			fmt.Fprint(w, strings.Join(out, ""))
			fmt.Fprintf(w, "FAIL\t%s\t%.3fs\n", e.Package, e.Elapsed)
		case "pass":
			fmt.Fprintf(w, "ok\t%s\t%.3fs\n", e.Package, e.Elapsed)
		default:
			fmt.Fprintf(w, "?\t%s\t[no test files]\n", e.Package)
		}
		return
	}
	switch e.Action {
	case "pass":
		s.passed++
	case "fail":
		s.failed++
		fmt.Fprint(w, strings.Join(out, ""))
	case "skip":
		s.skipped = append(s.skipped, skip{e.Package + "." + e.Test, skipReason(out)})
	}
}

// skipReason returns the message a skipped test gave: the output lines
// after its "=== RUN" and before its "--- SKIP" line.
func skipReason(out []string) string {
	var msg []string
	for _, l := range out {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		msg = append(msg, t)
	}
	return strings.Join(msg, " ")
}

// installable reports whether a skip is for a tool the Makefile or CI can
// install. With the race pass's skips of tests make test's first pass runs
// (firstPassRuns, counted apart in verdict), the only acceptable reason to
// skip.
func installable(reason string) bool { return strings.Contains(reason, "apt-get install") }

// firstPassRuns is in the message of a test skipped under -race because
// make test's first pass, without -race, runs it.
const firstPassRuns = "make test's first pass runs this test"

// verdict prints the totals and the skipped tests and returns an error
// when the run is not acceptable.
func (s *summary) verdict(w io.Writer, minimum int) error {
	ran := s.passed + s.failed + len(s.skipped)
	fmt.Fprintf(w, "\ntests: %d run, %d passed, %d failed, %d skipped\n", ran, s.passed, s.failed, len(s.skipped))
	slices.SortFunc(s.skipped, func(a, b skip) int { return strings.Compare(a.name, b.name) })
	var errs []error
	firstPass := 0
	for _, sk := range s.skipped {
		if strings.Contains(sk.reason, firstPassRuns) {
			firstPass++ // the race pass's, from cmd/bench's skipUnderRace: counted below, not listed
			continue
		}
		fmt.Fprintf(w, "skipped: %s: %s\n", sk.name, sk.reason)
		if !installable(sk.reason) {
			errs = append(errs, fmt.Errorf("%s was skipped (%s): tests carry their own data and must run", sk.name, sk.reason))
		}
	}
	if firstPass > 0 {
		fmt.Fprintf(w, "skipped: %d tests under -race that make test's first pass runs\n", firstPass)
	}
	for _, t := range s.timeouts {
		t.print(w)
		errs = append(errs, fmt.Errorf("%s timed out running %s", t.pkg, strings.Join(t.running[1:], ", ")))
	}
	if s.failed > 0 || len(s.pkgFailed) > 0 {
		errs = append(errs, fmt.Errorf("%d tests failed in %d packages: %s", s.failed, len(s.pkgFailed), strings.Join(s.pkgFailed, ", ")))
	}
	if ran < minimum {
		errs = append(errs, fmt.Errorf("%d tests ran, fewer than the %d recorded in testdata/testcount: tests stopped running (lower the count only when tests were removed on purpose)", ran, minimum))
	}
	return errors.Join(errs...)
}
