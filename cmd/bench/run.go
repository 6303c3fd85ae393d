package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/report"
	"github.com/polyclass/polyclass/framework/sdk"
)

// errReported marks an error already printed (diagnostics).
var errReported = errors.New("errors reported above")

// options are the parsed flags.
type options struct {
	out        string
	jobs       int
	quiet      bool
	plan       bool
	pluginsDir string
	args       []string
	pluginLog  *pluginLog
}

// pluginLog receives the plugins' stderr (each line tagged with the
// plugin's name); it writes to the current run log, or nowhere.
type pluginLog struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *pluginLog) set(w io.Writer) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w = w
}

// Write implements io.Writer.
func (l *pluginLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w == nil {
		return len(p), nil
	}
	return l.w.Write(p)
}

// prepare parses an experiment file (with the seed replaced when seed is
// not nil) and resolves it against its data and plugins, printing every
// diagnostic.
func prepare(ctx context.Context, h *host.Host, file string, seed *uint64, stderr io.Writer) (*engine.Grid, error) {
	p := config.NewParser()
	exp, diags := p.ParseFile(file)
	var grid *engine.Grid
	if !diags.HasErrors() {
		if seed != nil {
			exp.Seed = *seed
		}
		var more hcl.Diagnostics
		grid, more = engine.Resolve(ctx, exp, h)
		diags = append(diags, more...)
	}
	if len(diags) > 0 {
		if err := config.WriteDiagnostics(stderr, p.Files(), diags); err != nil {
			return nil, err
		}
	}
	if diags.HasErrors() {
		n := 0
		for _, d := range diags {
			if d.Severity == hcl.DiagError {
				n++
			}
		}
		fmt.Fprintf(stderr, "%s: %d error(s)\n", file, n)
		return nil, errReported
	}
	return grid, nil
}

// flagSet defines the flags of every command (flagDocs describes them),
// parsed into o.
func flagSet(cmd string, o *options) *flag.FlagSet {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.out, "o", "", "results directory")
	fs.IntVar(&o.jobs, "j", 0, "parallel folds (0: number of CPUs)")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress bar")
	fs.StringVar(&o.pluginsDir, "plugins", "", "plugins directory")
	fs.BoolVar(&o.plan, "plan", false, "list the cells, folds and fits")
	return fs
}

// parseFlags accepts flags before and after positional arguments. It
// returns errHelp for -h, -help and --help.
func parseFlags(cmd string, args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flagSet(cmd, o)
	for {
		if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
			return nil, errHelp
		} else if err != nil {
			return nil, usageError{fmt.Sprintf("%s: %v", cmd, err)}
		}
		if fs.NArg() == 0 {
			break
		}
		o.args = append(o.args, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch {
	case o.jobs < 0:
		return nil, usageError{fmt.Sprintf("%s: -j %d: want 0 (all CPUs) or more", cmd, o.jobs)}
	case o.jobs == 0:
		o.jobs = runtime.NumCPU()
	}
	if o.pluginsDir == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("finding the plugins directory: %w", err)
		}
		o.pluginsDir = filepath.Dir(exe)
	}
	return o, nil
}

