package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/schollz/progressbar/v3"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/report"
	"github.com/polyclass/polyclass/framework/results"
	"github.com/polyclass/polyclass/framework/shard"
	"github.com/polyclass/polyclass/internal/profile"
)

// errReported marks an error already printed (diagnostics).
var errReported = errors.New("errors reported above")

// printed is an error that was printed on stderr when it happened: it is
// errReported, so that main does not print it a second time, and keeps
// its words for a caller that reads them.
type printed struct{ error }

// Is makes a printed error errReported.
func (p printed) Is(target error) bool { return target == errReported }

// Unwrap returns the error printed.
func (p printed) Unwrap() error { return p.error }

// options are the parsed flags.
type options struct {
	out     string
	jobs    int
	quiet   bool
	verbose bool
	plan    bool
	// pluginsDir is the --plugins value as given ("" when none is);
	// plugins are the directories it names, or bench's own directory.
	pluginsDir string
	plugins    []string
	fresh      bool
	// freshReason is why fresh moves an earlier run's files aside, in the
	// notes (results.Options.FreshReason): a rerun sets fresh itself.
	freshReason string
	// keepOtherBench keeps the cells another build of bench computed
	// (run; results.Options.KeepOtherBench).
	keepOtherBench bool
	// adopt writes into a directory that is not bench's (run;
	// results.Options.Adopt).
	adopt   bool
	shard   string // --shard I/N (run)
	profile string // --profile DIR (run)
	// within is the results directory out is an entry of (a rerun's
	// DIR/rerun; results.Options.Within), "" otherwise.
	within string
	// set holds the names of the flags the command line gives.
	set map[string]bool

	// bench submit (shards also: bench run, validate --plan)
	shards      int
	partition   string
	time        string
	cpus        int
	mem         string
	now         bool
	image       string
	claim       string
	parallelism int
	// denseBudget bounds a sparse matrix densified for a learner without
	// the sparse capability (engine.Options.DenseBudget); 0: the default.
	denseBudget byteSize
	// noShare fits each cell's problems for it alone
	// (engine.Options.NoShare).
	noShare   bool
	args      []string
	pluginLog *pluginLog
	// checkLimit bounds each check of bench plugin check
	// (conformance.Target.Timeout); 0: conformance.DefaultTimeout.
	checkLimit time.Duration
	// timeline records the run's stages (--profile); nil records none.
	timeline *timeline
}

// pluginLog receives the plugins' stderr (each line tagged with the
// plugin's name); it writes to the current run log, or nowhere, at most
// maxPluginLog bytes of it per run log: a plugin that floods its stderr
// (campaign 5: 32 MiB per fit made a 289 MB run.log of a 9-fit run) has
// the rest dropped, which one line of the log says.
type pluginLog struct {
	mu      sync.Mutex
	w       io.Writer
	written int64
	full    bool
}

// maxPluginLog bounds the plugins' stderr a run log holds: 16 MiB.
const maxPluginLog = 16 << 20

func (l *pluginLog) set(w io.Writer) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w, l.written, l.full = w, 0, false
}

// Write implements io.Writer.
func (l *pluginLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w == nil || l.full {
		return len(p), nil
	}
	if l.written+int64(len(p)) > maxPluginLog {
		l.full = true
		fmt.Fprintf(l.w, "bench: the plugins wrote more than %d MiB to stderr: the rest is not logged\n", maxPluginLog>>20)
		return len(p), nil
	}
	l.written += int64(len(p))
	return l.w.Write(p)
}

// defaultReducer is the plugin of a reduction that names none, when it
// offers the reduction's scheme: the reducers bench ships (plugins/reducers).
// Another plugin's scheme is found by asking every plugin.
const defaultReducer = "reducers"

