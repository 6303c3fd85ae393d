package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// The cores section (targets 13 and 14, issue 58's "every core busy"):
// two runs, each timed with every process pinned to one core
// (`taskset -c 0 bench run -j 1`: bench and the plugins it starts inherit
// the pinning; `-j 1` alone is no one-core baseline, since a plugin
// spreads one request over the cores) against both cores
// (`taskset -c 0,1 bench run -j 2`), the two sides alternately, -long
// pairs:
//
//   - the letter grid: standardize + logreg, C ∈ {0.01, 0.1, 1, 10, 100}
//     × {ova, ovo} (10 cells), 10 stratified folds, 3 repeats (300 fold
//     jobs);
//   - 200 classes: the e2e section's data set (sklearn_e2e.py's
//     make_classification, 20,000 × 50) and experiment, standardize +
//     logreg + ovo (19,900 problems a fold), 3 stratified folds.
//
// Then one `bench run -j 2 --profile DIR` of each, whose timeline.json
// gives the run's serial fraction and the speed-up Amdahl's law
// predicts at 16 workers: an estimate for a 16-core machine, reported as
// such. -cores-rows N keeps the first N rows of each data set.

// coresBound is target 13's bound: the speed-up of both cores over one.
const coresBound = 1.85

// amdahlWorkers is the worker count of target 14's estimate.
const amdahlWorkers = 16

// coresLetterExperiment is the letter grid on letter's data file.
func coresLetterExperiment(data string) string {
	return fmt.Sprintf(`experiment "cores_letter" { seed = 1 }
dataset "letter" { path = %q }
encoder "std" { type = "standardize" }
learner "logreg" { params = { C = [0.01, 0.1, 1, 10, 100] } }
reduction "ova" { scheme = "ova" }
reduction "ovo" { scheme = "ovo" }
cv {
  folds      = 10
  stratified = true
  repeats    = 3
}
metrics = ["accuracy"]
output { formats = ["csv"] }
`, data)
}

// coresCase is one run of the section: its experiment, its timed pairs
// of runs and its profiled run's timeline.
type coresCase struct {
	name     string
	describe string
	file     string
	bound16  float64 // target 14's bound at amdahlWorkers
	one, two []*benchRun
	timeline *timelineFile
	cells    int
}

// coresSection times the two runs on one core and on two.
func coresSection(ctx context.Context, o *options, w io.Writer, stderr io.Writer) error {
	const title = "Every core busy: both cores against one, and 16 workers by Amdahl's law"
	letter := sectionInput(o, w, title, "letter.csv")
	if letter == "" {
		return nil
	}
	taskset, ok := lookTool("taskset")
	if !ok || runtime.NumCPU() < 2 {
		fmt.Fprintf(w, "## %s\n\nSkipped: needs `taskset` (util-linux) and 2 CPUs (%d here).\n\n", title, runtime.NumCPU())
		return nil
	}
	cases, skipped, err := coresCases(ctx, o, letter)
	if err != nil {
		return err
	}
	for _, c := range cases {
		if err := c.measure(ctx, o, taskset, stderr); err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
	}
	writeCores(w, title, o, cases, skipped)
	for _, c := range cases {
		coresGoals(o, c)
	}
	return nil
}

// coresCases writes the section's experiments; skipped says why the
// 200-class run is left out (no python with scikit-learn to make it).
func coresCases(ctx context.Context, o *options, letter string) (cases []*coresCase, skipped string, err error) {
	if letter, err = o.cutRows(letter, "cores_letter.csv", o.coresRows); err != nil {
		return nil, "", err
	}
	file := filepath.Join(o.tmp, "cores_letter.hcl")
	if err := os.WriteFile(file, []byte(coresLetterExperiment(letter)), 0o644); err != nil {
		return nil, "", fmt.Errorf("writing %s: %w", file, err)
	}
	cases = append(cases, &coresCase{name: "letter grid", file: file, bound16: 10,
		describe: "letter, standardize + logreg C ∈ {0.01, 0.1, 1, 10, 100} × {ova, ovo}, 10 stratified folds × 3 repeats"})
	classes, err := classes200Data(ctx, o)
	if err != nil {
		return nil, "", err
	}
	if classes == "" {
		return cases, fmt.Sprintf("the 200-class run: `%s` with scikit-learn, which makes its data, is not available", o.python), nil
	}
	if classes, err = o.cutRows(classes, "cores_classes200.csv", o.coresRows); err != nil {
		return nil, "", err
	}
	folds := filepath.Join(o.tmp, "cores_classes200.folds.csv")
	if err := writeFolds(classes, 3, folds); err != nil {
		return nil, "", err
	}
	file = filepath.Join(o.tmp, "cores_classes200.hcl")
	if err := os.WriteFile(file, []byte(e2eExperiment("classes200", classes, folds, nil, []string{"std"}, "logreg_ovo")), 0o644); err != nil {
		return nil, "", fmt.Errorf("writing %s: %w", file, err)
	}
	cases = append(cases, &coresCase{name: "200 classes", file: file, bound16: 6,
		describe: "make_classification 20,000 × 50, 200 classes, standardize + logreg C = 1 + ovo, 3 stratified folds"})
	return cases, "", nil
}

