package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/results"
	"github.com/polyclass/polyclass/framework/safetext"
	"github.com/polyclass/polyclass/framework/shard"
)

// shardOf returns the shard bench run computes, or nil for the whole grid:
// --shard I/N, else the environment of a Slurm job array task
// (SLURM_ARRAY_TASK_ID, with SLURM_ARRAY_TASK_COUNT or
// SLURM_ARRAY_TASK_MIN and _MAX), else that of a Kubernetes Indexed Job's
// pod (JOB_COMPLETION_INDEX, with the count from --shards N or from the
// shard manifests already in the results directory out).
func shardOf(o *options, out string) (*shard.Spec, error) {
	if o.shard != "" {
		s, err := shard.Parse(o.shard)
		if err != nil {
			return nil, usageError{err.Error()}
		}
		if o.shards != 0 && o.shards != s.Count {
			return nil, usageError{fmt.Sprintf("--shard %s and --shards %d disagree", s, o.shards)}
		}
		return &s, nil
	}
	if id, ok := os.LookupEnv("SLURM_ARRAY_TASK_ID"); ok {
		return slurmShard(id, o.shards)
	}
	if idx, ok := os.LookupEnv("JOB_COMPLETION_INDEX"); ok {
		i, err := strconv.Atoi(idx)
		if err != nil {
			return nil, fmt.Errorf("JOB_COMPLETION_INDEX=%q is not a whole number", idx)
		}
		n := o.shards
		if n == 0 {
			if n, err = results.ShardCount(out); err != nil {
				return nil, err
			}
		}
		if n == 0 {
			return nil, usageError{fmt.Sprintf("JOB_COMPLETION_INDEX=%d gives the shard, not the number of shards: give --shards N (or --shard %d/N)", i, i)}
		}
		s := shard.Spec{Index: i, Count: n}
		if err := s.Check(); err != nil {
			return nil, fmt.Errorf("JOB_COMPLETION_INDEX: %w", err)
		}
		return &s, nil
	}
	if o.shards != 0 {
		return nil, usageError{fmt.Sprintf("--shards %d needs the shard's index: --shard I/%d, or SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX in the environment", o.shards, o.shards)}
	}
	return nil, nil
}