// prepare parses an experiment file (with the seed replaced when seed is
// not nil) and resolves it against its data and plugins, printing every
// diagnostic, and returns the grid with its warnings (see warnings);
// ro.DenseBudget is the run's --dense-budget (0: the default),
// against which the cells of learners that take dense input only are
// checked, and ro.FailUnstarted, set for a command that runs cells, keeps
// a learner whose plugin does not start, its cells failing (a check
// reports the plugin as an error); prepare sets ro.DefaultReducer. With wantSHA256 set (a rerun's recorded digest), bytes of
// another digest are refused before they are parsed: the file is read
// once, so the bytes checked are the bytes parsed.
func prepare(ctx context.Context, h *host.Host, file, wantSHA256 string, seed *uint64, ro engine.ResolveOptions, stderr io.Writer) (*engine.Grid, []string, error) {
	p := config.NewParser(report.FormatNames())
	exp, diags, err := parseChecked(p, file, wantSHA256)
	if err != nil {
		return nil, nil, err
	}
	var grid *engine.Grid
	// A file the parser read whole is resolved even when it found errors
	// in it, so that one pass reports every problem; what the resolver
	// finds in a block with a parser error, or about no place, may be a
	// consequence of that error and is left out.
	if exp != nil {
		if seed != nil {
			exp.Seed = *seed
		}
		var more hcl.Diagnostics
		ro.DefaultReducer = defaultReducer
		grid, more = engine.Resolve(ctx, exp, h, ro)
		if ctx.Err() != nil {
			// Interrupted while starting the plugins: their "errors" are
			// the interruption, not the file's.
			return nil, nil, fmt.Errorf("interrupted before the run started (nothing computed; the results directory is as it was): %w", context.Cause(ctx))
		}
		if diags.HasErrors() {
			more = slices.DeleteFunc(config.Outside(more, exp.Faulty), func(d *hcl.Diagnostic) bool { return d.Subject == nil })
		}
		partial := diags.HasErrors() || more.HasErrors()
		diags = append(diags, more...)
		if !partial {
			diags = append(diags, engine.CheckCells(grid)...)
		}
		// The grid holds what bound: with errors elsewhere, a row it
		// lacks may be one that failed to bind (see checkGrid).
		diags = append(diags, config.Outside(checkGrid(grid, partial), exp.Faulty)...)
		diags = append(diags, checkIdentities(grid)...)
		diags = append(diags, checkExperimentName(exp)...)
	}
	if len(diags) > 0 {
		if err := config.WriteDiagnostics(stderr, p.Files(), diags); err != nil {
			return nil, nil, err
		}
		io.WriteString(stderr, pluginsHint(diags, h.Dirs(), benchDir()))
	}
	if diags.HasErrors() {
		n := 0
		for _, d := range diags {
			if d.Severity == hcl.DiagError {
				n++
			}
		}
		fmt.Fprintf(stderr, "%s: %d error(s)\n", file, n)
		return nil, nil, errReported
	}
	return grid, warnings(diags, grid), nil
}

// flagSet defines the flags of every command (flagDocs describes them),
// parsed into o.
func flagSet(cmd string, o *options) *flag.FlagSet {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.out, "o", "", "results directory")
	fs.IntVar(&o.jobs, "j", 0, "parallel folds (0: number of CPUs)")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress bar")
	fs.BoolVar(&o.verbose, "verbose", false, "list every file written")
	fs.StringVar(&o.pluginsDir, "plugins", "", "plugins directory")
	fs.BoolVar(&o.plan, "plan", false, "list the cells, folds and fits")
	fs.BoolVar(&o.fresh, "fresh", false, "start over instead of resuming")
	fs.BoolVar(&o.keepOtherBench, "keep-other-bench", false, "keep cells another build of bench computed")
	fs.BoolVar(&o.adopt, "adopt", false, "write into a directory that is not bench's")
	fs.StringVar(&o.shard, "shard", "", "run shard I of N (I/N)")
	fs.IntVar(&o.shards, "shards", 0, "number of shards")
	fs.StringVar(&o.partition, "partition", "", "Slurm partition")
	fs.StringVar(&o.time, "time", "", "Slurm time limit")
	fs.IntVar(&o.cpus, "cpus", 0, "CPUs per task")
	fs.StringVar(&o.mem, "mem", "", "memory per task")
	fs.BoolVar(&o.now, "now", false, "submit with sbatch")
	fs.StringVar(&o.image, "image", "", "container image")
	fs.StringVar(&o.claim, "claim", "polyclass-results", "PersistentVolumeClaim of the results")
	fs.IntVar(&o.parallelism, "parallelism", 0, "shards running at once")
	fs.Var(&o.denseBudget, "dense-budget", "bound on a densified matrix")
	fs.StringVar(&o.profile, "profile", "", "profiles directory")
	fs.BoolVar(&o.noShare, "no-share", false, "fit each cell's problems for it alone")
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
	o.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
	if err := gateArgs(fs, o.args); err != nil {
		return nil, usageError{fmt.Sprintf("%s: %v", cmd, err)}
	}
	if err := checkSetFlags(cmd, o); err != nil {
		return nil, err
	}
	switch {
	case o.jobs < 0:
		return nil, usageError{fmt.Sprintf("%s: -j %d: want 0 (all CPUs) or more", cmd, o.jobs)}
	case o.jobs == 0:
		o.jobs = runtime.NumCPU()
	}
	plugins, err := pluginDirs(cmd, o)
	if err != nil {
		return nil, err
	}
	o.plugins = plugins
	return o, nil
}

