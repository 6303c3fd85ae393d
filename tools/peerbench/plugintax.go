package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/report"
)

// gridRun is one run of an experiment by the engine in one process.
type gridRun struct {
	wall  time.Duration // resolve (data, plugin starts), run, plugins closed
	run   time.Duration // engine.Run alone
	cpu   time.Duration // CPU time (user + system) of this process and of the plugin processes over wall
	os    osCounts      // their page faults and context switches over wall
	cells []*outcome.CellResult
	stats engine.Stats
	calls []outcome.CallStats
}

// gridReport is a gridRun as the child process of a timed run (see
// taxGridCommand) writes it to its standard output, in JSON.
type gridReport struct {
	WallNS     int64                 `json:"wall_ns"`
	RunNS      int64                 `json:"run_ns"`
	CPUNS      int64                 `json:"cpu_ns"`
	Faults     int64                 `json:"minor_faults"`
	Switches   int64                 `json:"context_switches"`
	HugeFaults int64                 `json:"thp_fault_alloc"`
	Cells      []*outcome.CellResult `json:"cells"`
	Stats      engine.Stats          `json:"stats"`
	Calls      []outcome.CallStats   `json:"calls"`
}

func (r *gridRun) report() *gridReport {
	return &gridReport{WallNS: int64(r.wall), RunNS: int64(r.run), CPUNS: int64(r.cpu),
		Faults: r.os.faults, Switches: r.os.switches, HugeFaults: r.os.hugeFaults,
		Cells: r.cells, Stats: r.stats, Calls: r.calls}
}

func (g *gridReport) gridRun() *gridRun {
	return &gridRun{wall: time.Duration(g.WallNS), run: time.Duration(g.RunNS), cpu: time.Duration(g.CPUNS),
		os:    osCounts{faults: g.Faults, switches: g.Switches, hugeFaults: g.HugeFaults},
		cells: g.Cells, stats: g.Stats, calls: g.Calls}
}

// taxGridCommand is the first argument of peerbench's hidden command that
// runs one timed grid of the plugintax section in a fresh process:
//
//	peerbench tax-grid [-plugins DIR] [-workers 2] FILE
//
// With -plugins it runs FILE through the plugin processes of DIR, as
// bench run does, else with the plugins linked in (inProcessHost); it
// writes the run's gridReport to its standard output. Each timed run of
// either mode is such a process, started afresh as bench run is: neither
// mode runs in a process whose heap earlier runs have already grown (a
// warm heap's pages are resident; a new process faults its pages in).
const taxGridCommand = "tax-grid"

// taxGrid is the tax-grid command (see taxGridCommand).
func taxGrid(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet(taxGridCommand, flag.ContinueOnError)
	plugins := fs.String("plugins", "", "directory of the plugin processes (default: the plugins linked in)")
	workers := fs.Int("workers", 2, "the engine's workers")
	fs.SetOutput(io.Discard) // a hidden command: its errors say what is wrong
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%s: %w", taxGridCommand, err)
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%s: want one experiment file, got %d arguments", taxGridCommand, fs.NArg())
	}
	h := inProcessHost()
	if *plugins != "" {
		// The plugins' standard error goes to this process's, which
		// runTaxGrid shows when the run fails.
		h = host.New(*plugins, os.Stderr)
	}
	r, err := runGrid(ctx, fs.Arg(0), h, *workers)
	if err != nil {
		return err
	}
	if err := json.NewEncoder(stdout).Encode(r.report()); err != nil {
		return fmt.Errorf("writing the run's report: %w", err)
	}
	return nil
}

// runTaxGrid runs one timed grid in a fresh process of this program (the
// tax-grid command): through the plugin processes of plugins, or with the
// plugins linked in when plugins is "".
func runTaxGrid(ctx context.Context, file, plugins string, workers int) (*gridRun, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding this program: %w", err)
	}
	args := []string{taxGridCommand, "-workers", fmt.Sprint(workers)}
	if plugins != "" {
		args = append(args, "-plugins", plugins)
	}
	cmd := exec.CommandContext(ctx, self, append(args, file)...)
	what := strings.Join(cmd.Args, " ")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %w\n%s", what, err, stderr.Bytes())
	}
	var g gridReport
	if err := json.Unmarshal(stdout.Bytes(), &g); err != nil {
		return nil, fmt.Errorf("%s: reading its report: %w", what, err)
	}
	return g.gridRun(), nil
}