// slurmShard is the shard of a Slurm job array task: I = ID − MIN, N =
// SLURM_ARRAY_TASK_COUNT, else MAX − MIN + 1, else --shards.
func slurmShard(id string, shards int) (*shard.Spec, error) {
	env := func(name string) (int, bool, error) {
		v, ok := os.LookupEnv(name)
		if !ok {
			return 0, false, nil
		}
		x, err := strconv.Atoi(v)
		if err != nil {
			return 0, false, fmt.Errorf("%s=%q is not a whole number", name, v)
		}
		return x, true, nil
	}
	i, err := strconv.Atoi(id)
	if err != nil {
		return nil, fmt.Errorf("SLURM_ARRAY_TASK_ID=%q is not a whole number", id)
	}
	lo, hasMin, err1 := env("SLURM_ARRAY_TASK_MIN")
	hi, hasMax, err2 := env("SLURM_ARRAY_TASK_MAX")
	count, hasCount, err3 := env("SLURM_ARRAY_TASK_COUNT")
	if err := errors.Join(err1, err2, err3); err != nil {
		return nil, err
	}
	s := shard.Spec{Index: i - lo, Count: shards}
	switch {
	case hasCount:
		s.Count = count
	case hasMin && hasMax:
		s.Count = hi - lo + 1
	}
	if s.Count == 0 {
		return nil, usageError{fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d gives the shard, not the number of shards (no SLURM_ARRAY_TASK_COUNT, _MIN and _MAX): give --shards N", i)}
	}
	if shards != 0 && shards != s.Count {
		return nil, usageError{fmt.Sprintf("--shards %d and the job array's %s disagree", shards, plural(s.Count, "task"))}
	}
	if err := s.Check(); err != nil {
		return nil, fmt.Errorf("SLURM_ARRAY_TASK_ID: %w", err)
	}
	return &s, nil
}

// shardCells assigns the cells of g to the shards of spec (package shard)
// and returns spec's, with their names and digests.
func shardCells(ctx context.Context, g *engine.Grid, spec shard.Spec, digests []string) (*results.Shard, error) {
	est, err := engine.EstimateShards(ctx, g)
	if err != nil {
		return nil, fmt.Errorf("assigning cells to shards: %w", err)
	}
	owner := shard.Assign(est, spec.Count)
	sh := &results.Shard{Index: spec.Index, Count: spec.Count, Cells: []results.ShardCell{}}
	for i, c := range est {
		if owner[i] == spec.Index {
			sh.Cells = append(sh.Cells, results.ShardCell{Index: c.Index, Name: c.Key, Digest: digests[c.Index]})
		}
	}
	return sh, nil
}

// merge is bench merge OUT DIR...: the shards found in the DIRs merged
// into OUT (bench merge DIR alone merges DIR in place).
func merge(o *options, stdout, stderr io.Writer) error {
	if len(o.args) == 0 {
		return usageError{"merge needs a results directory: bench merge DIR merges the shards in DIR in place, bench merge OUT DIR... those of the DIRs into OUT"}
	}
	out, dirs := o.args[0], o.args[1:]
	if err := checkUnexpanded("merge: OUT", out); err != nil {
		return err
	}
	if len(dirs) == 0 {
		dirs = []string{out}
	}
	return writeMerge(out, dirs, o.verbose, stdout, stderr)
}

// writeMerge merges dirs into out and reports what it did (every file
// written when verbose); missing cells are an error, after the partial
// tables are written.
func writeMerge(out string, dirs []string, verbose bool, stdout, stderr io.Writer) error {
	res, err := results.Merge(out, dirs, renderer(stderr))
	if err != nil {
		return err
	}
	m := res.Manifest
	found := 0
	for _, f := range res.Found {
		if f {
			found++
		}
	}
	for _, n := range res.Notes {
		fmt.Fprintln(stderr, n)
	}
	fmt.Fprintf(stdout, "%s: %s from %s\n", m.Experiment, nOf(res.Cells, m.Cells, "cell"), nOf(found, res.Shards, "shard"))
	writtenSummary(stdout, out, res.Written, res.Cells, false, verbose)
	if res.Complete() {
		return nil
	}
	fmt.Fprintf(stderr, "missing cells (the tables are partial):\n")
	for i, ok := range res.Found {
		if !ok {
			fmt.Fprintf(stderr, "  shard %d/%d: no manifest (%s/%s) in %v: not started, or written elsewhere\n",
				i, res.Shards, results.ShardsDir, results.ShardManifestName(i, res.Shards), dirs)
		}
	}
	for _, c := range res.Missing {
		fmt.Fprintf(stderr, "  cell %d %s (shard %d/%d)\n", c.Index, c.Name, c.Shard, res.Shards)
	}
	missing := len(res.Missing) + res.MissingUnknown
	return fmt.Errorf("%s missing: run their shards again (they resume), then merge again", nOf(missing, m.Cells, "cell"))
}

// mergeHint is what bench run --shard prints for merging the shards, once
// shard spec has written into out: bench merge out in place when out
// holds another shard's manifest (a shared directory); else the shard
// directories derived from out where its last element holds the shard's
// index (0- or 1-based, e.g. shards/s1 for 1/3 gives shards/s0 shards/s1
// shards/s2), or placeholders to fill when bench cannot know where the
// other shards write, each with the shared-directory alternative.
func mergeHint(out string, spec shard.Spec) string {
	inPlace := "bench merge " + safetext.Quote(safetext.Path(out))
	if spec.Count == 1 || sharesDir(out, spec) {
		return "when every shard is done: " + inPlace + "\n"
	}
	alt := "  or, if every shard wrote into this directory: " + inPlace + "\n"
	dirs, pattern, ok := shardDirs(out, spec)
	if !ok {
		return "when every shard is done, merge them: bench merge MERGED_DIR SHARD_DIR... (fill in every shard's -o directory: bench cannot know where the others wrote)\n" + alt
	}
	args := []string{safetext.Quote(safetext.Path(filepath.Join(filepath.Dir(out), "merged")))}
	for _, d := range dirs {
		args = append(args, safetext.Quote(safetext.Path(d)))
	}
	return fmt.Sprintf("when every shard is done, merge them: bench merge %s (if each shard I wrote into %s, as this one did)\n%s",
		strings.Join(args, " "), pattern, alt)
}

// sharesDir reports whether out holds the manifest of a shard other than
// spec's: the shards write into one directory.
func sharesDir(out string, spec shard.Spec) bool {
	for i := range spec.Count {
		if i == spec.Index {
			continue
		}
		if _, err := os.Stat(filepath.Join(out, results.ShardsDir, results.ShardManifestName(i, spec.Count))); err == nil {
			return true
		}
	}
	return false
}

// digitRun is a maximal run of decimal digits.
var digitRun = regexp.MustCompile(`[0-9]+`)

// shardDirs derives every shard's directory from out, whose last element
// holds spec's index (counted from 0, or from 1) as its only number: the
// directories in shard order and the pattern ("shards/sI"); false when
// out does not show the index.
func shardDirs(out string, spec shard.Spec) (dirs []string, pattern string, ok bool) {
	base := filepath.Base(out)
	runs := digitRun.FindAllStringIndex(base, -1)
	if len(runs) != 1 {
		return nil, "", false
	}
	at, n := runs[0], base[runs[0][0]:runs[0][1]]
	from := -1
	switch n {
	case strconv.Itoa(spec.Index):
		from = 0
	case strconv.Itoa(spec.Index + 1):
		from = 1
	default:
		return nil, "", false
	}
	with := func(s string) string { return filepath.Join(filepath.Dir(out), base[:at[0]]+s+base[at[1]:]) }
	for i := range spec.Count {
		dirs = append(dirs, with(strconv.Itoa(i+from)))
	}
	pattern = with("I")
	if from == 1 {
		pattern = with("I+1")
	}
	return dirs, pattern, true
}