// pluginDirs is the plugin directories of o: those of --plugins, split at
// os.PathListSeparator, empty entries left out and each relative one made
// absolute against the working directory (as -o is: "--plugins DIR:bin"
// names the bin of the directory bench is started in), now, so that no
// later step searches a relative directory; without --plugins, bench's own
// directory, one directory even when its path holds the separator.
func pluginDirs(cmd string, o *options) ([]string, error) {
	if !o.set["plugins"] {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("finding the plugins directory: %w", err)
		}
		return []string{filepath.Dir(exe)}, nil
	}
	dirs := host.SplitDirs(o.pluginsDir)
	if len(dirs) == 0 {
		return nil, usageError{fmt.Sprintf("%s: --plugins %q: want a directory, or several separated by %q (leave --plugins out for bench's own directory)", cmd, o.pluginsDir, string(os.PathListSeparator))}
	}
	for i, d := range dirs {
		if err := checkUnexpanded(cmd+": --plugins", d); err != nil {
			return nil, err
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, fmt.Errorf("%s: --plugins %s: %w", cmd, d, err)
		}
		dirs[i] = abs
	}
	return dirs, nil
}

// checkSetFlags refuses a flag given a value that means nothing, before
// anything is loaded or sized by it: an empty -o (it would write to the
// experiment's default directory, as if -o were absent) and a --shards
// outside [1, shard.MaxCount] (--shards 0 would be ignored, a huge count
// sized the assignment).
func checkSetFlags(cmd string, o *options) error {
	if err := checkFlagsOf(cmd, o); err != nil {
		return err
	}
	if o.set["o"] && o.out == "" {
		return usageError{fmt.Sprintf("%s: -o '': want a directory (leave -o out for the experiment's output directory)", cmd)}
	}
	for _, f := range []struct{ flag, shown, dir string }{{"o", "-o", o.out}, {"profile", "--profile", o.profile}} {
		if err := checkUnexpanded(cmd+": "+f.shown, f.dir); o.set[f.flag] && err != nil {
			return err
		}
	}
	if o.set["shards"] {
		if o.shards < 1 {
			return usageError{fmt.Sprintf("%s: --shards %d: want 1 or more shards", cmd, o.shards)}
		}
		if err := shard.CheckCount(o.shards); err != nil {
			return usageError{fmt.Sprintf("%s: --shards %d: %v", cmd, o.shards, err)}
		}
	}
	return nil
}

// checkUnexpanded refuses a directory that holds what a shell would
// have expanded (config.Unexpanded): it reached bench as written, quoted
// or after "=" (-o=~/x, -o '$HOME/x'), and would name a directory "~" or
// "$HOME" here.
func checkUnexpanded(what, dir string) error {
	kind, why := config.Unexpanded(dir)
	switch kind {
	case config.HomeDirectory:
		return usageError{fmt.Sprintf("%s %q %s, which bench does not expand (a shell expands it only unquoted, at a word's start: ~/x, not \"~/x\" or -o=~/x): write the path out", what, dir, why)}
	case config.ShellVariable:
		return usageError{fmt.Sprintf("%s %q %s, which bench does not expand (a shell expands it outside single quotes: \"$HOME/x\", not '$HOME/x'): write the path out", what, dir, why)}
	}
	return nil
}

// checkFlagsOf refuses a flag that command cmd does not take (its flags
// in commands, and everyCommandFlags), naming the commands that take it:
// bench run --plan ran the whole experiment, ignoring --plan, where bench
// validate --plan lists it. submit checks its flags per scheduler.
func checkFlagsOf(cmd string, o *options) error {
	c, ok := lookupCommand(cmd)
	if !ok || cmd == "submit" {
		return nil
	}
	takes := slices.Clone(c.flags)
	for _, f := range everyCommandFlags {
		if !slices.Contains(takes, f) {
			takes = append(takes, f)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(o.set)) {
		if !slices.Contains(takes, name) {
			return usageError{fmt.Sprintf("%s: %s is not a flag of %s (it takes %s)%s", cmd, flagDocs[name][0], cmd, flagList(takes), takenBy(name))}
		}
	}
	return nil
}

// takenBy says which commands take the flag name ("; --plan is a flag of
// bench validate"), "" when none does.
func takenBy(name string) string {
	var by []string
	for _, c := range commands {
		if slices.Contains(c.flags, name) {
			by = append(by, "bench "+c.name)
		}
	}
	if len(by) == 0 {
		return ""
	}
	return "; " + flagDocs[name][0] + " is a flag of " + strings.Join(by, ", ")
}

// run is the whole command, testable: it writes to stdout and stderr and
// returns an error instead of exiting.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	if len(args) == 0 {
		return usageError{"no command"}
	}
	cmd := args[0]
	if done, err := builtinCommand(cmd, args[1:], stdout); done {
		return err
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
	return withHost(ctx, cmd, o, stdout, stderr)
}

