package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/polyclass/polyclass/framework/cluster"
	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/report"
	"github.com/polyclass/polyclass/framework/results"
	"github.com/polyclass/polyclass/framework/safetext"
)

// Where bench submit writes, below the results directory.
const (
	slurmDir = results.SlurmDir
	k8sDir   = results.K8sDir
	// k8sMount is where the results claim is mounted in the pods.
	k8sMount = "/results"
)

// submitFlags are the flags each scheduler takes (see flagDocs); submit
// refuses the others rather than ignore them.
var submitFlags = map[string][]string{
	"slurm": {"o", "plugins", "shards", "dense-budget", "partition", "time", "cpus", "mem", "now"},
	"k8s":   {"o", "shards", "dense-budget", "image", "claim", "parallelism", "cpus", "mem"},
}

// submit writes the job scripts (Slurm) or manifests (Kubernetes) that run
// the experiment's shards and merge them, and with --now submits them.
func submit(ctx context.Context, h *host.Host, o *options, stdout, stderr io.Writer) error {
	if len(o.args) != 2 || submitFlags[o.args[0]] == nil {
		return usageError{"submit needs a scheduler, slurm or k8s, and one experiment file"}
	}
	sched, file := o.args[0], o.args[1]
	allowed := map[string]bool{}
	for _, f := range append(slices.Clone(submitFlags[sched]), everyCommandFlags...) {
		allowed[f] = true
	}
	var given []string
	for name := range o.set {
		given = append(given, name)
	}
	sort.Strings(given)
	for _, name := range given {
		if !allowed[name] {
			return usageError{fmt.Sprintf("submit %s: %s is not a flag of %s (it takes %s)", sched, flagDocs[name][0], sched, flagList(submitFlags[sched]))}
		}
	}
	switch {
	case !o.set["shards"]:
		return usageError{"submit: --shards N is needed: the number of shards to cut the run into (a job array of N tasks)"}
	case o.shards < 1:
		return usageError{fmt.Sprintf("submit: --shards %d: want 1 or more shards", o.shards)}
	case o.cpus < 0 || o.set["cpus"] && o.cpus == 0: // 0 unset: the default
		return usageError{fmt.Sprintf("submit: --cpus %d: want 1 or more", o.cpus)}
	case o.parallelism < 0 || o.set["parallelism"] && o.parallelism == 0:
		return usageError{fmt.Sprintf("submit: --parallelism %d: want 1 or more", o.parallelism)}
	case sched == "k8s" && o.image == "":
		return usageError{"submit k8s: --image IMG is required: the image holding bench, its plugins, the experiment file and its data"}
	}
	if sched == "slurm" {
		return submitSlurm(ctx, h, o, file, stdout, stderr)
	}
	return submitK8s(o, file, stdout, stderr)
}

// flagList names the flags names as their synopses.
func flagList(names []string) string {
	s := make([]string, len(names))
	for i, n := range names {
		s[i] = flagDocs[n][0]
	}
	return strings.Join(s, ", ")
}

// checkResultsDir refuses, before anything is submitted, a results
// directory every task would fail on or whose merge would: one that is
// not bench's (results.Owned), holds another experiment, or shards of a
// run cut into another number of them.
func checkResultsDir(dir, experiment string, shards int) error {
	if err := results.Owned(dir); err != nil {
		return err
	}
	if m, err := results.ReadManifest(dir); err == nil && m.Experiment != experiment {
		return fmt.Errorf("results directory %s holds experiment %q, not %q: choose another directory with -o", dir, m.Experiment, experiment)
	}
	if n, err := results.ShardCount(dir); err == nil && n > 0 && n != shards {
		return fmt.Errorf("results directory %s holds shards of a run in %s, not %d: submit with --shards %d to resume it (bench merge takes shards of one count only), or choose another directory with -o", dir, plural(n, "shard"), shards, n)
	}
	return nil
}

