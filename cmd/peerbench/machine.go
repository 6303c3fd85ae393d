package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
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
	m := machine{at: time.Now().UTC()}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(b)); len(f) >= 3 {
			m.load = strings.Join(f[:3], " ")
		}
	}
	m.cpu = procField("/proc/cpuinfo", "model name")
	if kb := procField("/proc/meminfo", "MemTotal"); kb != "" {
		if n, err := strconv.ParseInt(strings.Fields(kb)[0], 10, 64); err == nil {
			m.memory = n * 1024
		}
	}
	if out, err := exec.CommandContext(ctx, "git", "-C", root, "describe", "--always", "--dirty").Output(); err == nil {
		m.commit = strings.TrimSpace(string(out))
	}
	return m
}

// procField returns the value of the first "name: value" line of a /proc
// file, or "".
func procField(path, name string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == name {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// writeHeader prints where, when and under what load the report was
// measured, then the goal summary.
func writeHeader(w io.Writer, o *options, start, end machine) {
	fmt.Fprintf(w, "<!-- peerbench: %s, %s/%s, %d CPUs, GOMAXPROCS %d, %s -->\n\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0), start.at.Format("2006-01-02"))
	var sections []string
	for _, s := range sectionNames() {
		if o.sections[s] {
			sections = append(sections, s)
		}
	}
	fmt.Fprintf(w, "Measured by `cmd/peerbench` (sections %s; `-n %d -long %d -scaling-runs %d`) on %s–%s UTC", strings.Join(sections, ", "), o.runs, o.longRuns, o.scaleRuns,
		start.at.Format("2006-01-02 15:04"), end.at.Format("15:04"))
	if start.commit != "" {
		fmt.Fprintf(w, " at commit `%s`", start.commit)
	}
	fmt.Fprintf(w, ".\n\n")
	fmt.Fprintf(w, "**Machine:** %s, %d CPUs, %s RAM, %s/%s, %s. ", orUnknown(start.cpu), runtime.NumCPU(), fmtBytes(start.memory), runtime.GOOS, runtime.GOARCH, runtime.Version())
	fmt.Fprintf(w, "**Load average** (1, 5, 15 min): %s at the start, %s at the end. ", orUnknown(start.load), orUnknown(end.load))
	fmt.Fprintf(w, "The machine may be shared: read the ratios (both sides timed alternately in the same run), not the absolute times.\n\n")
	fmt.Fprintf(w, "## Summary: the goals of issue 14 (\"Performance\")\n\n")
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
	}
	return fmt.Errorf("unknown section %q", s)
}

// demote turns the report's "## " headings into "### ", so that it sits
// under the README's "## Performance" heading.
func demote(md string) string {
	lines := strings.SplitAfter(md, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "#") {
			lines[i] = "#" + l
		}
	}
	return strings.Join(lines, "")
}

// save writes the report to -o and splices it into -readme.
func (o *options) save(report string) error {
	if o.out != "" {
		if err := os.WriteFile(o.out, []byte(report), 0o644); err != nil {
			return fmt.Errorf("writing the report: %w", err)
		}
	}
	if o.readme == "" {
		return nil
	}
	b, err := os.ReadFile(o.readme)
	if err != nil {
		return fmt.Errorf("reading the README: %w", err)
	}
	s, err := spliceReadme(string(b), report)
	if err != nil {
		return fmt.Errorf("%s: %w", o.readme, err)
	}
	if err := os.WriteFile(o.readme, []byte(s), 0o644); err != nil {
		return fmt.Errorf("writing the README: %w", err)
	}
	return nil
}