// builtinCommand runs help and version, the commands that need neither
// flags nor plugins; done reports whether cmd was one of them.
func builtinCommand(cmd string, args []string, stdout io.Writer) (done bool, err error) {
	switch cmd {
	case "help", "-h", "--help":
		return true, help(args, stdout)
	case "version", "--version":
		if len(args) == 1 && isHelpFlag(args[0]) {
			return true, help([]string{"version"}, stdout)
		}
		return true, version(args, stdout)
	}
	return false, nil
}

// withHost runs the command cmd with a plugin host, which it closes after
// (aborts, when ctx was cancelled), and the profiles of bench run
// --profile.
func withHost(ctx context.Context, cmd string, o *options, stdout, stderr io.Writer) error {
	// Plugin stderr streams into the run log once a run opens it.
	o.pluginLog = &pluginLog{}
	h := host.NewDirs(o.plugins, o.pluginLog)
	command := func() error { return hostCommand(ctx, h, cmd, o, stdout, stderr) }
	if o.profile != "" && cmd == "run" {
		if o.out != "" && results.Inside(o.profile, o.out) {
			return fmt.Errorf("--profile %s: inside the results directory %s of this run, whose entries bench manages: choose a directory outside it", o.profile, o.out)
		}
		// The timeline's last mark comes after command's host Close: the
		// plugins have ended, so their CPU time is known.
		o.timeline = newTimeline()
		return profiled(h, o.profile, func(d *profile.Dir) error {
			err := command()
			o.timeline.mark("close")
			return errors.Join(err, o.timeline.write(d))
		})
	}
	return command()
}

// profiled runs f under the profiles of bench run --profile dir
// (startProfiles), which it stops after f returns: their error, a heap
// profile that cannot be written, say, joins f's. f gets the profile
// directory to write the timeline into.
func profiled(h *host.Host, dir string, f func(*profile.Dir) error) (err error) {
	d, stop, err := startProfiles(h, dir)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, stop(), d.Close()) }()
	return f(d)
}

// hostCommand runs the command cmd (dispatch) with the plugins of h,
// which it closes after, or aborts when ctx ended.
func hostCommand(ctx context.Context, h *host.Host, cmd string, o *options, stdout, stderr io.Writer) error {
	defer func() {
		// Interrupted: the plugins get a short grace (Ctrl-C ends bench
		// within a second or two even with plugins stopped or stuck).
		if ctx.Err() != nil {
			h.Abort()
			return
		}
		h.Close()
	}()
	return dispatch(ctx, h, cmd, o, stdout, stderr)
}

// dispatch runs the command cmd: one of the commands on a results
// directory or the plugins, else one on an experiment file.
func dispatch(ctx context.Context, h *host.Host, cmd string, o *options, stdout, stderr io.Writer) error {
	switch cmd {
	case "plugins":
		if len(o.args) != 0 {
			return usageError{"plugins takes no arguments"}
		}
		return listPlugins(ctx, h, stdout)
	case "list":
		return list(ctx, h, o.args, stdout, stderr)
	case "plugin":
		return pluginCommand(ctx, o, stdout, stderr)
	case "table":
		if len(o.args) != 1 {
			return usageError{"table needs exactly one results directory"}
		}
		return table(o.args[0], o.verbose, stdout, stderr)
	case "rerun":
		if len(o.args) != 1 {
			return usageError{"rerun needs exactly one results directory"}
		}
		return rerun(ctx, h, o, stdout, stderr)
	case "submit":
		return submit(ctx, h, o, stdout, stderr)
	case "merge":
		return merge(o, stdout, stderr)
	}
	return experimentCommand(ctx, h, cmd, o, stdout, stderr)
}

// experimentCommand runs validate or run on the one experiment file of
// its arguments.
func experimentCommand(ctx context.Context, h *host.Host, cmd string, o *options, stdout, stderr io.Writer) error {
	if len(o.args) != 1 {
		return usageError{fmt.Sprintf("%s needs exactly one experiment file", cmd)}
	}
	if o.shard != "" {
		if _, err := shard.Parse(o.shard); err != nil {
			return usageError{fmt.Sprintf("%s: --shard: %v", cmd, err)} // before the data is loaded
		}
	}
	file := o.args[0]
	// bench run fails the cells of a plugin that does not start and runs
	// the others; bench validate, a check, reports it as an error.
	ro := engine.ResolveOptions{DenseBudget: int64(o.denseBudget), FailUnstarted: cmd == "run"}
	grid, warns, err := prepare(ctx, h, file, "", nil, ro, stderr)
	if err != nil {
		return err
	}
	o.timeline.mark("read")
	if cmd == "validate" {
		return validated(ctx, o, file, grid, stdout)
	}
	printCodeWarnings(stderr, grid)
	return runExperiment(ctx, o, file, grid, warns, stdout, stderr)
}