// run is the whole command, testable: it writes to stdout and stderr and
// returns an error instead of exiting.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	if len(args) == 0 {
		return usageError{"no command"}
	}
	cmd := args[0]
	switch cmd {
	case "help", "-h", "--help":
		return help(args[1:], stdout)
	case "version", "--version":
		return version(args[1:], stdout)
	}
	c, ok := lookupCommand(cmd)
	if !ok || c.internal {
		return usageError{fmt.Sprintf("unknown command %q", cmd)}
	}
	defer func() { err = forCommand(cmd, err) }()
	o, err := parseFlags(cmd, args[1:], stderr)
	if errors.Is(err, errHelp) {
		c.writeHelp(stdout)
		return nil
	}
	if err != nil {
		return err
	}
	// Plugin stderr streams into the run log once a run opens it.
	o.pluginLog = &pluginLog{}
	h := host.New(o.pluginsDir, o.pluginLog)
	defer h.Close()
	switch cmd {
	case "plugins":
		if len(o.args) != 0 {
			return usageError{"plugins takes no arguments"}
		}
		return listPlugins(ctx, h, stdout)
	case "list":
		return list(ctx, h, o.args, stdout, stderr)
	case "table":
		if len(o.args) != 1 {
			return usageError{"table needs exactly one results directory"}
		}
		return table(o.args[0], stdout)
	case "rerun":
		if len(o.args) != 1 {
			return usageError{"rerun needs exactly one results directory"}
		}
		return rerun(ctx, h, o, stdout, stderr)
	}
	if len(o.args) != 1 {
		return usageError{fmt.Sprintf("%s needs exactly one experiment file", cmd)}
	}
	file := o.args[0]
	grid, err := prepare(ctx, h, file, nil, stderr)
	if err != nil {
		return err
	}
	if cmd == "validate" {
		fmt.Fprintf(stdout, "%s: ok — %d dataset(s), %d pipeline(s), %d learner(s), %d reduction(s): %d cells\n",
			file, len(grid.Datasets), len(grid.Pipelines), len(grid.Learners), len(grid.Reductions), len(grid.Cells))
		writeCodes(stdout, grid.Codes)
		if o.plan {
			return writePlan(ctx, grid, stdout)
		}
		return nil
	}
	return runExperiment(ctx, o, file, grid, stdout, stderr)
}

func runExperiment(ctx context.Context, o *options, file string, g *engine.Grid, stdout, stderr io.Writer) error {
	exp := g.Experiment
	out := o.out
	if out == "" {
		out = exp.Output.Dir
	}
	cellsDir := filepath.Join(out, "cells")
	if err := os.MkdirAll(cellsDir, 0o755); err != nil {
		return fmt.Errorf("results directory: %w", err)
	}
	// Cells of an earlier run of another grid must not mix with this one.
	if old, err := filepath.Glob(filepath.Join(cellsDir, "*.json")); err == nil {
		for _, f := range old {
			os.Remove(f)
		}
	}
	logFile, err := os.Create(filepath.Join(out, "run.log"))
	if err != nil {
		return fmt.Errorf("run log: %w", err)
	}
	defer logFile.Close()
	o.pluginLog.set(logFile)
	defer o.pluginLog.set(nil)

	start := time.Now().UTC()
	total := 0
	for _, c := range g.Cells {
		total += len(c.Dataset.Folds) * c.Dataset.NumFolds
	}
	var bar *progressbar.ProgressBar
	if f, ok := stderr.(*os.File); ok && !o.quiet && term.IsTerminal(int(f.Fd())) {
		bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(stderr),
			progressbar.OptionSetDescription(exp.Name), progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
	}
	opts := engine.Options{Workers: o.jobs, CellsDir: cellsDir, Log: io.MultiWriter(logFile, stderr),
		Timeout: time.Duration(exp.CV.Timeout * float64(time.Second)), KeepPredictions: exp.Output.Predictions}
	if bar != nil {
		opts.Progress = func(done, _ int) { bar.Set(done) }
	}
	fmt.Fprintf(logFile, "bench run %s: %d cells, %d folds in all, %d workers\n", file, len(g.Cells), total, o.jobs)
	results, stats, runErr := engine.Run(ctx, g, opts)
	if bar != nil {
		bar.Finish()
	}
	end := time.Now().UTC()
	written, err := writeOutputs(out, file, exp, g, results, stats, o, start, end)
	if err != nil {
		return errors.Join(runErr, err)
	}
	failed := 0
	for _, r := range results {
		if r.Failed() {
			failed++
		}
	}
	fmt.Fprintf(stdout, "%s: %d cells (%d failed) in %s\n", exp.Name, len(results), failed, end.Sub(start).Round(time.Millisecond))
	for _, w := range written {
		fmt.Fprintf(stdout, "  %s\n", w)
	}
	if runErr != nil {
		return runErr
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d cells failed; see %s", failed, len(results), filepath.Join(out, "run.log"))
	}
	return nil
}

