package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/internal/profile"
)

// startProfiles starts bench's CPU profile in dir and asks the plugin
// processes h starts for theirs (bench run --profile DIR). The returned
// function stops bench's CPU profile and writes its heap profile; call it
// after the plugins are closed.
func startProfiles(h *host.Host, dir string) (func() error, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("--profile %s: %w", dir, err)
	}
	stop, err := profile.Start(abs, "bench")
	if err != nil {
		return nil, fmt.Errorf("--profile %s: %w", dir, err)
	}
	h.SetProfileDir(abs)
	return stop, nil
}

// writeCalls writes the protocol calls of a run to its log: per plugin and
// method, the calls, the messages and bytes sent and received, and the
// calls per fold run.
func writeCalls(w io.Writer, calls []host.CallStats, folds int64) {
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
