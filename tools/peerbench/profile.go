package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// profileSection times the letter grid (experiments/bench/letter.hcl) with
// `bench run --profile DIR` and without, alternately, and counts the
// profiles written: target 7, seeing where time goes, at a cost small enough
// to leave profiling on (our own target: ≤ 1.10× the CPU time).
func profileSection(ctx context.Context, o *options, w io.Writer, stderr io.Writer) error {
	const title = "Profiling: `bench run --profile DIR`"
	dataFile := sectionInput(o, w, title, "letter.csv")
	if dataFile == "" {
		return nil
	}
	file, err := experimentFile(o, "letter.hcl", dataFile)
	if err != nil {
		return err
	}
	// Profiling adds CPU work (the sampling, the profiles' writing); the
	// wall time of a 6-second run on this shared machine moves by ±10 %
	// between runs of the same binaries, so the goal compares the CPU time
	// of bench and its plugins, over at least minProfileRounds rounds, each
	// a pair of runs whose order alternates; the goal takes the median of
	// the pairs' ratios, as target 3 does.
	rounds := max(o.runs, minProfileRounds)
	var wallOn, wallOff, cpuOn, cpuOff []time.Duration
	var dir string
	for i := range rounds {
		dir = filepath.Join(o.tmp, fmt.Sprintf("profile_%d", i))
		for _, profiled := range pairOrder(i) {
			out, extra, wall, cpu := "profile_off", []string(nil), &wallOff, &cpuOff
			if profiled {
				out, extra, wall, cpu = "profile_on", []string{"--profile", dir}, &wallOn, &cpuOn
			}
			r, err := runBench(ctx, o, file, filepath.Join(o.tmp, fmt.Sprintf("%s_%d", out, i)), stderr, extra...)
			if err != nil {
				return err
			}
			*wall, *cpu = append(*wall, r.wall), append(*cpu, r.cpu)
		}
	}
	profiles, err := nonEmptyFiles(dir, "*.pprof") // the last run's
	if err != nil {
		return err
	}
	on, off := median(cpuOn), median(cpuOff)
	pairs := pairedRatios(cpuOn, cpuOff)
	o.addGoal(goalResult{goal: 7, what: fmt.Sprintf("letter grid with `--profile DIR` (%d CPU and heap profiles: bench and each plugin process) vs without, CPU of bench and its plugins (median of the runs' paired ratios)", len(profiles)),
		ours: on.Seconds(), peer: off.Seconds(), unit: unitSeconds, target: 1.10, paired: median(pairs)})
	fmt.Fprintf(w, "## %s\n\n", title)
	fmt.Fprintf(w, "`bin/bench run --quiet -j 2 --profile DIR experiments/bench/letter.hcl` against the same run without `--profile`, %d pairs of runs one after the other, in alternating order, medians: CPU (user + system of bench and its plugins) **%s** against %s; the CPU ratios of the pairs lie between %.2f and %.2f, median **%.2f**; wall %s against %s (ratio %s). Profiles written, each non-empty: %s.\n\n",
		rounds, fmtDur(on), fmtDur(off), slices.Min(pairs), slices.Max(pairs), median(pairs), fmtDur(median(wallOn)), fmtDur(median(wallOff)), ratio(median(wallOn), median(wallOff)), profileNames(profiles))
	return readingProfiles(ctx, w, dir)
}

