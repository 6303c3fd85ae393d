package main

import (
	"context"
	"fmt"
	"io"
	"os"
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
	return nil
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
