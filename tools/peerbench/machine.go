package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// machine is what the report says about where and when it was measured.
type machine struct {
	at     time.Time
	load   string // /proc/loadavg's 1-, 5- and 15-minute averages, "" when unknown
	cpu    string // model name
	memory int64  // MemTotal in bytes, 0 when unknown
	commit string // git describe of the repository, "" when unknown
}

// machineNow reads the machine's state from /proc and git.
func machineNow(ctx context.Context, root string) machine {
	m := machine{at: time.Now().UTC(), load: strings.Join(loadAverages(), " "), cpu: cpuModel(), memory: memTotal()}
	if out, err := exec.CommandContext(ctx, "git", "-C", root, "describe", "--always", "--dirty").Output(); err == nil {
		m.commit = strings.TrimSpace(string(out))
	}
	return m
}

// loadAverage returns the 1-minute load average, or "" where it is not
// known.
func loadAverage() string {
	if l := loadAverages(); l != nil {
		return l[0]
	}
	return ""
}

// writeHeader prints where, when and under what load the report was
// measured, then the goal summary.
func writeHeader(w io.Writer, o *options, start, end machine) {
	fmt.Fprintf(w, "# Performance\n\n")
	fmt.Fprintf(w, "<!-- peerbench: %s, %s/%s, %d CPUs, GOMAXPROCS %d, %s -->\n\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0), start.at.Format("2006-01-02"))
	var sections []string
	for _, s := range sectionNames() {
		if o.sections[s] {
			sections = append(sections, s)
		}
	}
	fmt.Fprintf(w, "Written by `make bench` (`tools/peerbench`, a module of its own): polyclass timed next to its peers, LIBLINEAR's `liblinear-train` and scikit-learn as its users run it, in the same run, the two sides of every ratio alternately on the same data and folds, the median of several runs, with the peak memory of each side's process tree sampled from `/proc`. Every number below comes from that command; none is edited by hand.\n\n")
	fmt.Fprintf(w, "Measured by `tools/peerbench` (sections %s; `-n %d -long %d -scaling-runs %d%s`) on %s–%s UTC", strings.Join(sections, ", "), o.runs, o.longRuns, o.scaleRuns, o.rowFlags(),
		start.at.Format("2006-01-02 15:04"), end.at.Format("15:04"))
	if start.commit != "" {
		fmt.Fprintf(w, " at commit `%s`", start.commit)
	}
	fmt.Fprintf(w, ".\n\n")
	fmt.Fprintf(w, "**Machine:** %s, %d CPUs, %s RAM, %s/%s, %s. ", orUnknown(start.cpu), runtime.NumCPU(), fmtBytes(start.memory), runtime.GOOS, runtime.GOARCH, runtime.Version())
	fmt.Fprintf(w, "**Load average** (1, 5, 15 min): %s at the start, %s at the end. ", orUnknown(start.load), orUnknown(end.load))
	fmt.Fprintf(w, "The machine may be shared: read the ratios (both sides timed alternately in the same run), not the absolute times.\n\n")
	fmt.Fprintf(w, "## Summary: the performance targets\n\n")
	fmt.Fprintf(w, "One line per measurement of a target, both sides from this run. The targets:\n\n")
	for i, name := range targetNames {
		fmt.Fprintf(w, "%d. %s;\n", i+1, name)
	}
	fmt.Fprintf(w, "\n")
	writeGoals(w, o.goals)
}

// runSection runs one section of the report.
func runSection(ctx context.Context, s string, o *options, w io.Writer, stderr io.Writer) error {
	switch s {
	case "letter":
		return letterSection(ctx, o, w, stderr)
	case "grid":
		return gridSection(ctx, o, w, stderr)
	case "diabetes":
		return diabetesSection(ctx, o, w, stderr)
	case "tax":
		return taxSection(ctx, o, w, stderr)
	case "plugintax":
		return plugintaxSection(ctx, o, w, stderr)
	case "profile":
		return profileSection(ctx, o, w, stderr)
	case "e2e":
		return e2eSection(ctx, o, w, stderr)
	case "scaling":
		return scalingSection(ctx, o, w, stderr)
	case "libsvm":
		return libsvmSection(ctx, o, w, stderr)
	case "share":
		return shareSection(ctx, o, w, stderr)
	case "tuning":
		return tuningSection(ctx, o, w, stderr)
	case "cores":
		return coresSection(ctx, o, w, stderr)
	case "irisgrid":
		return irisGridSection(ctx, o, w, stderr)
	case "together":
		return togetherSection(ctx, o, w, stderr)
	}
	return fmt.Errorf("unknown section %q", s)
}

// save writes the report to -o.
func (o *options) save(report string) error {
	if o.out == "" {
		return nil
	}
	if err := os.WriteFile(o.out, []byte(report), 0o644); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	return nil
}

// rowFlags prints the flags that cut a section's rows, those given: a
// report measured with them is a check that the sections run, not the
// targets' measurement.
func (o *options) rowFlags() string {
	var b strings.Builder
	for _, f := range []struct {
		name string
		n    int
	}{{"tuning-rows", o.tuningRows}, {"cores-rows", o.coresRows}, {"together-rows", o.togetherRows}} {
		if f.n > 0 {
			fmt.Fprintf(&b, " -%s %d", f.name, f.n)
		}
	}
	return b.String()
}
