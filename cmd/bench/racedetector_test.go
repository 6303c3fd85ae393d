package main

import "testing"

// skipUnderRace skips a test in make test's second pass over cmd/bench,
// built with -race, when the test's time goes to work the race detector
// does not see or that other tests already give it: processes started by
// the test (Chromium, Python, a go build, bench binaries, all built
// without -race), or plots and numbers computed after the run by one
// goroutine. The first pass runs every test. why says which.
//
// The race pass keeps the tests that drive bench's own concurrency: runs
// with workers, killed, stopped and failing plugins, interrupts, resumes,
// the full disk, the conformance checks of bench plugin check.
func skipUnderRace(t *testing.T, why string) {
	t.Helper()
	if raceDetector {
		t.Skip("make test's first pass runs this test; under -race: " + why)
	}
}