// submitSlurm validates the experiment against its data and plugins (the
// tasks run the same bench and plugins), writes the job array's and the
// merge job's batch scripts and, with --now, submits them.
func submitSlurm(ctx context.Context, h *host.Host, o *options, file string, stdout, stderr io.Writer) error {
	grid, _, err := prepare(ctx, h, file, "", nil, engine.ResolveOptions{DenseBudget: int64(o.denseBudget)}, stderr)
	if err != nil {
		return err
	}
	printCodeWarnings(stderr, grid)
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding the bench binary: %w", err)
	}
	out := o.out
	if out == "" {
		out = grid.Experiment.Output.Dir
	}
	var abs [4]string
	for i, p := range []string{exe, "", file, out} {
		if abs[i], err = filepath.Abs(p); err != nil {
			return err
		}
	}
	if abs[1], err = scriptPlugins(o.plugins, exe); err != nil {
		return usageError{"submit slurm: " + err.Error()}
	}
	s := &cluster.Slurm{Run: cluster.Run{Experiment: grid.Experiment.Name, Bench: abs[0], Plugins: abs[1], File: abs[2], Dir: abs[3], Shards: o.shards, DenseBudget: int64(o.denseBudget)},
		Partition: o.partition, Time: o.time, CPUs: o.cpus, Mem: o.mem, Scripts: filepath.Join(abs[3], slurmDir)}
	if err := s.Check(); err != nil {
		return usageError{"submit slurm: " + err.Error()}
	}
	if err := checkResultsDir(s.Dir, s.Experiment, s.Shards); err != nil {
		return fmt.Errorf("submit slurm: %w", err)
	}
	arrayText, err := s.ArrayScript()
	if err != nil {
		return usageError{"submit slurm: " + err.Error()}
	}
	mergeText, err := s.MergeScript()
	if err != nil {
		return usageError{"submit slurm: " + err.Error()}
	}
	// slurm/ and slurm/logs/ are entries of the results directory: made
	// there and written through it, never followed.
	folder, err := results.OpenFolder(s.Dir, slurmDir, stderr)
	if err != nil {
		return fmt.Errorf("submit slurm: %w", err)
	}
	defer folder.Close()
	if err := folder.Mkdir(cluster.LogsDir); err != nil {
		return fmt.Errorf("submit slurm: %w", err)
	}
	array, merge := folder.Path(cluster.ArrayScript), folder.Path(cluster.MergeScript)
	for _, f := range []struct{ name, text string }{{cluster.ArrayScript, arrayText}, {cluster.MergeScript, mergeText}} {
		if err := folder.WriteFile(f.name, []byte(f.text), 0o755); err != nil {
			return err
		}
	}
	warnEmptyShards(stderr, o.shards, len(grid.Cells))
	fmt.Fprintf(stdout, "%s: %s in %s, results in %s\n  %s\n  %s\n", s.Experiment, plural(len(grid.Cells), "cell"), plural(s.Shards, "shard"), s.Dir, array, merge)
	if !o.now {
		fmt.Fprintf(stdout, "submit them with --now, or:\n  jobid=$(sbatch --parsable %s)\n  sbatch --dependency=afterok:${jobid%%%%;*} %s\n",
			safetext.Quote(array), safetext.Quote(merge))
		return nil
	}
	arrayID, err := sbatch(ctx, array)
	if err != nil {
		return fmt.Errorf("submitting the job array: %w", err)
	}
	mergeID, err := sbatch(ctx, merge, "--dependency=afterok:"+arrayID)
	if err != nil {
		return fmt.Errorf("job array %s submitted, but not the merge job (submit it with sbatch --dependency=afterok:%s %s): %w", arrayID, arrayID, safetext.Quote(merge), err)
	}
	fmt.Fprintf(stdout, "submitted job array %s (%s) and merge job %s (runs when every task has succeeded)\n  logs: %s\n",
		arrayID, plural(s.Shards, "task"), mergeID, filepath.Join(s.Scripts, cluster.LogsDir))
	return nil
}

// warnEmptyShards notes a submission of more shards than cells.
func warnEmptyShards(stderr io.Writer, shards, cells int) {
	if shards > cells {
		verb := "have"
		if shards-cells == 1 {
			verb = "has"
		}
		fmt.Fprintf(stderr, "note: %s for %s: %s %s no cell to run\n", plural(shards, "shard"), plural(cells, "cell"), plural(shards-cells, "shard"), verb)
	}
}

// sbatch submits script with sbatch --parsable and the extra options, and
// returns the job id sbatch prints (without a cluster name).
func sbatch(ctx context.Context, script string, extra ...string) (string, error) {
	args := append([]string{"--parsable"}, extra...)
	cmd := exec.CommandContext(ctx, "sbatch", append(args, script)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return "", fmt.Errorf("sbatch is not on PATH (without --now, bench submit only writes the scripts): %w", err)
		}
		return "", fmt.Errorf("sbatch %s: %w\n%s", strings.Join(cmd.Args[1:], " "), err, strings.TrimSpace(errOut.String()))
	}
	id, err := jobID(out.String())
	if err != nil {
		return "", fmt.Errorf("sbatch %s %w", strings.Join(cmd.Args[1:], " "), err)
	}
	return id, nil
}

