package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/polyclass/polyclass/framework/sdk/conformance"
)

// command documents one bench command: the global usage lists its
// synopsis and summary, "bench help NAME" and "bench NAME --help" print
// its synopsis, doc and flags.
type command struct {
	name     string
	args     string   // arguments after the flags, as in the synopsis
	summary  string   // one line for the global usage
	flags    []string // names of the flags (see flagDocs) that affect it
	doc      string   // what it does, in full
	internal bool     // runs without the host (help, version)
}

// flagDocs describes each flag of parseFlags: its synopsis and its meaning.
var flagDocs = map[string][2]string{
	"o":                {"-o DIR", "results directory"},
	"j":                {"-j N", "folds run in parallel, at most the folds to run; 0 means the number of CPUs (default)"},
	"quiet":            {"--quiet", "no progress bar"},
	"verbose":          {"--verbose", "list every file written (tables, plots, manifest) instead of a summary of the folders and counts"},
	"fresh":            {"--fresh", "start over: move an earlier run's cells in DIR aside to DIR/superseded/TIME/ instead of resuming"},
	"keep-other-bench": {"--keep-other-bench", "resume with the cells another build of bench computed (inputs otherwise equal) instead of computing them again; each is noted"},
	"adopt":            {"--adopt", "write into a directory that is not bench's (it holds other files and no manifest.json), moving each file the run replaces to DIR/superseded/TIME/ first"},
	"plugins":          {"--plugins DIR", "plugins directory, or several as DIR:DIR…, searched in order, a relative one from the working directory (default: the directory of the bench binary, whole even when its path holds :)"},
	"plan":             {"--plan", "list every cell with its folds and model fits, and the totals"},
	"shard":            {"--shard I/N", "run shard I (from 0) of N only; see 'bench help merge'"},
	"shards":           {"--shards N", "number of shards: tasks of the job array, completions of the Indexed Job (submit); the N of JOB_COMPLETION_INDEX (run); the shards of the plan (validate --plan)"},
	"partition":        {"--partition P", "Slurm partition (default: the cluster's)"},
	"time":             {"--time T", "time limit of each task, as sbatch --time takes it (minutes, HH:MM:SS, D-HH:MM:SS)"},
	"cpus":             {"--cpus C", "CPUs of each task, and the folds it runs in parallel (default: 1 on Slurm, bench's default on Kubernetes)"},
	"mem":              {"--mem M", "memory of each task: a whole number with K, M, G or T (binary units; M when bare), as sbatch --mem"},
	"now":              {"--now", "submit at once: sbatch the job array, then the merge job depending on it; print the job ids"},
	"image":            {"--image IMG", "container image holding bench (on PATH, plugins beside it), FILE and its data"},
	"claim":            {"--claim NAME", "PersistentVolumeClaim holding the results, mounted at " + k8sMount + " (default polyclass-results)"},
	"parallelism":      {"--parallelism P", "shards running at once (default: all)"},
	"profile":          {"--profile DIR", "write pprof CPU and heap profiles of bench and of each Go plugin process into DIR (see bench help run)"},
	"no-share":         {"--no-share", "fit every cell's problems for that cell alone (the same numbers, more fits): to measure what sharing fits between cells saves"},
	"dense-budget":     {"--dense-budget SIZE", "bound on a sparse design matrix densified for a learner without the sparse capability, e.g. 512M, 8G (default 2G); a larger one fails the cell"},
}

// everyCommandFlags are the flags every command takes besides its own:
// --quiet, so that a script may pass it to whichever bench command it
// runs (only run and rerun show progress; rerun is always quiet).
var everyCommandFlags = []string{"quiet"}

// commandFlagDocs gives a flag's meaning for one command where flagDocs
// describes it for all the commands that take it.
var commandFlagDocs = map[string]map[string]string{
	"run": {
		"shards":  "the number of shards N when the shard is a Kubernetes Indexed Job's JOB_COMPLETION_INDEX (see above)",
		"profile": "write pprof CPU and heap profiles of bench and of each Go plugin process into DIR (see Profiling above)",
	},
	"validate": {
		"shards":       "with --plan: also list the cells of each of N shards",
		"dense-budget": "the budget bench run will be given: cells whose learner needs a larger densified matrix are reported (a warning: run fails them and computes the others)",
	},
	"submit": {"shards": "number of shards: tasks of the Slurm job array, completions of the Indexed Job"},
}