func writeOutputs(out, file string, exp *config.Experiment, g *engine.Grid, results []*engine.CellResult,
	stats engine.Stats, o *options, start, end time.Time) ([]string, error) {
	// An absolute path, so that bench rerun works from any directory.
	if abs, err := filepath.Abs(file); err == nil {
		file = abs
	}
	m := &report.Manifest{
		Experiment: exp.Name, File: file, Seed: exp.Seed, Args: append([]string{"bench", "run"}, o.args...),
		Workers: o.jobs, Start: start, End: end, Cells: len(results), Uploads: stats.Uploads,
		GoVersion: runtime.Version(), Outputs: map[string]string{},
		Metrics: g.Metrics, Formats: exp.Output.Formats, Baseline: exp.Output.Baseline, Alpha: exp.Output.Alpha,
		Predictions: exp.Output.Predictions, ConfusionRows: exp.Output.Confusion,
	}
	if b, err := os.ReadFile(file); err == nil {
		sum := sha256.Sum256(b)
		m.FileSHA256 = hex.EncodeToString(sum[:])
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		m.GoVersion = bi.GoVersion
	}
	for _, d := range g.Datasets {
		m.Datasets = append(m.Datasets, report.DatasetRecord{Name: d.Config.Name, Path: d.Config.Path, SHA256: d.SHA256, Rows: d.Table.NumRows})
	}
	for _, p := range g.Plugins() {
		m.Plugins = append(m.Plugins, report.PluginRecord{Name: p.Name, Version: p.Version(), Path: p.Path, SHA256: p.SHA256})
	}
	for _, r := range results {
		if r.Failed() {
			m.FailedCells++
		}
	}
	written, err := report.WriteAll(out, m, results)
	if err != nil {
		return written, err
	}
	return writeManifest(out, m, written)
}

// writeManifest records the outputs in the manifest and writes it last.
func writeManifest(out string, m *report.Manifest, written []string) ([]string, error) {
	m.Outputs = map[string]string{}
	for _, w := range written {
		m.Outputs[filepath.Base(w)] = w
	}
	path := filepath.Join(out, "manifest.json")
	f, err := os.Create(path)
	if err != nil {
		return written, fmt.Errorf("writing %s: %w", path, err)
	}
	if err := report.WriteManifest(f, m); err != nil {
		f.Close()
		return written, fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return written, fmt.Errorf("writing %s: %w", path, err)
	}
	return append(written, path), nil
}

// readResults loads a results directory: its manifest and cell files.
func readResults(dir string) (*report.Manifest, []*engine.CellResult, error) {
	f, err := os.Open(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, nil, fmt.Errorf("results directory %s: %w", dir, err)
	}
	defer f.Close()
	m, err := report.ReadManifest(f)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "cells", "*.json"))
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(files)
	var cells []*engine.CellResult
	for _, name := range files {
		c, err := engine.ReadCell(name)
		if err != nil {
			return nil, nil, err
		}
		cells = append(cells, c)
	}
	sort.Slice(cells, func(i, j int) bool { return cells[i].Index < cells[j].Index })
	return m, cells, nil
}

// table renders the tables of a results directory again.
func table(dir string, stdout io.Writer) error {
	m, cells, err := readResults(dir)
	if err != nil {
		return err
	}
	written, err := report.WriteAll(dir, m, cells)
	if err != nil {
		return err
	}
	if written, err = writeManifest(dir, m, written); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d cells\n", m.Experiment, len(cells))
	for _, w := range written {
		fmt.Fprintf(stdout, "  %s\n", w)
	}
	return nil
}