// readingProfiles writes how to read what --profile DIR wrote, with the
// last profiled run's files as the example: its timeline.txt as it is,
// and `go tool pprof -top` on the CPU profiles of bench and of the svm
// plugin.
func readingProfiles(ctx context.Context, w io.Writer, dir string) error {
	timeline, err := os.ReadFile(filepath.Join(dir, "timeline.txt"))
	if err != nil {
		return err
	}
	fmt.Fprint(w, "### Reading the profiles\n\n")
	fmt.Fprint(w, "`DIR/timeline.txt` (and the same figures in `DIR/timeline.json`) says where the run's time went. The stages run one after the other: `read` (the experiment parsed, the data read and checked, the plugins started and asked), `begin` (the results directory opened), `folds` (the workers run the folds), `finish` (the tables and the report written), `close` (the plugin processes end); each with its wall time and bench's own CPU time (the plugins' CPU time is given once, for the whole run: it is known when they have ended). Then the phases of the folds, as in the run log: the workers' time in each phase, summed over the workers, and the time in no phase (workers idle, waiting for the last folds, or between folds). The serial fraction is the wall time of the stages that run on one goroutine over that plus the workers' time in a phase; Amdahl's law turns it into the speed-up more workers (and cores) could give at best. The last profiled run of the letter grid above (`cat DIR/timeline.txt`):\n\n")
	fmt.Fprintf(w, "```text\n%s```\n\n", timeline)
	fmt.Fprint(w, "The CPU profiles are pprof's: `go tool pprof -top BINARY DIR/NAME-PID.cpu.pprof` lists the functions by the CPU time spent in them (`flat`) and in them and what they call (`cum`, with `-cum` to sort by it); `-http=:8080` opens the graph and flame graph in a browser. A plugin's profile covers its whole process, so its fits and predictions and its gRPC serving; bench's covers the run, so its share of the protocol (`grpc`, `http2`, `proto`) beside the engine's own work. The time of a fold's phase that neither profile shows is waiting: for a plugin's answer, for the disk, for a core. The same run's bench and svm profiles (`go tool pprof -top -nodecount=15 bin/bench DIR/bench-PID.cpu.pprof`, then `bin/bench-plugin-svm DIR/svm-PID.cpu.pprof`):\n\n")
	for _, name := range []string{"bench", "svm"} {
		top, err := pprofTop(ctx, dir, name)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "```text\n%s```\n\n", top)
	}
	return nil
}

// pprofTop returns what `go tool pprof -top -nodecount=15` says of the
// CPU profile of process name in dir, less its lines that change from
// run to run for no reason of the code (the build ID, the date).
func pprofTop(ctx context.Context, dir, name string) (string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, name+"-*.cpu.pprof"))
	if err != nil || len(paths) == 0 {
		return "", fmt.Errorf("no CPU profile of %s in %s (%v)", name, dir, err)
	}
	out, err := exec.CommandContext(ctx, "go", "tool", "pprof", "-top", "-nodecount=15", paths[0]).Output()
	if err != nil {
		return "", fmt.Errorf("go tool pprof -top %s: %w", paths[0], err)
	}
	var b strings.Builder
	for _, line := range strings.SplitAfter(string(out), "\n") {
		if strings.HasPrefix(line, "Build ID:") || strings.HasPrefix(line, "Time:") {
			continue
		}
		b.WriteString(line)
	}
	return b.String(), nil
}

// pairedRatios returns a[i]/b[i] for each pair of runs.
func pairedRatios(a, b []time.Duration) []float64 {
	out := make([]float64, min(len(a), len(b)))
	for i := range out {
		out[i] = a[i].Seconds() / b[i].Seconds()
	}
	return out
}

// minProfileRounds is the fewest rounds (one run with profiles, one
// without) of the profiling section.
const minProfileRounds = 5

// nonEmptyFiles lists the non-empty files of dir matching pattern.
func nonEmptyFiles(dir, pattern string) ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.Size() > 0 {
			out = append(out, filepath.Base(p))
		}
	}
	return out, nil
}

// profileNames lists profile file names (NAME-PID.KIND.pprof) with their
// PIDs replaced by "PID", so that the report does not change from run to
// run for that reason.
func profileNames(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		base, rest, ok := strings.Cut(n, ".")
		if j := strings.LastIndex(base, "-"); ok && j >= 0 {
			n = base[:j] + "-PID." + rest
		}
		out[i] = "`" + n + "`"
	}
	return strings.Join(out, ", ")
}