// validated writes what bench validate says of a valid experiment: its
// counts, its codes and, with --plan, the plan of its shards.
func validated(ctx context.Context, o *options, file string, grid *engine.Grid, stdout io.Writer) error {
	fmt.Fprintf(stdout, "%s: ok — %s, %s, %s, %s: %s\n", file, plural(len(grid.Datasets), "dataset"),
		plural(len(grid.Pipelines), "pipeline"), plural(len(grid.Learners), "learner"),
		plural(len(grid.Reductions), "reduction"), plural(len(grid.Cells), "cell"))
	writeCodes(stdout, grid.Codes)
	if o.plan {
		return writePlan(ctx, grid, o.shards, stdout)
	}
	return nil
}

// runExperiment runs the cells of grid g, read from file, into its
// results directory; warns are the experiment's warnings (see warnings),
// which the manifest records for the report.
func runExperiment(ctx context.Context, o *options, file string, g *engine.Grid, warns []string, stdout, stderr io.Writer) error {
	exp := g.Experiment
	out := o.out
	if out == "" {
		out = exp.Output.Dir
	}
	spec, err := shardOf(o, out)
	if err != nil {
		return err
	}
	// A cell that cannot be saved (a full disk) stops the run: the cells
	// after it could not be saved either.
	ctx, stopRun := context.WithCancelCause(ctx)
	defer stopRun(nil)
	b, err := beginRun(ctx, o, file, out, g, spec, warns, stopRun, stderr)
	if err != nil {
		return err
	}
	o.timeline.mark("begin")
	start := time.Now()
	runStart := time.Now()
	cells, stats, runErr := b.compute(ctx, o, file, g, stderr)
	runWall := time.Since(runStart)
	o.timeline.folds(stats, runWall)
	status := runStatus(ctx, runErr)
	// A tuned parameter chosen on the edge of its grid in most outer
	// folds: the run says so where it is read, not only in the report.
	for _, e := range report.NamedTuningEdges(b.manifest.Rows, cells) {
		fmt.Fprintf(io.MultiWriter(b.run.Log(), stderr), "warning: tuning: %s\n", e)
	}
	calls := g.Host.Calls()
	fmt.Fprintln(b.run.Log(), fitsLine(stats))
	writePhases(b.run.Log(), stats, runWall)
	writeCalls(b.run.Log(), calls, stats.Folds)
	b.manifest.Calls = calls
	o.pluginLog.set(nil)
	logPath := b.run.LogPath()
	o.timeline.mark("folds")
	written, err := b.run.Finish(status, stats.Uploads)
	o.timeline.mark("finish")
	if errors.Is(err, results.ErrDirGone) {
		// runErr is the same news (the run was stopped for it), which the
		// run printed when it happened.
		if b.run.GoneNoted(err) {
			return printed{err}
		}
		return err
	}
	if err != nil {
		return errors.Join(runErr, err)
	}
	ended := runEnd{name: exp.Name, status: status, cells: len(cells), kept: len(b.kept), total: len(g.Cells), elapsed: time.Since(start), dir: out, written: written, verbose: o.verbose, stats: stats}
	for _, r := range cells {
		if r.Failed() {
			ended.failed++
		}
	}
	if spec != nil {
		ended.name = fmt.Sprintf("%s shard %s", exp.Name, spec)
		ended.total, ended.shard = len(b.shard.Cells), true
	}
	ended.print(stdout)
	if spec != nil && runErr == nil {
		fmt.Fprint(stdout, mergeHint(out, *spec))
	}
	return runVerdict(runErr, status, ended.failed, len(cells), logPath)
}

// begunRun is a run begun in its results directory: the cells it keeps,
// the shard it computes (nil for a whole run) and the cells it selects.
type begunRun struct {
	run        *results.Run
	manifest   *results.Manifest
	kept       map[int]*outcome.CellResult
	shard      *results.Shard
	spec       *shard.Spec
	selectCell func(int) bool
}