// flagDoc returns the meaning of flag f in the help of command cmd.
func flagDoc(cmd, f string) string {
	if d, ok := commandFlagDocs[cmd][f]; ok {
		return d
	}
	return flagDocs[f][1]
}

// commands are bench's commands in the order the global usage lists them.
var commands = []command{
	{name: "run", args: "FILE", flags: []string{"o", "j", "fresh", "keep-other-bench", "adopt", "dense-budget", "shard", "shards", "quiet", "verbose", "plugins", "profile", "no-share"},
		summary: "cross-validate every combination FILE declares, write tables",
		doc: `Run cross-validates every combination the experiment FILE declares
(datasets × pipelines × learners × parameter sets × reductions) and writes
the comparison tables, one file per finished cell, run.log and
manifest.json into the results directory: -o DIR, else output.dir of
FILE, else results/NAME. A progress bar goes to stderr when it is a
terminal. It ends with a summary of what it wrote: the files at the top
of the results directory by name, the number of files in each folder
(plots/, predictions/), the cells, and the report's path; --verbose
lists every file written instead. The exit status is 1 when a cell
failed (see run.log).

Into a directory that holds a run of the same experiment, run resumes:
a cell whose file is there and whose digest matches is kept and not
computed again; the others run. The digest is the SHA-256 of the cell's
spec, which each cell file holds: the data's digests and reading options,
the folds, the encoding steps, learner and reduction with every parameter
(defaults included), tuning, calibration, class weights, seed, metrics,
and the build of bench, each plugin binary's digest and its runtime
(docs/results.md). A cell whose spec changed is moved aside, the run
naming what changed (dataset "glass": sha256 3f2a9c1d… → 91c0aa7e…);
one that differs only by the build of bench is computed again unless
--keep-other-bench keeps it (noted in the run log, and the tables list
the builds). --fresh starts over, moving the old cells aside (never
deleting them). A directory that holds another experiment is refused.

The results directory is bench's own: run writes into a directory only
when it is absent, empty or bench's (it holds a manifest.json bench
reads, or cells/ or shards/ of bench's files only). A directory holding other files is refused, naming them, unless
--adopt: each file the run replaces there (summary.csv, NAME.md, run.log…)
is first moved to DIR/superseded/TIME/, never deleted; so is an output
edited since bench wrote it (its SHA-256, recorded in manifest.json, no
longer matches), the move said on stderr. An input of the
experiment (data, folds or test file, FILE itself) that is a file the run
writes, or lies inside cells/, plots/ or another folder bench manages, is
refused where FILE names it. A results directory removed or replaced
while the run writes into it ends the run with an error: it is not made
again.

A learner that does not declare the sparse capability gets dense input:
a sparse design matrix (hash encoder, wide one-hot) is densified once per
fold for such learners, and a cell whose dense matrix would exceed
--dense-budget fails with the learner, dataset, pipeline and sizes.

With --shard I/N, run computes shard I of N only (I counts from 0): a
rule that depends on the experiment alone deals the cells to N shards,
balancing their estimated work (rows × features × models × folds) and
keeping the cells of a dataset and pipeline together where it can.
Without --shard the shard comes from the environment when there is one:
a Slurm job array task's SLURM_ARRAY_TASK_ID (less SLURM_ARRAY_TASK_MIN)
of SLURM_ARRAY_TASK_COUNT, or a Kubernetes Indexed Job's
JOB_COMPLETION_INDEX of --shards N (or of the shards already in DIR).
Shards write into one shared DIR or each into its own: a shard writes
its cells' files, DIR/shards/I-of-N.json (its manifest) and
DIR/shards/I-of-N.log, and no tables; run again, it resumes. bench merge
writes the tables.

Cells share fits: a binary problem that several cells of a fold train
alike (one-vs-one's pairs under the vote and DAG decoders, a code's
columns under each decoder of a list, a column two codes hold) is fitted
once and every such cell decodes from the same scores, bit for bit what
it would get alone. The run log and the summary say how many fits the
cells requested and how many were made; --no-share fits each cell's
problems for that cell alone, to measure the difference.

The run log ends with the protocol calls the run made to each plugin:
calls, messages and bytes per method (uploads, fits, predictions), which
manifest.json also records under "calls".

Profiling: --profile DIR writes pprof profiles into DIR (created when
missing): bench-PID.cpu.pprof for the whole command and bench-PID.heap.pprof
at its end, and, through the environment variable POLYCLASS_PROFILE_DIR
that bench sets for its plugin processes, NAME-PID.cpu.pprof and
NAME-PID.heap.pprof of each Go plugin (NAME is the learner's or reducer's
name; the heap profile is written when bench closes the plugin). Read
them with go tool pprof, e.g. go tool pprof -top bin/bench-plugin-svm
DIR/svm-*.cpu.pprof. The Python plugin (sklearn) ignores the variable
and writes none. DIR also gets the run's timeline, timeline.txt and
timeline.json: the wall and CPU time of each stage (read, begin, folds,
finish, close), the plugins' CPU time, the phases of the folds, the
serial fraction and the speed-ups Amdahl's law gives from it
(docs/performance.md says how to read them). Bench makes each file of DIR
new, never through a link nor over a file there: a profile of its own
name, or a timeline.txt or timeline.json that is not an earlier run's
timeline, is refused before the run starts.`},
	{name: "validate", args: "FILE", flags: []string{"plan", "shards", "dense-budget", "plugins"},
		summary: "check FILE against its data and plugins, report every problem",
		doc: `Validate parses FILE, loads its datasets and starts its plugins, and
reports every problem with its file:line:col, and warns of the cells
bench run will fail because their learner takes dense input only and their
design matrix is too wide to densify within --dense-budget (the pipeline
fitted on every row). When FILE is valid it prints
the size of the grid and the diagnostics of each code matrix. With --plan
it also lists every cell with its folds (repeats × folds) and the models
one fold fits, and the totals the file expands to: cells, folds, and
binary (and multiclass, regression) fits. With --plan --shards N, each
cell's shard (as bench run --shard I/N deals them), and each shard's
cells and estimated work.`},
	{name: "plugins", flags: []string{"plugins"},
		summary: "list the plugins found, with capabilities and parameters",
		doc: `Plugins starts every bench-plugin-NAME binary in the plugins directory
and prints its name, version, path, sha256, and its learner capabilities
and parameters or its reduction schemes and their parameters.`},
	{name: "plugin", args: "check PATH",
		summary: "run the protocol conformance suite on a plugin binary",
		doc: `Plugin check starts the plugin binary PATH (any file name, any language)
as a run starts plugins and runs the protocol conformance suite on it,
printing one row per check with PASS, FAIL or SKIP (a capability the
plugin does not declare) and what was seen. The exit status is 1 when a
check failed. A check whose call ends the plugin's process fails, and the
plugin is started again for the next. Each check has 2 minutes: one still
running then fails at once ("did not answer within the check's limit"),
and the plugin, which may still be computing, is stopped and started again
for the next. Each check's outcome is also said on stderr as it ends.

Learner checks:
` + checkDocs(conformance.Checks()) + `
Reducer checks:
` + checkDocs(conformance.ReducerChecks()) + `
Go plugins run the same suite in their tests with conformance.Test
(package github.com/polyclass/polyclass/framework/sdk/conformance).`},
	{name: "list", args: "metrics|encoders|learners|schemes|decoders|formats", flags: []string{"plugins"},
		summary: "list the names an experiment file may use",
		doc: `List prints the names an experiment file may use:
  metrics    the metrics = [...] names: kind, direction, definition
  encoders   the encoder types (type = "...") and their options
  learners   the learners (learner "NAME") the learner plugins serve,
             with their capabilities (bench plugins: their parameters)
  schemes    the reduction schemes (scheme = "...") the reducer plugins
             serve, with their parameters
  decoders   the values of a reduction's decode parameter, with the
             schemes that accept each and the schemes it is the default of
  formats    the data file formats a dataset's path may have`},
	{name: "merge", args: "OUT [DIR...]", flags: []string{"verbose"},
		summary: "merge the shards of a run (bench run --shard) and write its tables",
		doc: `Merge reads the shards that bench run --shard I/N wrote into the results
directories DIR... (one shared directory or one per shard; several
shards per directory are fine) and writes the whole run into OUT: the
cell files, manifest.json and the tables, byte-identical to those of a
single bench run of the same file and seed. OUT may be one of the DIRs:
"bench merge DIR" (or "bench merge DIR DIR") merges a shared directory
in place; shards OUT holds itself are merged whether listed or not.

Merge refuses shards of different runs and names the difference: the
experiment, the number of shards, the experiment file's digest, the
seed, a dataset's or a plugin's digest or version, or the grid. Each
cell file is checked against the digest its shard recorded. Cells that
are missing (a shard that failed, was killed, or has not run) are listed
by name with the shard that owns them; the tables are then written as
partial, and the exit status is 1. Run those shards again (they resume)
and merge again. bench table over a directory of shards merges it in
place.`},
	{name: "table", args: "DIR", flags: []string{"verbose"},
		summary: "check the cell files of DIR, render its tables again",
		doc: `Table checks every cell file of the results directory DIR (schema,
index range, duplicates, metric ranges; a bad file is named with the
reason) and renders the tables again from the cell files and
manifest.json. The tables of a partial run say so in their header.`},
	{name: "rerun", args: "DIR", flags: []string{"o", "j", "dense-budget", "plugins", "verbose"},
		summary: "run a results directory's experiment again, report differences",
		doc: `Rerun runs the experiment the results directory DIR records again, with
its recorded seed, into -o OUT (default DIR/rerun; never DIR itself),
and reports every changed input (datasets, plugin binaries) and every
differing result; timings are not compared. The exit status is 1 when anything differs.
The recorded experiment file must still have the recorded SHA-256: one
edited since is not the run's experiment, and is refused before it is
read (bench run runs it). A directory a bench run is writing into is
refused, as bench table refuses it; of a recorded run that did not
finish every cell (interrupted, say), rerun says so first and compares
the cells it finished.`},
	{name: "submit", args: "slurm|k8s FILE",
		flags:   []string{"o", "plugins", "shards", "dense-budget", "partition", "time", "cpus", "mem", "now", "image", "claim", "parallelism"},
		summary: "write (and submit) a Slurm job array or Kubernetes Indexed Job of FILE's shards",
		doc: `Submit splits the experiment FILE into --shards N shards (bench run
--shard I/N) and writes what runs them on a cluster's scheduler, with a
merge that writes the tables of the whole grid once every shard is done.
The tables equal those of one bench run of FILE. The results directory
(-o DIR, else output.dir of FILE, else results/NAME) must be on storage
every task sees.

slurm: validates FILE against its data and plugins, then writes
DIR/slurm/array.sbatch, a job array (--array=0-(N-1)) whose task I runs
shard I with this bench binary and plugins directory (absolute paths),
and DIR/slurm/merge.sbatch, the merge job. Task output goes to
DIR/slurm/logs/. With --now it submits both with sbatch --parsable, the
merge with --dependency=afterok on the array, and prints the job ids.
Flags: --partition, --time, --cpus, --mem, --now.

k8s: parses FILE and writes DIR/k8s/shards.json, an Indexed Job
(completionMode Indexed, completions N; the pod of completion index I
runs shard I), and DIR/k8s/merge.json, the merge Job; JSON, which
kubectl applies as it does YAML. Both run --image IMG, which must hold
bench on its PATH with the plugins beside it, and FILE (with its data) at
the path given, relative to the image's working directory; results go to
` + k8sMount + `/NAME on the PersistentVolumeClaim --claim NAME
(ReadWriteMany when pods may run on several nodes). Apply the merge Job
once the shards' Job is complete. Flags: --image, --claim,
--parallelism, --cpus, --mem.

Submitting again is resuming: a shard keeps the cells the results
directory holds and computes only the missing ones, so a failed task is
retried by submitting again.`},
	{name: "version", internal: true,
		summary: "print bench's version, commit and Go version (also --version)",
		doc: `Version prints the module version, the VCS commit bench was built from
(with "modified" when the checkout had uncommitted changes), the commit
time, and the Go version and platform.`},
	{name: "help", args: "[COMMAND]", internal: true,
		summary: "print this usage, or a command's (also COMMAND --help)",
		doc:     `Help prints the usage of bench, or of COMMAND.`},
}

