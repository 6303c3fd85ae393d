package main

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/polyclass/polyclass/framework/engine"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/results"
	"github.com/polyclass/polyclass/internal/profile"
)

// startProfiles opens the profile directory dir of bench run --profile
// DIR (profile.OpenDir: every file made in it exclusively, never through
// a link), checks that the timeline files there are absent or bench's own
// (checkTimeline), makes bench's CPU and heap profile files, starts its
// CPU profile and asks the plugin processes h starts for theirs: a file
// bench would write over is an error before any work. The returned
// function stops bench's CPU profile and writes its heap profile; call it
// after the plugins are closed, then close the directory.
func startProfiles(h *host.Host, dir string) (*profile.Dir, func() error, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("--profile %s: %w", dir, err)
	}
	if d := results.Enclosing(abs); d != "" {
		return nil, nil, fmt.Errorf("--profile %s: inside the results directory %s, whose entries bench manages (a run would take the profiles for its own files, or move them aside): choose a directory outside it", dir, d)
	}
	d, err := profile.OpenDir(abs)
	if err != nil {
		return nil, nil, fmt.Errorf("--profile %s: %w", dir, err)
	}
	if err := checkTimeline(d); err != nil {
		d.Close()
		return nil, nil, fmt.Errorf("--profile %s: %w", dir, err)
	}
	stop, err := profile.StartIn(d, "bench")
	if err != nil {
		d.Close()
		return nil, nil, fmt.Errorf("--profile %s: %w", dir, err)
	}
	h.SetProfileDir(abs)
	return d, stop, nil
}

// writePhases writes where the run's workers spent their time to its log:
// each phase of their folds (engine.Stats.Phases), in seconds summed over
// the workers and as a share of the worker time the run had (its wall
// time, the engine's alone, times its workers), then the time in no phase
// (idle workers, the last folds of a run waiting for none, the scheduler
// itself), and the time the writer spent writing cell files beside them. A phase's share of the worker time is what it cost the run's
// wall time were it the only one: the phases that leave workers idle show
// as time in no phase.
func writePhases(w io.Writer, s engine.Stats, wall time.Duration) {
	if len(s.Phases) == 0 || s.Workers == 0 {
		return
	}
	have := wall.Seconds() * float64(s.Workers)
	share := func(v float64) float64 {
		if have <= 0 {
			return 0
		}
		return 100 * v / have
	}
	fmt.Fprintf(w, "phases (seconds summed over the workers; %.3f s of worker time: %s × %.3f s):\n", have, plural(s.Workers, "worker"), wall.Seconds())
	busy := 0.0
	for _, p := range s.Phases {
		busy += p.Seconds
		fmt.Fprintf(w, "  %-22s %10.3f s %6.1f%%\n", p.Name, p.Seconds, share(p.Seconds))
	}
	idle := max(have-busy, 0)
	fmt.Fprintf(w, "  %-22s %10.3f s %6.1f%%\n", "in no phase", idle, share(idle))
	fmt.Fprintf(w, "  %-22s %10.3f s  (the writer of cell files, beside the workers)\n", "write", s.WriteSeconds)
}

// writeCalls writes the protocol calls of a run to its log: per plugin and
// method, the calls, the messages and bytes sent and received, and the
// calls per fold run.
func writeCalls(w io.Writer, calls []outcome.CallStats, folds int64) {
	if len(calls) == 0 {
		return
	}
	fmt.Fprintf(w, "plugin calls (%d folds run):\n", folds)
	fmt.Fprintf(w, "  %-10s %-24s %8s %10s %9s %14s %14s\n", "plugin", "method", "calls", "per fold", "messages", "bytes sent", "bytes received")
	for _, c := range calls {
		perFold := "-"
		if folds > 0 {
			perFold = fmt.Sprintf("%.1f", float64(c.Calls)/float64(folds))
		}
		fmt.Fprintf(w, "  %-10s %-24s %8d %10s %9d %14d %14d\n", c.Plugin, c.Method, c.Calls, perFold, c.SentMessages, c.Sent, c.Received)
	}
}