// runGrid resolves file against h's plugins and runs it with the given
// workers, as bench run does (without writing results), then closes h.
// Both modes run with the Go runtime's defaults, as bench and the plugin
// processes do.
func runGrid(ctx context.Context, file string, h *host.Host, workers int) (*gridRun, error) {
	defer h.Close()
	exp, diags := config.NewParser(report.FormatNames()).ParseFile(file)
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s: %w", file, diags)
	}
	cpu0, os0 := cpuTime(), countsNow()
	start := time.Now()
	g, diags := engine.Resolve(ctx, exp, h, engine.ResolveOptions{DefaultReducer: "reducers"})
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s: %w", file, diags)
	}
	r := &gridRun{}
	runStart := time.Now()
	cells, stats, err := engine.Run(ctx, g, engine.Options{Workers: workers})
	r.run = time.Since(runStart)
	if err != nil {
		return nil, err
	}
	for _, c := range cells {
		if c.Failed() {
			return nil, fmt.Errorf("cell %d failed: %s", c.Index, c.Error)
		}
	}
	r.calls = h.Calls()
	h.Close()
	r.wall = time.Since(start)
	r.cpu = cpuTime() - cpu0
	os1 := countsNow()
	r.os = osCounts{faults: os1.faults - os0.faults, switches: os1.switches - os0.switches, hugeFaults: os1.hugeFaults - os0.hugeFaults}
	r.cells, r.stats = cells, stats
	return r, nil
}

// sameResults reports whether two runs of one grid have equal accuracies
// and confusion matrices on every fold of every cell.
func sameResults(a, b []*outcome.CellResult) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i].Folds) != len(b[i].Folds) {
			return false
		}
		for k, fa := range a[i].Folds {
			fb := b[i].Folds[k]
			if fa.Metrics["accuracy"] != fb.Metrics["accuracy"] || !reflect.DeepEqual(fa.Confusion, fb.Confusion) {
				return false
			}
		}
	}
	return true
}

// scheduledMethod is the call whose count and bytes follow the schedule
// rather than the grid: the engine forgets a fold's matrix once its tasks
// are done, no fold in flight holds it and the group has made another, and
// the rest when the group ends, so which digests go in which call (and
// whether one goes twice) depends on the folds that run at once.
const scheduledMethod = "LearnerService/Forget"

// diffCalls lists the counters of two runs' calls that differ (calls,
// messages, bytes), as "plugin method: a vs b", but for Forget (see
// scheduledMethod).
func diffCalls(a, b []outcome.CallStats) []string {
	type key struct{ plugin, method string }
	in := map[key][2]outcome.CallStats{}
	var keys []key
	for side, calls := range [][]outcome.CallStats{a, b} {
		for _, c := range calls {
			if c.Method == scheduledMethod {
				continue
			}
			k := key{c.Plugin, c.Method}
			v, seen := in[k]
			if !seen {
				keys = append(keys, k)
			}
			c.Plugin, c.Method = "", ""
			v[side] = c
			in[k] = v
		}
	}
	var out []string
	for _, k := range keys {
		if v := in[k]; v[0] != v[1] {
			out = append(out, fmt.Sprintf("%s %s: %+v vs %+v", k.plugin, k.method, v[0], v[1]))
		}
	}
	return out
}