// beginRun begins the run of g (of shard spec, when not nil) into out:
// the cells it keeps, its manifest, its log, into which the plugins'
// stderr then streams.
func beginRun(ctx context.Context, o *options, file, out string, g *engine.Grid, spec *shard.Spec, warns []string, stopRun context.CancelCauseFunc, stderr io.Writer) (*begunRun, error) {
	specs := engine.Specs(g, benchBuild())
	digests := engine.Digests(specs)
	ropt := results.Options{Fresh: o.fresh, FreshReason: o.freshReason, Notes: stderr, Render: renderer(stderr), Stop: stopRun, Specs: specs, KeepOtherBench: o.keepOtherBench,
		Inputs: experimentInputs(file, g.Experiment), Adopt: o.adopt, Within: o.within}
	b := &begunRun{spec: spec}
	if spec != nil {
		var err error
		if ropt.Shard, err = shardCells(ctx, g, *spec, digests); err != nil {
			return nil, err
		}
		b.shard = ropt.Shard
		b.selectCell = shardSelect(ropt.Shard)
	}
	b.manifest = newManifest(file, g, o)
	b.manifest.Warnings = warns
	if o.profile != "" && results.Inside(o.profile, out) {
		return nil, fmt.Errorf("--profile %s: inside the results directory %s of this run, whose entries bench manages: choose a directory outside it", o.profile, out)
	}
	run, err := results.Begin(out, b.manifest, digests, ropt)
	if err != nil {
		return nil, err
	}
	b.run, b.kept = run, run.Kept()
	o.pluginLog.set(run.Log())
	return b, nil
}

// compute computes the cells of the begun run, with a progress bar on a
// terminal (else a line of progress a minute, unless quiet), and logs
// what it is about to do first.
func (b *begunRun) compute(ctx context.Context, o *options, file string, g *engine.Grid, stderr io.Writer) ([]*outcome.CellResult, engine.Stats, error) {
	exp := g.Experiment
	var weights map[int]int
	if showProgress(stderr, o.quiet) {
		weights = foldWeights(ctx, g)
	}
	total, folds := foldsToRun(g, b.kept, b.selectCell, weights)
	var bar *progressbar.ProgressBar
	if weights != nil {
		bar = newProgressBar(stderr, exp.Name, total)
	}
	opts := engine.Options{Workers: o.jobs, Sink: b.run, Done: b.kept, Select: b.selectCell, Log: io.MultiWriter(b.run.Log(), stderr),
		Timeout: time.Duration(exp.CV.Timeout * float64(time.Second)), KeepPredictions: exp.Output.Predictions,
		DenseBudget: int64(o.denseBudget), NoShare: o.noShare}
	var lines *progressLines
	switch {
	case bar != nil:
		opts.Weight = func(c *engine.Cell) int { return weights[c.Index] }
		opts.Progress = func(done, _ int) { bar.Set(done) }
	case !o.quiet:
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		start := time.Now()
		lines = startProgressLines(stderr, exp.Name, tick.C, func() time.Duration { return time.Since(start) })
		opts.Progress = lines.set
	}
	what := plural(len(g.Cells), "cell")
	if b.spec != nil {
		what = fmt.Sprintf("shard %s, %s", b.spec, nOf(len(b.shard.Cells), len(g.Cells), "cell"))
	}
	fmt.Fprintf(b.run.Log(), "bench run %s: %s (%d kept), %s to run, %s\n", file, what, len(b.kept), plural(folds, "fold"), plural(o.jobs, "worker"))
	cells, stats, runErr := engine.Run(ctx, g, opts)
	if bar != nil {
		bar.Finish()
	}
	if lines != nil {
		lines.finish()
	}
	return cells, stats, runErr
}

// runVerdict is the error of a run that ended with runErr and status,
// failed of its cells failing (see the log at logPath): nil when it
// finished and every cell succeeded.
func runVerdict(runErr error, status results.Status, failed, cells int, logPath string) error {
	if runErr != nil && status == results.StatusInterrupted {
		return fmt.Errorf("%w\nrun the same command again to resume: %s", runErr, keptCells(cells))
	}
	if runErr != nil {
		return runErr
	}
	if failed > 0 {
		return fmt.Errorf("%s failed; see %s", nOf(failed, cells, "cell"), logPath)
	}
	return nil
}

// shardSelect reports whether a cell (by index) belongs to shard s.
func shardSelect(s *results.Shard) func(int) bool {
	mine := make(map[int]bool, len(s.Cells))
	for _, c := range s.Cells {
		mine[c.Index] = true
	}
	return func(i int) bool { return mine[i] }
}

// foldsToRun counts the folds of the cells a run computes: those neither
// kept from an earlier run nor outside the selection (nil selects every
// cell). total weighs each fold by its cell's weight, for the progress
// bar; without weights it equals folds.
func foldsToRun(g *engine.Grid, kept map[int]*outcome.CellResult, selectCell func(int) bool, weights map[int]int) (total, folds int) {
	for _, c := range g.Cells {
		if kept[c.Index] != nil || (selectCell != nil && !selectCell(c.Index)) {
			continue
		}
		n := len(c.Dataset.Folds) * c.Dataset.NumFolds
		folds += n
		if weights != nil {
			n *= weights[c.Index]
		}
		total += n
	}
	return total, folds
}

