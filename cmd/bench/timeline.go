package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/internal/profile"
)

// Timeline files of bench run --profile DIR, beside the pprof profiles.
const (
	timelineText = "timeline.txt"
	timelineJSON = "timeline.json"
)

// amdahlWorkers are the worker counts at which a timeline gives the
// speed-up Amdahl's law predicts from its serial fraction.
var amdahlWorkers = []int{2, 4, 8, 16}

// timeline records where one bench run --profile spent its time: its
// stages one after the other (read, begin, folds, finish, close), each
// with its wall time and bench's CPU time, and the phases of the folds
// (engine.Stats.Phases). A nil timeline records nothing.
type timeline struct {
	start, last time.Time
	lastCPU     time.Duration
	// children is the CPU time of the ended child processes at the start
	// (none in bench; those of earlier runs in a test's process).
	children  time.Duration
	stages    []stageTime
	stats     *engine.Stats
	foldsWall time.Duration
}

// stageTime is one stage of a run: its wall time and bench's CPU time in
// seconds, and whether it runs on one goroutine (serial) or on the
// workers.
type stageTime struct {
	Name   string  `json:"name"`
	What   string  `json:"what"`
	Wall   float64 `json:"wall_seconds"`
	CPU    float64 `json:"bench_cpu_seconds"`
	Serial bool    `json:"serial"`
}

// stageWhat says what each stage covers, in the order a run goes through
// them; every stage but folds runs on one goroutine.
var stageWhat = []struct{ name, what string }{
	{"read", "parse the experiment, read and check the data, start and ask the plugins"},
	{"begin", "open the results directory: earlier cells, manifest, run log"},
	{"folds", "the workers run the folds (see the phases)"},
	{"finish", "the tables, the report and the manifest"},
	{"close", "the plugin processes end and write their profiles"},
}

// newTimeline starts a timeline now.
func newTimeline() *timeline {
	now := time.Now()
	self, children, _ := processCPU()
	return &timeline{start: now, last: now, lastCPU: self, children: children}
}

// mark ends stage name (one of stageWhat's) now: its time is that since
// the previous mark.
func (t *timeline) mark(name string) {
	if t == nil {
		return
	}
	now := time.Now()
	self, _, _ := processCPU()
	s := stageTime{Name: name, Wall: now.Sub(t.last).Seconds(), CPU: (self - t.lastCPU).Seconds(), Serial: name != "folds"}
	for _, w := range stageWhat {
		if w.name == name {
			s.What = w.what
		}
	}
	t.stages = append(t.stages, s)
	t.last, t.lastCPU = now, self
}

// folds records the engine's stats of the folds stage, which took wall.
func (t *timeline) folds(s engine.Stats, wall time.Duration) {
	if t == nil {
		return
	}
	t.stats, t.foldsWall = &s, wall
}

// timelineReport is what timeline.json holds (see docs/performance.md).
type timelineReport struct {
	Wall      float64     `json:"wall_seconds"`
	BenchCPU  float64     `json:"bench_cpu_seconds"`
	PluginCPU float64     `json:"plugin_cpu_seconds"`
	Stages    []stageTime `json:"stages"`
	Workers   int         `json:"workers"`
	// FoldsWall is the engine's wall time over the folds (the folds
	// stage less its bookkeeping).
	FoldsWall float64 `json:"folds_wall_seconds"`
	// Phases are the fold phases' worker seconds, summed over the
	// workers; Idle the workers' time in no phase.
	Phases []engine.PhaseTime `json:"fold_phases"`
	Idle   float64            `json:"fold_idle_worker_seconds"`
	// Write is the time the writer of cell files spent beside the workers.
	Write float64 `json:"fold_write_seconds"`
	// Serial is the wall time of the serial stages, Work that plus the
	// workers' time in a phase; SerialFraction = Serial / Work.
	Serial         float64   `json:"serial_seconds"`
	Work           float64   `json:"work_seconds"`
	SerialFraction float64   `json:"serial_fraction"`
	Amdahl         []speedup `json:"amdahl"`
}

// speedup is the speed-up Amdahl's law predicts at Workers workers.
type speedup struct {
	Workers int     `json:"workers"`
	Speedup float64 `json:"speedup"`
}

