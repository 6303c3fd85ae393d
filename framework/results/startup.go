package results

import (
	"fmt"
	"os"
	"time"

	"github.com/polyclass/polyclass/framework/outcome"
)

// The start-up a whole run (Begin) and a shard (beginShard) share: the
// Run itself, the cells kept by Reconcile's rule, the manifest's start
// fields and the run log.

// newRun is the Run of a run of the grid of digests into dir, holding
// lock, before anything is kept.
func newRun(dir string, m *Manifest, digests []string, opt Options, now func() time.Time, lock *os.File) *Run {
	return &Run{dir: dir, m: m, digests: digests, specs: opt.Specs, lock: lock, now: now, notes: opt.Notes, stop: opt.Stop, uid: os.Geteuid(),
		kept: map[int]*outcome.CellResult{}, finished: map[int]*outcome.CellResult{}, unwritten: map[int]*outcome.CellResult{}}
}

// identify records the results directory as the run finds it (Run.ident)
// and opens it (Run.root).
func (r *Run) identify() error {
	var err error
	if r.ident, err = os.Stat(r.dir); err != nil {
		return fmt.Errorf("results directory: %w", err)
	}
	r.root, err = openRoot(r.dir)
	return err
}

// keep reads the cell files of the cells directory, decides by
// Reconcile's rule what want keeps, applies the plan (moving aside and
// renumbering, noted in s) and records the kept cells and the digests
// they give the run.
func (r *Run) keep(cells string, want Want, s *setup) (Plan, error) {
	entries, err := readEntries(cells, want.relevance())
	if err != nil {
		return Plan{}, err
	}
	plan := Reconcile(entries, want)
	if r.kept, err = apply(cells, plan, s); err != nil {
		return Plan{}, err
	}
	r.digests = plan.digests(r.digests)
	if len(plan.Kept) > 0 {
		warnForeignCells(s, "kept from", r.dir, cells, cellFileNames(plan.Kept), r.uid)
	}
	return plan, nil
}

// startManifest sets the fields of m that a run starting now sets: status
// running, the run digest of digests, the counts of cells (kept of them
// from an earlier run), the start time and no end.
func startManifest(m *Manifest, digests []string, kept int, now time.Time) {
	m.Status = StatusRunning
	m.RunDigest = RunDigest(m.Experiment, digests)
	m.Cells = len(digests)
	m.Resumed = kept
	m.Finished = kept
	m.Start = now.UTC()
	m.End = time.Time{}
}

// openLog opens the run log name (slash-separated, in the results
// directory) through the run's Root for appending and writes the line of
// the run's start, formatted, then the notes of its set-up.
func (r *Run) openLog(name string, s *setup, format string, args ...any) error {
	var err error
	if r.log, err = appendAt(r.root, r.dir, name); err != nil {
		return fmt.Errorf("run log: %w", err)
	}
	fmt.Fprintf(r.log, format, args...)
	for _, n := range s.notes {
		fmt.Fprintln(r.log, n)
	}
	return nil
}
