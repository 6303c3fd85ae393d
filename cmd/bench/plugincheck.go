package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/sdk/conformance"
)

// pluginCommand runs "bench plugin check PATH": the conformance suite on
// the plugin binary at PATH, started as a run starts plugins, with a
// pass/fail table on stdout and the plugin's stderr on stderr. Each
// check's result is also said on stderr as soon as the check ends (a check
// can take up to its limit, conformance.DefaultTimeout).
func pluginCommand(ctx context.Context, o *options, stdout, stderr io.Writer) error {
	if len(o.args) != 2 || o.args[0] != "check" {
		return usageError{"plugin takes a subcommand and a path: bench plugin check PATH"}
	}
	path, err := filepath.Abs(o.args[1])
	if err != nil {
		return err
	}
	p, err := host.Open(ctx, path, stderr)
	if err != nil {
		return err
	}
	// The plugin process of the moment: a learner's Restart below
	// replaces it while a check's CPU watch (Target.CPUTime) may still
	// read it on its own goroutine.
	var cur atomic.Pointer[host.Plugin]
	cur.Store(p)
	defer func() { cur.Load().Stop() }()
	if p.Learner == nil {
		fmt.Fprintf(stdout, "%s: reducer %s %s\n", path, p.ReducerInfo.Name, p.ReducerInfo.Version)
		warnNameMismatch(stdout, p)
		results := conformance.RunReducer(ctx, p.Reducer)
		return printChecks(stdout, results)
	}
	fmt.Fprintf(stdout, "%s: learner %s %s\n", path, p.LearnerInfo.Name, p.LearnerInfo.Version)
	warnNameMismatch(stdout, p)
	target := &conformance.Target{
		Client:   p.Learner,
		Timeout:  o.checkLimit,
		Progress: func(r conformance.Result) { printProgress(stderr, r) },
		Alive:    func() bool { return !cur.Load().Exited() },
		CPUTime:  func() (time.Duration, error) { return cur.Load().CPUTime() },
		Restart: func(ctx context.Context) (*host.LearnerClient, error) {
			cur.Load().Stop()
			q, err := host.Open(ctx, path, stderr)
			if err != nil {
				return nil, err
			}
			if q.Learner == nil {
				q.Stop()
				return nil, errors.New("the restarted plugin serves no learner")
			}
			cur.Store(q)
			return q.Learner, nil
		},
	}
	return printChecks(stdout, conformance.Run(ctx, target))
}

// warnNameMismatch says when the name p declares is not its file's
// (host.Plugin.NameMismatch): harmless to a run, but the experiment must
// use the file's.
func warnNameMismatch(w io.Writer, p *host.Plugin) {
	if m := p.NameMismatch(); m != "" {
		fmt.Fprintf(w, "warning: %s\n", m)
	}
}

// printProgress says on w how check r went, as soon as it ended: its
// name and outcome, and the detail of a failure.
func printProgress(w io.Writer, r conformance.Result) {
	if r.Status == conformance.Fail {
		fmt.Fprintf(w, "check %s: %s: %s\n", r.Check, r.Status, strings.ReplaceAll(r.Detail, "\n", " "))
		return
	}
	fmt.Fprintf(w, "check %s: %s\n", r.Check, r.Status)
}

// printChecks prints the table and the tally; failed checks make an error.
func printChecks(w io.Writer, results []conformance.Result) error {
	if err := conformance.WriteTable(w, results); err != nil {
		return err
	}
	n := map[conformance.Status]int{}
	for _, r := range results {
		n[r.Status]++
	}
	fmt.Fprintf(w, "%d checks: %d passed, %d failed, %d skipped\n", len(results), n[conformance.Pass], n[conformance.Fail], n[conformance.Skip])
	if n[conformance.Fail] > 0 {
		return fmt.Errorf("%d of %d conformance checks failed", n[conformance.Fail], len(results))
	}
	return nil
}