// writeCodes prints the code-matrix diagnostics of the reductions.
func writeCodes(w io.Writer, codes []engine.CodeInfo) {
	if len(codes) == 0 {
		return
	}
	fmt.Fprintf(w, "\ncode matrices (distances count a 0 entry as 1/2):\n")
	fmt.Fprintf(w, "  %-10s %-40s %4s %4s %6s %7s %8s\n", "dataset", "reduction", "K", "L", "d_min", "d_mean", "corrects")
	for _, c := range codes {
		d := c.Diagnostics
		fmt.Fprintf(w, "  %-10s %-40s %4d %4d %6g %7.2f %8d\n", c.Dataset, c.Reduction, int(d["K"]), int(d["L"]), d["d_min"], d["d_mean"], int(d["correcting"]))
		for _, warn := range c.Warnings {
			fmt.Fprintf(w, "    warning: %s\n", warn)
		}
	}
}

func listPlugins(ctx context.Context, h *host.Host, w io.Writer) error {
	bins, err := h.Binaries()
	if err != nil {
		return err
	}
	if len(bins) == 0 {
		fmt.Fprintf(w, "no plugins (%s*) in %s\n", host.BinaryPrefix, h.Dir())
		return nil
	}
	var unavailable []string
	for _, b := range bins {
		p, err := h.Get(ctx, b.Name)
		if err != nil {
			// A plugin that cannot start (a Python plugin without its
			// packages, a broken binary) is not listed; the reason is.
			unavailable = append(unavailable, fmt.Sprintf("%s (%s): %v", b.Name, b.Path, err))
			continue
		}
		fmt.Fprintf(w, "%s %s\n  path: %s\n  sha256: %s\n", p.Name, p.Version(), p.Path, p.SHA256)
		if li := p.LearnerInfo; li != nil {
			c := li.Capabilities
			var caps []string
			for _, x := range []struct {
				on   bool
				name string
			}{{c.Binary, "binary"}, {c.Multiclass, "multiclass"}, {c.Regression, "regression"},
				{c.Scores, "scores"}, {c.Probabilities, "probabilities"}, {c.Sparse, "sparse"}} {
				if x.on {
					caps = append(caps, x.name)
				}
			}
			fmt.Fprintf(w, "  learner: %s\n  capabilities: %s\n", li.Description, strings.Join(caps, ", "))
			writeParams(w, "  ", li.Params)
		}
		if ri := p.ReducerInfo; ri != nil {
			fmt.Fprintf(w, "  reducer: %s\n", ri.Description)
			for _, s := range ri.Schemes {
				fmt.Fprintf(w, "  scheme %s: %s\n", s.Name, s.Description)
				writeParams(w, "    ", s.Params)
			}
		}
		fmt.Fprintln(w)
	}
	if len(unavailable) > 0 {
		fmt.Fprintf(w, "not available (cannot start):\n")
		for _, u := range unavailable {
			fmt.Fprintf(w, "  %s\n", strings.ReplaceAll(u, "\n", "\n    "))
		}
	}
	return nil
}

func writeParams(w io.Writer, indent string, specs []sdk.ParamSpec) {
	specs = append([]sdk.ParamSpec(nil), specs...)
	sort.SliceStable(specs, func(i, j int) bool { return specs[i].Name < specs[j].Name })
	for _, s := range specs {
		line := fmt.Sprintf("%sparam %s (%s)", indent, s.Name, s.Type)
		if !s.Default.IsNull() {
			line += " default " + s.Default.String()
		}
		if s.Min != nil {
			op := ">="
			if s.MinExclusive {
				op = ">"
			}
			line += fmt.Sprintf(" %s %v", op, *s.Min)
		}
		if s.Max != nil {
			line += fmt.Sprintf(" <= %v", *s.Max)
		}
		if len(s.Allowed) > 0 {
			line += " one of " + strings.Join(s.Allowed, "|")
		}
		if s.Description != "" {
			line += ": " + s.Description
		}
		fmt.Fprintln(w, line)
	}
}