// plugintaxSection times the whole letter grid (logreg and svm, ova and
// ovo, 10 folds) run by the engine in this process, once with the plugin
// processes of bin/ and once with the same learners and reducers linked
// in, alternately; it reports the ratio of the medians and the calls and
// bytes per fold.
func plugintaxSection(ctx context.Context, o *options, w io.Writer, stderr io.Writer) error {
	const title = "The plugin tax: plugin processes vs the same plugins linked in"
	dataFile := sectionInput(o, w, title, "letter.csv")
	if dataFile == "" {
		return nil
	}
	file, err := experimentFile(o, "letter_tax.hcl", dataFile)
	if err != nil {
		return err
	}
	const workers = 2
	pluginsDir := filepath.Dir(o.bench)
	var procs, local []*gridRun
	for i := range o.taxPairs {
		for _, viaProcess := range pairOrder(i) {
			plugins, what := "", "linked in"
			if viaProcess {
				plugins, what = pluginsDir, "plugin processes"
			}
			fmt.Fprintf(stderr, "peerbench: plugin tax, run %d of %d, %s\n", i+1, o.taxPairs, what)
			r, err := runTaxGrid(ctx, file, plugins, workers)
			if err != nil {
				return fmt.Errorf("%s: %w", what, err)
			}
			if viaProcess {
				procs = append(procs, r)
			} else {
				local = append(local, r)
			}
		}
	}
	if !sameResults(procs[0].cells, local[0].cells) {
		return errors.New("the plugin processes and the linked-in plugins gave different results")
	}
	pluginTaxGoals(o, procs, local)
	writePluginTax(w, title, procs, local, workers)
	return nil
}

// writePluginTax prints the timings and the calls per fold of the plugin
// processes' first run.
func writePluginTax(w io.Writer, title string, procs, local []*gridRun, workers int) {
	wall := func(rs []*gridRun) time.Duration {
		return median(collect(rs, func(r *gridRun) time.Duration { return r.wall }))
	}
	run := func(rs []*gridRun) time.Duration {
		return median(collect(rs, func(r *gridRun) time.Duration { return r.run }))
	}
	cpu := func(rs []*gridRun) time.Duration {
		return median(collect(rs, func(r *gridRun) time.Duration { return r.cpu }))
	}
	fmt.Fprintf(w, "## %s\n\n", title)
	fmt.Fprintf(w, "`experiments/bench/letter_tax.hcl`: letter (20000 × 16, 26 classes), standardize, logreg and svm (C = 1) × ova (26 problems) and ovo (325 problems), 10-fold stratified CV: %d cells × 10 folds, run by the engine with %d workers, the plugins either as processes (`bin/bench-plugin-*`) or linked in through their public constructors and served by the SDK's gRPC servers on in-memory connections (`host.Register`; same calls, same marshalling, no process or socket). Each run is a fresh process (`peerbench tax-grid`), as `bench run` is: neither mode runs on a heap that earlier runs have grown. Both modes run with the Go runtime's defaults and the system's default scheduling policy. In both modes the score matrices (`Predict` answers, `Decode` requests) lie in a shared memory segment per plugin, not in the messages. Median of %d, run alternately; the results are identical.\n\n",
		len(procs[0].cells), workers, len(procs))
	fmt.Fprintf(w, "| | plugin processes | linked in | ratio |\n| --- | ---: | ---: | ---: |\n")
	fmt.Fprintf(w, "| whole grid (data, plugin starts, folds, plugins closed) | %s | %s | %s |\n", fmtDur(wall(procs)), fmtDur(wall(local)), ratio(wall(procs), wall(local)))
	fmt.Fprintf(w, "| folds only (`engine.Run`) | %s | %s | %s |\n", fmtDur(run(procs)), fmtDur(run(local)), ratio(run(procs), run(local)))
	fmt.Fprintf(w, "| CPU time of the whole grid, all processes (user + system) | %s | %s | **%s** |\n\n", fmtDur(cpu(procs)), fmtDur(cpu(local)), ratio(cpu(procs), cpu(local)))
	fmt.Fprintf(w, "The CPU time is the tax: on a machine shared with other work, the processes' wall time also gains from their larger number of runnable threads (each plugin runs its own Go runtime), which one process does not have.\n\n")
	writeTaxSpread(w, procs, local)
	p := procs[0]
	same := "the same in both modes, but `Forget`'s, which follow the schedule"
	diff := diffCalls(p.calls, local[0].calls)
	if len(diff) > 0 {
		same = "those of the plugin processes; the linked-in run's differ: " + strings.Join(diff, "; ")
	}
	folds := float64(p.stats.Folds)
	fmt.Fprintf(w, "Protocol calls per fold (%d folds: cells × CV folds; %s); uploads: %d:\n\n", p.stats.Folds, same, p.stats.Uploads)
	fmt.Fprintf(w, "| plugin | method | calls | per fold | sent per fold | received per fold |\n| --- | --- | ---: | ---: | ---: | ---: |\n")
	for _, c := range p.calls {
		if c.Calls == 0 || c.Method == "LearnerService/Info" || c.Method == "ReducerService/Info" {
			continue
		}
		fmt.Fprintf(w, "| %s | %s | %d | %.2f | %s | %s |\n", c.Plugin, c.Method, c.Calls, float64(c.Calls)/folds,
			fmtBytes(int64(float64(c.Sent)/folds)), fmtBytes(int64(float64(c.Received)/folds)))
	}
	fmt.Fprintln(w)
}

