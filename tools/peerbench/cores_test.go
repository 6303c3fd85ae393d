package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyclass/polyclass/framework/config"
)

// TestBenchCommandArgv: a bench run's command line, plain and pinned by
// taskset, the extra flags before -o.
func TestBenchCommandArgv(t *testing.T) {
	for _, tc := range []struct {
		name  string
		c     benchCommand
		flags []string
		want  string
	}{
		{"plain", benchCommand{jobs: 2}, nil, "B run --quiet -j 2 -o OUT F"},
		{"one core", benchCommand{jobs: 1, taskset: "/usr/bin/taskset", cpus: "0"}, nil, "/usr/bin/taskset -c 0 B run --quiet -j 1 -o OUT F"},
		{"both cores, profiled", benchCommand{jobs: 2, taskset: "ts", cpus: "0,1"}, []string{"--profile", "P"}, "ts -c 0,1 B run --quiet -j 2 --profile P -o OUT F"},
	} {
		if got := strings.Join(tc.c.argv("B", "F", "OUT", tc.flags), " "); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// timelineSample is a timeline.json as bench run --profile writes it
// (cmd/bench/timeline.go), cut to what peerbench reads and a little more.
const timelineSample = `{
  "wall_seconds": 5.2,
  "bench_cpu_seconds": 1.1,
  "plugin_cpu_seconds": 8.4,
  "stages": [{"name": "read", "what": "...", "wall_seconds": 0.2, "bench_cpu_seconds": 0.1, "serial": true}],
  "workers": 2,
  "folds_wall_seconds": 4.8,
  "fold_phases": [{"phase": "fit", "seconds": 8.0}],
  "fold_idle_worker_seconds": 0.3,
  "serial_seconds": 0.4,
  "work_seconds": 8.4,
  "serial_fraction": 0.047619,
  "amdahl": [
    {"workers": 2, "speedup": 1.909},
    {"workers": 4, "speedup": 3.5},
    {"workers": 8, "speedup": 6.0},
    {"workers": 16, "speedup": 9.333}
  ]
}
`

func TestReadTimeline(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tl, err := readTimeline(write("timeline.json", timelineSample))
	if err != nil {
		t.Fatal(err)
	}
	if tl.SerialFraction != 0.047619 || tl.Workers != 2 || tl.Serial != 0.4 || tl.Work != 8.4 {
		t.Errorf("timeline %+v", tl)
	}
	for _, tc := range []struct {
		n    int
		want float64
		err  string
	}{
		{16, 9.333, ""},
		{4, 3.5, ""},
		{32, 0, "the timeline gives no Amdahl speed-up at 32 workers (it gives 2, 4, 8, 16)"},
	} {
		got, err := tl.speedup(tc.n)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("speedup(%d): error %v, want %q", tc.n, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("speedup(%d) = %v (%v), want %v", tc.n, got, err, tc.want)
		}
	}
	if _, err := (&timelineFile{}).speedup(16); err == nil || err.Error() != "the timeline gives no Amdahl speed-up at 16 workers (it gives none)" {
		t.Errorf("no speed-ups: %v", err)
	}
	for _, tc := range []struct{ name, text, err string }{
		{"old.json", `{"wall_seconds": 1}`, "old.json: no work_seconds (a bench older than the timeline?)"},
		{"bad.json", `{"work_seconds": "x"}`, "bad.json: json: cannot unmarshal"},
	} {
		_, err := readTimeline(write(tc.name, tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: error %v, want it to say %q", tc.name, err, tc.err)
		}
	}
	if _, err := readTimeline(filepath.Join(dir, "none.json")); err == nil || !strings.HasPrefix(err.Error(), "reading the run's timeline: ") {
		t.Errorf("missing file: %v", err)
	}
}

// TestCoresLetterExperiment: the letter grid is 5 C × {ova, ovo} over 10
// stratified folds, 3 repeats.
func TestCoresLetterExperiment(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cores.hcl")
	if err := os.WriteFile(file, []byte(coresLetterExperiment("/data/letter.csv")), 0o644); err != nil {
		t.Fatal(err)
	}
	exp, diags := config.NewParser(config.DefaultFormats()).ParseFile(file)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if cv := exp.CV; cv.Folds != 10 || cv.Repeats != 3 || !cv.Stratified || cv.FoldsFile != "" {
		t.Errorf("cv %+v, want 10 stratified folds, 3 repeats", cv)
	}
	if len(exp.Learners) != 1 || exp.Learners[0].Name != "logreg" || len(exp.Encoders) != 1 || exp.Encoders[0].Type != "standardize" {
		t.Fatalf("learners %v, encoders %v", exp.Learners, exp.Encoders)
	}
	var cs []float64
	for _, v := range exp.Learners[0].Params["C"].Value.Elems() {
		cs = append(cs, v.Num())
	}
	if !slices.Equal(cs, []float64{0.01, 0.1, 1, 10, 100}) {
		t.Errorf("C = %v", cs)
	}
	var reds []string
	for _, r := range exp.Reductions {
		reds = append(reds, r.Name+":"+r.Scheme)
	}
	if !slices.Equal(reds, []string{"ova:ova", "ovo:ovo"}) {
		t.Errorf("reductions %v", reds)
	}
}

// coresSample is a case measured in two pairs of runs: one core takes
// 10 s and 9 s, both cores 5 s and 6 s (paired ratios 2.0 and 1.5).
func coresSample(t *testing.T) *coresCase {
	t.Helper()
	p := filepath.Join(t.TempDir(), "timeline.json")
	if err := os.WriteFile(p, []byte(timelineSample), 0o644); err != nil {
		t.Fatal(err)
	}
	tl, err := readTimeline(p)
	if err != nil {
		t.Fatal(err)
	}
	run := func(wall, cpu float64) *benchRun {
		return &benchRun{wall: time.Duration(wall * float64(time.Second)), cpu: time.Duration(cpu * float64(time.Second))}
	}
	return &coresCase{name: "letter grid", describe: "D", bound16: 10, cells: 10, timeline: tl,
		one: []*benchRun{run(10, 9.5), run(9, 9)}, two: []*benchRun{run(5, 10), run(6, 11)}}
}

// TestCoresGoals: target 13 reads the median of the pairs' ratios (1.75,
// not the medians' 9.5/5.5); target 14 the timeline's speed-up at 16,
// said to be an estimate; -cores-rows marks both.
func TestCoresGoals(t *testing.T) {
	for _, tc := range []struct {
		rows int
		cut  string
	}{{0, ""}, {2000, " (-cores-rows 2000: not the target's measurement)"}} {
		o := &options{coresRows: tc.rows}
		coresGoals(o, coresSample(t))
		if len(o.goals) != 2 {
			t.Fatalf("%d goals, want 2", len(o.goals))
		}
		g := o.goals[0]
		if g.goal != coresGoal || g.value() != 1.75 || g.met() || g.ours != 9.5 || g.peer != 5.5 || !g.atLeast || g.target != 1.85 {
			t.Errorf("target 13: %+v (value %v)", g, g.value())
		}
		if want := "letter grid: one core (`taskset -c 0 bench run -j 1`) vs both (`taskset -c 0,1 bench run -j 2`), wall, median of 2 paired ratios (CPU 9.25 s vs 10.5 s)" + tc.cut; g.what != want {
			t.Errorf("target 13 says %q, want %q", g.what, want)
		}
		g = o.goals[1]
		if g.goal != amdahlGoal || g.value() != 9.333 || g.met() || g.target != 10 || !g.atLeast || g.peer != 0 {
			t.Errorf("target 14: %+v", g)
		}
		if want := "letter grid: speed-up at 16 workers, an estimate from Amdahl's law with the serial fraction 0.0476 of `bench run -j 2 --profile`, not a measurement" + tc.cut; g.what != want {
			t.Errorf("target 14 says %q, want %q", g.what, want)
		}
	}
}

func TestWriteCores(t *testing.T) {
	var b strings.Builder
	writeCores(&b, "T", &options{longRuns: 2}, []*coresCase{coresSample(t)}, "the 200-class run: no python")
	for _, want := range []string{
		"| letter grid: D | 10 | 9.50 s | 9.25 s | 5.50 s | 10.5 s | **1.75×** | 0.0476 | 9.33× |\n",
		"Left out: the 200-class run: no python.",
		"**an estimate from Amdahl's law, not a measurement**",
		"on all their rows.",
		"2 pairs",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in\n%s", want, b.String())
		}
	}
}

// TestRowFlags: the flags that cut rows are refused below 0, and the
// report's header names those given.
func TestRowFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		err  string
		want string
	}{
		{[]string{"-cores-rows", "-1"}, "peerbench: -cores-rows -1: want a number of rows, or 0 for all", ""},
		{[]string{"-together-rows", "-5"}, "peerbench: -together-rows -5: want a number of rows, or 0 for all", ""},
		{[]string{"-tuning-rows", "-2"}, "peerbench: -tuning-rows -2: want a number of rows, or 0 for all", ""},
		{nil, "", ""},
		{[]string{"-together-rows", "1000", "-cores-rows", "2000"}, "", " -cores-rows 2000 -together-rows 1000"},
	} {
		o, err := parseFlags(append([]string{"-root", t.TempDir()}, tc.args...))
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: error %v, want %q", tc.args, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if got := o.rowFlags(); got != tc.want {
			t.Errorf("%q: rowFlags %q, want %q", tc.args, got, tc.want)
		}
	}
}