// cutRows returns data, or with n > 0 a copy of its header and first n
// rows in the temporary directory, named name.
func (o *options) cutRows(data, name string, n int) (string, error) {
	if n == 0 {
		return data, nil
	}
	out := filepath.Join(o.tmp, name)
	return out, headRows(data, out, n)
}

// classes200Data returns the e2e section's 200-class data file, made by
// sklearn_e2e.py's make_classification in the temporary directory unless
// the e2e section made it already; "" when python with scikit-learn is
// not available.
func classes200Data(ctx context.Context, o *options) (string, error) {
	data := filepath.Join(o.tmp, "classes200.csv")
	if _, err := os.Stat(data); err == nil {
		return data, nil
	}
	py, ok := lookTool(o.python)
	if !ok || exec.CommandContext(ctx, py, "-c", "import sklearn").Run() != nil {
		return "", nil
	}
	script := filepath.Join(o.tmp, "sklearn_e2e.py")
	if err := os.WriteFile(script, []byte(e2eScript), 0o644); err != nil {
		return "", fmt.Errorf("writing %s: %w", script, err)
	}
	if out, err := exec.CommandContext(ctx, py, script, "make_classification", data).CombinedOutput(); err != nil {
		return "", fmt.Errorf("making the 200-class data set: %w\n%s", err, out)
	}
	return data, nil
}

// measure times the case's pairs of runs, then profiles one run on both
// cores and reads its timeline.
func (c *coresCase) measure(ctx context.Context, o *options, taskset string, stderr io.Writer) error {
	one := benchCommand{jobs: 1, taskset: taskset, cpus: "0"}
	both := benchCommand{jobs: 2, taskset: taskset, cpus: "0,1"}
	slug := strings.ReplaceAll(c.name, " ", "_")
	for i := range o.longRuns {
		for _, pinned := range pairOrder(i) {
			cmd, runs, side := both, &c.two, "both cores"
			if pinned {
				cmd, runs, side = one, &c.one, "one core"
			}
			fmt.Fprintf(stderr, "peerbench: cores: %s, run %d of %d, %s\n", c.name, i+1, o.longRuns, side)
			r, err := runBenchAs(ctx, o, cmd, c.file, filepath.Join(o.tmp, fmt.Sprintf("cores_%s_%s_%d", slug, cmd.cpus, i)), stderr)
			if err != nil {
				return err
			}
			*runs = append(*runs, r)
		}
	}
	for _, row := range c.two[0].rows {
		if row.metric == "accuracy" {
			c.cells++
		}
	}
	dir := filepath.Join(o.tmp, "cores_profile_"+slug)
	fmt.Fprintf(stderr, "peerbench: cores: %s, profiled run on both cores\n", c.name)
	if _, err := runBenchAs(ctx, o, both, c.file, filepath.Join(o.tmp, "cores_profiled_"+slug), stderr, "--profile", dir); err != nil {
		return err
	}
	var err error
	c.timeline, err = readTimeline(filepath.Join(dir, "timeline.json"))
	return err
}

// timelineFile is what peerbench reads of the timeline.json that
// `bench run --profile DIR` writes (docs/performance.md).
type timelineFile struct {
	Wall           float64 `json:"wall_seconds"`
	Workers        int     `json:"workers"`
	Serial         float64 `json:"serial_seconds"`
	Work           float64 `json:"work_seconds"`
	SerialFraction float64 `json:"serial_fraction"`
	Amdahl         []struct {
		Workers int     `json:"workers"`
		Speedup float64 `json:"speedup"`
	} `json:"amdahl"`
}

// readTimeline reads a timeline.json.
func readTimeline(path string) (*timelineFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the run's timeline: %w", err)
	}
	var t timelineFile
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if t.Work <= 0 {
		return nil, fmt.Errorf("%s: no work_seconds (a bench older than the timeline?)", path)
	}
	return &t, nil
}

// speedup returns the speed-up Amdahl's law gives at n workers, as the
// timeline states it.
func (t *timelineFile) speedup(n int) (float64, error) {
	var have []string
	for _, a := range t.Amdahl {
		if a.Workers == n {
			return a.Speedup, nil
		}
		have = append(have, fmt.Sprint(a.Workers))
	}
	return 0, fmt.Errorf("the timeline gives no Amdahl speed-up at %d workers (it gives %s)", n, orNone(strings.Join(have, ", ")))
}

