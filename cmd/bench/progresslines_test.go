package main

import (
	"bytes"
	"testing"
	"time"
)

// TestProgressLines: a run whose stderr is no terminal prints a line of
// its progress at each tick (a minute in a run), none before the first
// fold is counted, and none after finish. Before, a run redirected to a
// file said nothing until it ended (issue 56, third trial: 19 minutes of
// silence).
func TestProgressLines(t *testing.T) {
	var out bytes.Buffer
	tick := make(chan time.Time)
	elapsed := make(chan time.Duration) // the time a line reports, when it asks
	p := startProgressLines(&out, "exp", tick, func() time.Duration { return <-elapsed })
	tick <- time.Time{} // nothing counted yet: no line, no time asked
	p.set(120, 675)
	tick <- time.Time{}
	elapsed <- 2*time.Minute + 400*time.Millisecond
	p.set(675, 675)
	tick <- time.Time{}
	elapsed <- 3 * time.Minute
	p.finish()
	want := "bench run exp: 120 of 675 folds done (17 %), 2m0s elapsed\n" +
		"bench run exp: 675 of 675 folds done (100 %), 3m0s elapsed\n"
	if got := out.String(); got != want {
		t.Errorf("lines\n%q\nwant\n%q", got, want)
	}
}