// checkDocs lists conformance checks with their descriptions.
func checkDocs(checks []conformance.Check) string {
	var b strings.Builder
	for _, c := range checks {
		line := fmt.Sprintf("  %-14s", c.Name)
		for _, w := range strings.Fields(c.Doc) {
			if len(line)+1+len(w) > 76 {
				b.WriteString(line + "\n")
				line = strings.Repeat(" ", 16)
			}
			line += " " + w
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// lookupCommand returns the command called name.
func lookupCommand(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// synopsis is the command's usage line.
func (c command) synopsis() string {
	s := "bench " + c.name
	for _, f := range c.flags {
		s += " [" + flagDocs[f][0] + "]"
	}
	if c.args != "" {
		s += " " + c.args
	}
	return s
}

// writeHelp prints the command's usage, doc and flags.
func (c command) writeHelp(w io.Writer) {
	fmt.Fprintf(w, "usage: %s\n\n%s\n", c.synopsis(), c.doc)
	if c.internal {
		return // help and version take no flags
	}
	fmt.Fprintf(w, "\nflags:\n")
	for _, f := range c.flags {
		fmt.Fprintf(w, "  %-19s  %s\n", flagDocs[f][0], flagDoc(c.name, f))
	}
	for _, f := range everyCommandFlags {
		if !slices.Contains(c.flags, f) {
			fmt.Fprintf(w, "  %-19s  %s\n", flagDocs[f][0], "accepted by every command, so that a script may pass it to any; this one shows no progress bar (only run does)")
		}
	}
}

// globalUsage is bench's usage: every command and flag.
func globalUsage() string {
	var b strings.Builder
	b.WriteString("usage: bench COMMAND [flags] [ARGS]\n\ncommands:\n")
	for _, c := range commands {
		name := c.name
		if c.args != "" && len(c.args) < 10 {
			name += " " + c.args
		}
		fmt.Fprintf(&b, "  %-15s  %s\n", name, c.summary)
	}
	b.WriteString("\nflags:\n")
	for _, f := range []string{"o", "j", "fresh", "keep-other-bench", "adopt", "dense-budget", "shard", "quiet", "verbose", "plugins", "profile", "no-share", "plan",
		"shards", "partition", "time", "cpus", "mem", "now", "image", "claim", "parallelism"} {
		var used []string
		for _, c := range commands {
			for _, g := range c.flags {
				if g == f {
					used = append(used, c.name)
				}
			}
		}
		if slices.Contains(everyCommandFlags, f) {
			used = []string{"every command: only run shows progress"}
		}
		fmt.Fprintf(&b, "  %-19s  %s (%s)\n", flagDocs[f][0], flagDocs[f][1], strings.Join(used, ", "))
	}
	b.WriteString("\nRun 'bench help COMMAND' for a command's details.\n")
	return b.String()
}

// help prints the global usage, or the usage of the command args names.
func help(args []string, stdout io.Writer) error {
	if len(args) == 1 && isHelpFlag(args[0]) {
		args = []string{"help"} // bench help --help
	}
	switch len(args) {
	case 0:
		fmt.Fprint(stdout, globalUsage())
		return nil
	case 1:
		c, ok := lookupCommand(args[0])
		if !ok {
			return usageError{fmt.Sprintf("help: unknown command %q", args[0])}
		}
		c.writeHelp(stdout)
		return nil
	}
	return usageError{"help takes at most one command"}
}

// isHelpFlag reports whether arg asks for help, as -h, -help and --help
// do after any command.
func isHelpFlag(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

// errHelp is returned by parseFlags when the command line asks for help.
var errHelp = errors.New("help requested")

// usageError is a mistake on the command line.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg + "\n" + globalUsage() }

// commandUsageError is a mistake on a command's command line: it shows
// that command's synopsis rather than every command.
type commandUsageError struct {
	cmd command
	err usageError
}

func (e commandUsageError) Error() string {
	return fmt.Sprintf("%s\nusage: %s\nRun 'bench help %s' for details.", e.err.msg, e.cmd.synopsis(), e.cmd.name)
}

// Unwrap returns the usage error.
func (e commandUsageError) Unwrap() error { return e.err }

// forCommand makes a usage error of the command called name show that
// command's synopsis.
func forCommand(name string, err error) error {
	var ue usageError
	c, ok := lookupCommand(name)
	if !ok || !errors.As(err, &ue) {
		return err
	}
	var cue commandUsageError
	if errors.As(err, &cue) {
		return err
	}
	return commandUsageError{cmd: c, err: ue}
}