// orNone prints s, or "none" for "".
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// walls returns the wall times of runs.
func walls(runs []*benchRun) []time.Duration {
	out := make([]time.Duration, len(runs))
	for i, r := range runs {
		out[i] = r.wall
	}
	return out
}

// cpus returns the CPU times of runs.
func cpus(runs []*benchRun) []time.Duration {
	out := make([]time.Duration, len(runs))
	for i, r := range runs {
		out[i] = r.cpu
	}
	return out
}

// coresGoals records a case's lines of targets 13 and 14.
func coresGoals(o *options, c *coresCase) {
	cut := ""
	if o.coresRows > 0 {
		cut = fmt.Sprintf(" (-cores-rows %d: not the target's measurement)", o.coresRows)
	}
	o.addGoal(goalResult{goal: coresGoal,
		what: fmt.Sprintf("%s: one core (`taskset -c 0 bench run -j 1`) vs both (`taskset -c 0,1 bench run -j 2`), wall, median of %d paired ratios (CPU %s vs %s)%s",
			c.name, len(c.one), fmtDur(median(cpus(c.one))), fmtDur(median(cpus(c.two))), cut),
		ours: median(walls(c.one)).Seconds(), peer: median(walls(c.two)).Seconds(), unit: unitSeconds,
		target: coresBound, atLeast: true, paired: median(pairedRatios(walls(c.one), walls(c.two)))})
	s, err := c.timeline.speedup(amdahlWorkers)
	what := fmt.Sprintf("%s: speed-up at %d workers, an estimate from Amdahl's law with the serial fraction %.4f of `bench run -j 2 --profile`, not a measurement%s",
		c.name, amdahlWorkers, c.timeline.SerialFraction, cut)
	if err != nil {
		what += ": " + err.Error()
	}
	o.addGoal(goalResult{goal: amdahlGoal, what: what, ours: s, unit: unitPlain, target: c.bound16, atLeast: true})
}

// writeCores prints the section.
func writeCores(w io.Writer, title string, o *options, cases []*coresCase, skipped string) {
	fmt.Fprintf(w, "## %s\n\n", title)
	rows := "all their rows"
	if o.coresRows > 0 {
		rows = fmt.Sprintf("the first %d rows of each (-cores-rows; not the targets' measurement)", o.coresRows)
	}
	fmt.Fprintf(w, "Targets 13 and 14, on %s. Each run is timed with every process pinned to one core (`taskset -c 0 bench run -j 1`: the plugin processes inherit the pinning; `-j 1` alone is no one-core baseline, since a plugin spreads one request over the cores) and on both (`taskset -c 0,1 bench run -j 2`), the two alternately, each first in every other pair, %d pairs: wall and CPU (user + system of bench and its plugins) are medians, the speed-up the median of the pairs' ratios (bound ≥ %.2f). "+
		"The last two columns come from one more run on both cores with `--profile DIR`: the serial fraction of its `timeline.json` (the wall time of the stages that run on one goroutine, over that plus the workers' time in a phase) and the speed-up Amdahl's law gives at %d workers, "+
		"**an estimate from Amdahl's law, not a measurement** (no 16-core machine was at hand; bounds ≥ 10× for the letter grid, ≥ 6× for 200 classes). The letter grid's folds are bench's own stratified 10 folds, drawn afresh for each of the 3 repeats: a folds file fixes one assignment and admits no repeats.\n\n",
		rows, o.longRuns, coresBound, amdahlWorkers)
	fmt.Fprintf(w, "| run | cells | one core: wall | one core: CPU | both cores: wall | both cores: CPU | speed-up | serial fraction | Amdahl at %d (estimate) |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n", amdahlWorkers)
	for _, c := range cases {
		est := "–"
		if s, err := c.timeline.speedup(amdahlWorkers); err == nil {
			est = fmt.Sprintf("%.2f×", s)
		}
		fmt.Fprintf(w, "| %s: %s | %d | %s | %s | %s | %s | **%.2f×** | %.4f | %s |\n", c.name, c.describe, c.cells,
			fmtDur(median(walls(c.one))), fmtDur(median(cpus(c.one))), fmtDur(median(walls(c.two))), fmtDur(median(cpus(c.two))),
			median(pairedRatios(walls(c.one), walls(c.two))), c.timeline.SerialFraction, est)
	}
	if skipped != "" {
		fmt.Fprintf(w, "\nLeft out: %s.\n", skipped)
	}
	fmt.Fprintln(w)
}