// report sums the timeline up; plugin is the CPU time of the plugin
// processes.
func (t *timeline) report(plugin time.Duration) timelineReport {
	r := timelineReport{Wall: t.last.Sub(t.start).Seconds(), PluginCPU: plugin.Seconds(), Stages: t.stages}
	busy := 0.0
	for _, s := range t.stages {
		r.BenchCPU += s.CPU
		if s.Serial {
			r.Serial += s.Wall
		}
	}
	if t.stats != nil {
		r.Workers, r.Phases, r.FoldsWall = t.stats.Workers, t.stats.Phases, t.foldsWall.Seconds()
		for _, p := range r.Phases {
			busy += p.Seconds
		}
		r.Idle = max(r.FoldsWall*float64(r.Workers)-busy, 0)
		r.Write = t.stats.WriteSeconds
	}
	r.Work = r.Serial + busy
	if r.Work > 0 {
		r.SerialFraction = r.Serial / r.Work
	}
	for _, n := range amdahlWorkers {
		r.Amdahl = append(r.Amdahl, speedup{Workers: n, Speedup: amdahl(r.SerialFraction, n)})
	}
	return r
}

// amdahl is the speed-up on n workers of work whose fraction serial runs
// on one: 1 / (serial + (1 − serial) / n).
func amdahl(serial float64, n int) float64 {
	return 1 / (serial + (1-serial)/float64(n))
}

// write writes the timeline into the profile directory d, as
// timeline.txt (for reading) and timeline.json (for tools), the plugin
// processes having ended: each a new file, or over an earlier timeline of
// bench's (checkTimeline), never over another file nor through a link.
func (t *timeline) write(d *profile.Dir) error {
	if t == nil {
		return nil
	}
	_, children, _ := processCPU()
	r := t.report(children - t.children)
	var txt strings.Builder
	r.writeText(&txt)
	js, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("--profile %s: %w", d.Path(), err)
	}
	return errors.Join(
		d.Replace(timelineText, []byte(txt.String()), isTimelineText),
		d.Replace(timelineJSON, append(js, '\n'), isTimelineJSON))
}

// checkTimeline says, before a run starts, whether write may write the
// timeline files into d: each absent, or an earlier timeline of bench's.
func checkTimeline(d *profile.Dir) error {
	return errors.Join(d.CheckOwn(timelineText, isTimelineText), d.CheckOwn(timelineJSON, isTimelineJSON))
}

// isTimelineText reports whether b reads as a timeline.txt bench wrote:
// its first line's start and its last line's (writeText).
func isTimelineText(b []byte) bool {
	s := string(b)
	last := strings.LastIndex(strings.TrimSuffix(s, "\n"), "\n")
	return strings.HasPrefix(s, "bench run: ") && last >= 0 && strings.HasPrefix(s[last+1:], "Amdahl's law:") && strings.HasSuffix(s, "\n")
}

// isTimelineJSON reports whether b is a timeline.json bench wrote: a
// timelineReport, no field more, with its stages.
func isTimelineJSON(b []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var r timelineReport
	return dec.Decode(&r) == nil && len(r.Stages) > 0 && len(r.Amdahl) > 0 && !dec.More()
}

// writeText writes the timeline as text: the totals, the stages, the
// fold phases (as in the run log) and the serial fraction.
func (r timelineReport) writeText(w io.Writer) {
	fmt.Fprintf(w, "bench run: %.3f s wall; CPU: bench %.3f s, plugins %.3f s\n", r.Wall, r.BenchCPU, r.PluginCPU)
	fmt.Fprintf(w, "  %-8s %10s %14s  %-6s %s\n", "stage", "wall", "bench CPU", "serial", "what")
	for _, s := range r.Stages {
		serial := "yes"
		if !s.Serial {
			serial = "no"
		}
		fmt.Fprintf(w, "  %-8s %8.3f s %12.3f s  %-6s %s\n", s.Name, s.Wall, s.CPU, serial, s.What)
	}
	if r.Workers > 0 {
		writePhases(w, engine.Stats{Workers: r.Workers, Phases: r.Phases, WriteSeconds: r.Write}, time.Duration(r.FoldsWall*float64(time.Second)))
	}
	fmt.Fprintf(w, "serial fraction %.4f: %.3f s in serial stages of %.3f s of work (serial stages + the workers' time in a phase)\n", r.SerialFraction, r.Serial, r.Work)
	fmt.Fprint(w, "Amdahl's law:")
	for i, a := range r.Amdahl {
		sep := ","
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(w, "%s %.2f× on %s", sep, a.Speedup, plural(a.Workers, "worker"))
	}
	fmt.Fprintln(w)
}