// runStatus is the status the manifest records for a run that ended
// with runErr: interrupted when ctx was done, failed on another error.
func runStatus(ctx context.Context, runErr error) results.Status {
	switch {
	case runErr == nil:
		return results.StatusComplete
	case ctx.Err() != nil:
		return results.StatusInterrupted
	}
	return results.StatusFailed
}

// runEnd is what the last lines of a run say: how many cells ended, how
// many failed or were kept, and the files written.
type runEnd struct {
	name    string // the experiment, and the shard of a sharded run
	status  results.Status
	cells   int  // cells with a result, kept ones included
	failed  int  // of cells
	kept    int  // of cells, from an earlier run
	total   int  // cells of the run (of the shard when shard)
	shard   bool // a shard writes no tables
	elapsed time.Duration
	dir     string       // the results directory
	written []string     // the files written into it
	verbose bool         // list every file written, not a summary
	stats   engine.Stats // the fits requested and made
}

// fitsLine says how many models the run's folds used and how many the
// learners trained: fewer where cells shared the fits of one problem.
func fitsLine(s engine.Stats) string {
	return fmt.Sprintf("fits: %d requested, %d made", s.FitsRequested, s.FitsMade)
}

func (e runEnd) print(w io.Writer) {
	resumed := ""
	if e.kept > 0 {
		resumed = fmt.Sprintf(", %d kept from an earlier run", e.kept)
	}
	count := plural(e.cells, "cell")
	if e.status == results.StatusInterrupted {
		what := ", the tables partial"
		if e.shard {
			what = ""
		}
		count = fmt.Sprintf("interrupted, %s%s", nOf(e.cells, e.total, "cell"), what)
	}
	fits := ""
	if e.stats.FitsRequested > 0 {
		fits = "; " + fitsLine(e.stats)
	}
	fmt.Fprintf(w, "%s: %s (%d failed%s) in %s%s\n", e.name, count, e.failed, resumed, e.elapsed.Round(time.Millisecond), fits)
	writtenSummary(w, e.dir, e.written, e.cells, e.shard, e.verbose)
}

// table renders the tables of a results directory again; a directory that
// shards wrote (and no whole run) is merged in place.
func table(dir string, verbose bool, stdout, stderr io.Writer) error {
	if n, err := results.ShardCount(dir); err == nil && n > 0 {
		m, err := results.ReadManifest(dir)
		if errors.Is(err, os.ErrNotExist) || (err == nil && m.MergedShards > 0) {
			return writeMerge(dir, []string{dir}, verbose, stdout, stderr)
		}
	}
	m, written, err := results.Render(dir, renderer(stderr), stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %s\n", m.Experiment, plural(m.Finished, "cell"))
	if m.Finished < m.Cells {
		fmt.Fprintf(stdout, "  partial: %s finished (run status: %s)\n", nOf(m.Finished, m.Cells, "cell"), m.Status)
	}
	writtenSummary(stdout, dir, written, m.Finished, false, verbose)
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
		if d == nil { // a plugin's code matrix without diagnostics
			fmt.Fprintf(w, "  %-10s %-40s %4s %4s %6s %7s %8s\n", c.Dataset, c.Reduction, "–", "–", "–", "–", "–")
		} else {
			fmt.Fprintf(w, "  %-10s %-40s %4d %4d %6g %7.2f %8d\n", c.Dataset, c.Reduction, d.Classes, d.Columns, d.MinDistance, d.MeanDistance, d.Correcting)
		}
		for _, warn := range c.Warnings {
			fmt.Fprintf(w, "    warning: %s\n", warn)
		}
	}
}

// described returns ": description", or ": (no description)" for none, so
// that `bench plugins` never prints a bare "learner" line (its parameters
// and capabilities follow it).
func described(description string) string {
	if strings.TrimSpace(description) == "" {
		return ": (no description)"
	}
	return ": " + description
}