// jobID is the job id in what sbatch --parsable printed: the digits before
// the cluster's name, if any. Nothing else is taken: the id goes into the
// merge job's --dependency and into the command bench prints when that
// submission fails.
func jobID(printed string) (string, error) {
	id, _, _ := strings.Cut(strings.TrimSpace(printed), ";")
	if id == "" || strings.TrimLeft(id, "0123456789") != "" {
		return "", fmt.Errorf("printed %s, not a job id", safetext.Show(printed))
	}
	return id, nil
}

// submitK8s writes the shards' Indexed Job and the merge Job. The file is
// only parsed: its data and plugins are those of the image, which the
// pods read the file from at the path given, relative to the image's
// working directory.
func submitK8s(o *options, file string, stdout, stderr io.Writer) error {
	p := config.NewParser(report.FormatNames())
	exp, diags := p.ParseFile(file)
	if exp != nil {
		// What needs no data: the experiment's name (checkExperimentName).
		diags = append(diags, checkExperimentName(exp)...)
	}
	if len(diags) > 0 {
		if err := config.WriteDiagnostics(stderr, p.Files(), diags); err != nil {
			return err
		}
	}
	if diags.HasErrors() {
		fmt.Fprintf(stderr, "%s: %d error(s)\n", file, len(diags.Errs()))
		return errReported
	}
	out := o.out
	if out == "" {
		out = exp.Output.Dir
	}
	k := &cluster.Kubernetes{Run: cluster.Run{Experiment: exp.Name, Bench: "bench", File: filepath.ToSlash(filepath.Clean(file)),
		Dir: k8sMount + "/" + exp.Name, Shards: o.shards, DenseBudget: int64(o.denseBudget)},
		Image: o.image, Claim: o.claim, Mount: k8sMount, Parallelism: o.parallelism, CPUs: o.cpus, Mem: o.mem}
	shards, merge, err := k.Manifests()
	if err != nil {
		return usageError{"submit k8s: " + err.Error()}
	}
	if err := results.Owned(out); err != nil {
		return fmt.Errorf("submit k8s: %w", err)
	}
	// k8s/ is an entry of the results directory: made there and written
	// through it, never followed.
	folder, err := results.OpenFolder(out, k8sDir, stderr)
	if err != nil {
		return fmt.Errorf("submit k8s: %w", err)
	}
	defer folder.Close()
	shardsPath, mergePath := folder.Path(cluster.ShardsManifest), folder.Path(cluster.MergeManifest)
	for _, f := range []struct {
		name string
		b    []byte
	}{{cluster.ShardsManifest, shards}, {cluster.MergeManifest, merge}} {
		if err := folder.WriteFile(f.name, f.b, 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "%s: %d shards of %s in image %s, results in %s on claim %s\n  %s\n  %s\n",
		exp.Name, k.Shards, k.File, k.Image, k.Dir, k.Claim, shardsPath, mergePath)
	fmt.Fprintf(stdout, "run them with:\n  kubectl apply -f %s\n  kubectl wait --for=condition=complete --timeout=-1s job/%s\n  kubectl apply -f %s\n"+
		"(kubectl wait never returns for a Job that failed: see kubectl describe job/%s, fix the cause, delete the Job and apply it again)\n",
		safetext.Quote(shardsPath), k.JobName(), safetext.Quote(mergePath), k.JobName())
	// The data and the plugins are the image's: the warnings of the file
	// alone are printed above; those of the data need them at hand.
	fmt.Fprintf(stderr, "submit k8s checked the experiment file alone (the data and plugins are in the image): run bench validate %s where they are at hand for the warnings of the data and the grid, as submit slurm and run print\n",
		safetext.Quote(safetext.Path(file)))
	return nil
}

// scriptPlugins is the --plugins value of a job script that runs the
// bench binary exe with the plugin directories dirs (absolute, see
// pluginDirs): the list that bench reads back as dirs, or "" (no
// --plugins, bench's default) when dirs is exe's own directory alone and
// its path holds the list separator, which a list cannot name. A
// directory of --plugins never holds the separator (the value was split
// at it) unless the working directory it was made absolute against does:
// such a list is refused.
func scriptPlugins(dirs []string, exe string) (string, error) {
	list, err := host.JoinDirs(dirs)
	if err == nil {
		return list, nil
	}
	if len(dirs) == 1 && dirs[0] == filepath.Dir(exe) {
		return "", nil
	}
	return "", fmt.Errorf("the job script cannot name the plugins directories: %w; move or link the directory to a path without %q", err, string(os.PathListSeparator))
}
