// Package cluster writes what runs an experiment's shards on a cluster's
// own scheduler: a Slurm job array with a dependent merge job, or a
// Kubernetes Indexed Job with a merge Job. Each task runs one shard
// (bench run --shard I/N) into a results directory on shared storage; the
// merge renders the tables of the whole grid. A task that is run again
// resumes: only cells missing from the results directory are computed.
package cluster

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/polyclass/polyclass/framework/safetext"
)

// Run is what every task of a submission runs: the shards of one
// experiment file into one results directory.
type Run struct {
	// Experiment is the experiment's name; it names the jobs.
	Experiment string
	// Bench is the bench binary the tasks run.
	Bench string
	// Plugins is the tasks' --plugins: absolute directories separated by
	// the list separator (":" on Unix); empty leaves bench's default (the
	// directory of the bench binary, one directory whatever its path).
	Plugins string
	// File is the experiment file.
	File string
	// Dir is the results directory the shards and the merge write.
	Dir string
	// Shards is the number of shards (tasks), at least 1.
	Shards int
	// DenseBudget, when not 0, is each shard's bench run --dense-budget,
	// in bytes.
	DenseBudget int64
}

// check reports what is wrong with r.
func (r Run) check() error {
	switch {
	case r.Shards < 1:
		return fmt.Errorf("shards: %d, want 1 or more", r.Shards)
	case r.DenseBudget < 0:
		return fmt.Errorf("dense budget: %d bytes, want 0 (bench's default) or more", r.DenseBudget)
	case r.Experiment == "" || r.Bench == "" || r.File == "" || r.Dir == "":
		return fmt.Errorf("a run needs its experiment name, bench binary, experiment file and results directory")
	}
	return gate(
		field{"experiment name", r.Experiment}, field{"bench binary", r.Bench}, field{"plugins directory", r.Plugins},
		field{"experiment file", r.File}, field{"results directory", r.Dir})
}

// field is a string a writer puts into a script or a manifest, and what
// it is.
type field struct{ what, value string }

// gate refuses the first field that safetext.CheckVisible refuses (safetext.Rule), naming it.
func gate(fields ...field) error {
	for _, f := range fields {
		if err := safetext.CheckVisible(f.value); err != nil {
			return fmt.Errorf("%s %s: %w; %s", f.what, safetext.Show(f.value), err, safetext.Rule)
		}
	}
	return nil
}

// command is the bench command line of subcommand sub, with the plugins
// directory when r names one and sub is run (merge takes no --plugins:
// it reads cells and fits nothing).
func (r Run) command(sub string) []string {
	args := []string{r.Bench, sub}
	if r.Plugins != "" && sub == "run" {
		args = append(args, "--plugins", r.Plugins)
	}
	if sub == "run" && r.DenseBudget > 0 {
		args = append(args, "--dense-budget", strconv.FormatInt(r.DenseBudget, 10))
	}
	return args
}

// MergeArgs is the command line that merges the shards' results and
// writes the tables of the whole grid into the results directory.
func (r Run) MergeArgs() []string {
	return append(r.command("merge"), safetext.Path(r.Dir), safetext.Path(r.Dir))
}

// memory is a memory size as Slurm's --mem takes it: a whole number with
// an optional unit K, M, G or T (binary units; M when bare).
var memory = regexp.MustCompile(`^([1-9][0-9]*)([KMGT]?)$`)

// checkMem reports whether mem (empty: not set) is a memory size.
func checkMem(mem string) error {
	if mem == "" {
		return nil
	}
	m := memory.FindStringSubmatch(mem)
	if m == nil {
		return fmt.Errorf("memory %q: want a whole number with an optional unit K, M, G or T, such as 4G", mem)
	}
	// Without a unit, Slurm reads megabytes (Kubernetes bytes): the
	// larger is bounded.
	shift := map[string]uint{"": 20, "K": 10, "M": 20, "G": 30, "T": 40}[m[2]]
	if n, err := strconv.ParseUint(m[1], 10, 64); err != nil || n > maxMemBytes>>shift {
		return fmt.Errorf("memory %q: more than a scheduler can grant (at most 4 EiB: 4194304T)", mem)
	}
	return nil
}

// maxMemBytes bounds a task's memory: 4 EiB, which no machine has and
// both Slurm's and Kubernetes' 64-bit counts hold.
const maxMemBytes = 1 << 62