func listPlugins(ctx context.Context, h *host.Host, w io.Writer) error {
	bins, err := h.Binaries()
	if err != nil {
		return err
	}
	notExec := host.NotExecutable(h.Dirs())
	if len(bins) == 0 && len(notExec) == 0 {
		fmt.Fprintf(w, "no plugins (%s*) in %s\n", host.BinaryPrefix, h.Dir())
		return nil
	}
	var unavailable []string
	for _, b := range bins {
		p, err := h.Get(ctx, b.Name)
		if err != nil {
			// A plugin that cannot start (a Python plugin without its
			// packages, a broken binary) is not listed; the reason is.
			u := err.Error()
			if !strings.Contains(u, b.Path) { // the host's errors name the plugin and path
				u = fmt.Sprintf("%s (%s): %s", b.Name, b.Path, u)
			}
			unavailable = append(unavailable, u)
			continue
		}
		fmt.Fprintf(w, "%s %s\n  path: %s\n  sha256: %s\n", p.Name, p.Version(), p.Path, p.SHA256)
		if li := p.LearnerInfo; li != nil {
			fmt.Fprintf(w, "  learner%s\n  capabilities: %s\n", described(li.Description), strings.Join(capabilities(li.Capabilities), ", "))
			writeParams(w, "  ", li.Params)
		}
		if ri := p.ReducerInfo; ri != nil {
			fmt.Fprintf(w, "  reducer%s\n", described(ri.Description))
			for _, s := range ri.Schemes {
				fmt.Fprintf(w, "  scheme %s%s\n", s.Name, described(s.Description))
				writeParams(w, "    ", s.Params)
			}
		}
		writeRuntime(w, p.Runtime())
		fmt.Fprintln(w)
	}
	for _, path := range notExec {
		if slices.ContainsFunc(unavailable, func(u string) bool { return strings.Contains(u, path+" is not executable") }) {
			continue // said already: it hides a later directory's plugin of its name
		}
		unavailable = append(unavailable, fmt.Sprintf("%s (%s): not executable (chmod +x %s)",
			strings.TrimPrefix(filepath.Base(path), host.BinaryPrefix), path, path))
	}
	if len(unavailable) > 0 {
		fmt.Fprintf(w, "not available (cannot start):\n")
		for _, u := range unavailable {
			fmt.Fprintf(w, "  %s\n", strings.ReplaceAll(u, "\n", "\n    "))
		}
	}
	return nil
}

// capabilities names a learner's capabilities, in a fixed order.
func capabilities(c plugin.Capabilities) []string {
	var caps []string
	for _, x := range []struct {
		on   bool
		name string
	}{{c.Binary, "binary"}, {c.Multiclass, "multiclass"}, {c.Regression, "regression"},
		{c.Scores, "scores"}, {c.Probabilities, "probabilities"}, {c.Sparse, "sparse"}, {c.Weights, "weights"}} {
		if x.on {
			caps = append(caps, x.name)
		}
	}
	return caps
}

// writeRuntime lists the software a plugin reports it computes with, one
// component a line.
func writeRuntime(w io.Writer, runtime []plugin.Component) {
	if len(runtime) == 0 {
		return
	}
	fmt.Fprintln(w, "  runtime:")
	for _, c := range runtime {
		fmt.Fprintf(w, "    %s\n", c)
	}
}

// writeParams prints specs sorted by name, one a line: type (", budget"
// for a parameter a halving or hyperband search may grow as its
// resource), default, range, allowed values, when it applies and what it
// does.
func writeParams(w io.Writer, indent string, specs []plugin.ParamSpec) {
	specs = append([]plugin.ParamSpec(nil), specs...)
	sort.SliceStable(specs, func(i, j int) bool { return specs[i].Name < specs[j].Name })
	for _, s := range specs {
		kind := s.Type.String()
		if s.Budget {
			kind += ", budget" // a halving or hyperband search's resource
		}
		line := fmt.Sprintf("%sparam %s (%s)", indent, s.Name, kind)
		if !s.Default.IsNull() {
			line += " default " + s.Default.String()
			if s.DefaultMeans != "" {
				line += " (" + s.DefaultMeans + ")"
			}
		}
		if s.Min != nil {
			op := ">="
			if s.MinExclusive {
				op = ">"
			}
			line += fmt.Sprintf(" %s %s", op, param.FormatNumber(*s.Min))
		}
		if s.Max != nil {
			line += " <= " + param.FormatNumber(*s.Max)
		}
		if len(s.Allowed) > 0 {
			line += " one of " + strings.Join(s.Allowed, "|")
		}
		if len(s.AppliesWhen) > 0 {
			line += ", applies when " + s.AppliesWhenText()
		}
		if s.Description != "" {
			line += ": " + s.Description
		}
		fmt.Fprintln(w, line)
	}
}

// keptCells says what an interrupted run keeps of its n finished cells.
func keptCells(n int) string {
	switch n {
	case 0:
		return "no cell had finished"
	case 1:
		return "the finished cell is kept"
	}
	return fmt.Sprintf("the %d finished cells are kept", n)
}