// pairOrder is the order of the two runs of pair i, the measured one
// (true) and its reference (false): measured first in even pairs, second
// in odd ones, so that a drift of the machine's speed favours neither.
func pairOrder(i int) []bool {
	if i%2 == 1 {
		return []bool{false, true}
	}
	return []bool{true, false}
}

// pairRatios returns, for each pair of runs (a run of each mode, one after
// the other: procs[i] and local[i]), the ratio of of's values.
func pairRatios(procs, local []*gridRun, of func(*gridRun) time.Duration) []float64 {
	return pairedRatios(collect(procs, of), collect(local, of))
}

// writeTaxSpread prints the CPU ratios of the pairs of runs (their median,
// least and largest) and the median page faults and context switches of
// each mode, where the tax goes.
func writeTaxSpread(w io.Writer, procs, local []*gridRun) {
	pairs := pairRatios(procs, local, func(r *gridRun) time.Duration { return r.cpu })
	if len(pairs) == 0 {
		return
	}
	lo, hi := slices.Min(pairs), slices.Max(pairs)
	count := func(rs []*gridRun, f func(osCounts) int64) int64 {
		v := make([]int64, len(rs))
		for i, r := range rs {
			v[i] = f(r.os)
		}
		return median(v)
	}
	faults := func(c osCounts) int64 { return c.faults }
	huge := func(c osCounts) int64 { return c.hugeFaults }
	switches := func(c osCounts) int64 { return c.switches }
	fmt.Fprintf(w, "The CPU ratio of each pair of runs (the two modes one after the other) lies between %.2f and %.2f, median %.2f (the summary's target 3 compares the CPU ratios' median with its bound). "+
		"Where the processes' extra time goes (medians): %d huge pages (2 MiB) faulted in against %d linked in (`thp_fault_alloc` of `/proc/vmstat`, the whole machine's), and %d minor page faults of our processes against %d, huge ones included: each process zeroes the pages of its own heap when it first writes them, the four heaps' peaks add up to more than the one heap's, and on a virtual machine a page the system has not used lately costs far more to fault in than its zeroing; "+
		"and %d context switches against %d (four Go runtimes waking their threads for each message, and more runnable threads than cores while two plugins fit at once).\n\n",
		lo, hi, median(pairs), count(procs, huge), count(local, huge), count(procs, faults), count(local, faults), count(procs, switches), count(local, switches))
}

// collect maps runs to durations.
func collect(rs []*gridRun, f func(*gridRun) time.Duration) []time.Duration {
	out := make([]time.Duration, len(rs))
	for i, r := range rs {
		out[i] = f(r)
	}
	return out
}

// taxTarget is target 3's bound on the plugin tax: the CPU time of the
// whole letter grid through the plugin processes over the same grid with
// the plugins linked in.
const taxTarget = 1.10

// pluginTaxGoals records target 3: the whole letter grid through the plugin
// processes vs linked in, CPU time of all processes (≤ taxTarget), the
// median of the ratios of the runs made one after the other (pairRatios).
func pluginTaxGoals(o *options, procs, local []*gridRun) {
	cpu := func(r *gridRun) time.Duration { return r.cpu }
	o.addGoal(goalResult{goal: 3, what: "plugin tax, whole letter grid (logreg and svm × ova and ovo, 10 folds): plugin processes vs linked in, CPU time of all processes (median of the runs' paired ratios)",
		ours: median(collect(procs, cpu)).Seconds(), peer: median(collect(local, cpu)).Seconds(), unit: unitSeconds, target: taxTarget,
		paired: median(pairRatios(procs, local, cpu))})
}
