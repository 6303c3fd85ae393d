package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/internal/profile"
)

// TestRunProfile: bench run --profile DIR writes a CPU and a heap profile
// of bench and of each plugin process (logreg and the reducers), named
// NAME-PID, each a gzipped pprof protobuf whose string table names its
// sample types.
func TestRunProfile(t *testing.T) {
	file := writeExperiment(t, `experiment "prof" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" { params = { C = 1 } }
reduction "ova" { scheme = "ova" }
`)
	dir := filepath.Join(t.TempDir(), "prof")
	if _, stderr, err := bench(t, "run", "--profile", dir, "-o", t.TempDir(), file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]int{}
	name := regexp.MustCompile(`^(bench|logreg|reducers)-[0-9]+\.(cpu|heap)\.pprof$`)
	for _, e := range entries {
		if e.Name() == timelineText || e.Name() == timelineJSON {
			continue // TestRunProfileTimeline
		}
		m := name.FindStringSubmatch(e.Name())
		if m == nil {
			t.Errorf("unexpected file %s", e.Name())
			continue
		}
		found[m[1]+" "+m[2]]++
		b := gunzip(t, filepath.Join(dir, e.Name()))
		want := "samples"
		if m[2] == "heap" {
			want = "inuse_space"
		}
		if len(b) < 64 || !bytes.Contains(b, []byte(want)) {
			t.Errorf("%s: %d bytes without %q: not a %s profile", e.Name(), len(b), want, m[2])
		}
	}
	for _, p := range []string{"bench", "logreg", "reducers"} {
		for _, kind := range []string{"cpu", "heap"} {
			if found[p+" "+kind] != 1 {
				t.Errorf("%d %s profiles of %s, want 1 (files %v)", found[p+" "+kind], kind, p, entries)
			}
		}
	}
}

// gunzip returns the decompressed content of a gzipped file.
func gunzip(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return b
}

// TestProfiledReportsStopError: profiled returns the error of stopping
// the profiles (here the heap profile, whose directory became a file
// while the command ran: the profile directory's Root still holds the
// removed one, where nothing can be made) joined with the command's. withHost dropped it
// before: the deferred join wrote to a shadowed err, and the run ended
// well without its heap profile.
func TestProfiledReportsStopError(t *testing.T) {
	h := host.New(t.TempDir(), io.Discard)
	for _, tc := range []struct {
		name    string
		replace bool  // the profile directory becomes a file
		err     error // the command's
		want    []string
	}{
		{name: "stopped well"},
		{name: "heap profile not written", replace: true,
			want: []string{"heap profile: $DIR/bench-", ".heap.pprof: openat bench-", ".heap.pprof: no such file or directory"}},
		{name: "command and profile fail", replace: true, err: errors.New("the command failed"),
			want: []string{"the command failed\nheap profile: $DIR/bench-", ".heap.pprof: openat bench-", ".heap.pprof: no such file or directory"}},
		{name: "command fails", err: errors.New("the command failed"), want: []string{"the command failed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "prof")
			err := profiled(h, dir, func(*profile.Dir) error {
				if tc.replace {
					if err := os.RemoveAll(dir); err != nil {
						return err
					}
					if err := os.WriteFile(dir, nil, 0o644); err != nil {
						return err
					}
				}
				return tc.err
			})
			if tc.want == nil {
				if err != nil {
					t.Fatalf("profiled: %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("profiled: nil, want an error with %q", tc.want)
			}
			got := strings.ReplaceAll(err.Error(), dir, "$DIR")
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("profiled: %s\nwant it to hold %q", got, w)
				}
			}
		})
	}
}

// TestRunProfileTimeline: bench run --profile DIR also writes the run's
// timeline, timeline.json and timeline.txt: the stages in order (read,
// begin, folds, finish, close), each with its wall and CPU time, the fold
// phases of engine.Stats, the serial fraction of the work and the
// speed-ups Amdahl's law gives from it.
func TestRunProfileTimeline(t *testing.T) {
	file := writeExperiment(t, `experiment "prof" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" { params = { C = [0.1, 1] } }
reduction "ova" { scheme = "ova" }
reduction "ovo" { scheme = "ovo" }
`)
	dir := filepath.Join(t.TempDir(), "prof")
	if _, stderr, err := bench(t, "run", "--profile", dir, "-j", "2", "-o", t.TempDir(), file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, timelineJSON))
	if err != nil {
		t.Fatal(err)
	}
	var r timelineReport
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: %v", timelineJSON, err)
	}
	var names []string
	wall, serial := 0.0, 0.0
	for _, s := range r.Stages {
		names = append(names, s.Name)
		wall += s.Wall
		if s.Serial {
			serial += s.Wall
		}
		if s.Wall < 0 || s.CPU < 0 || s.What == "" {
			t.Errorf("stage %+v", s)
		}
	}
	if got := strings.Join(names, " "); got != "read begin folds finish close" {
		t.Errorf("stages %q, want read begin folds finish close", got)
	}
	if math.Abs(wall-r.Wall) > 1e-6 || math.Abs(serial-r.Serial) > 1e-6 {
		t.Errorf("wall %g, serial %g: the stages sum to %g and %g", r.Wall, r.Serial, wall, serial)
	}
	var phases []string
	busy := 0.0
	for _, p := range r.Phases {
		phases = append(phases, p.Name)
		busy += p.Seconds
	}
	if got := strings.Join(phases, ","); got != "encode,upload,plan,fit,wait for shared fits,predict,decode,score,views" {
		t.Errorf("fold phases %q", got)
	}
	if r.Workers != 2 || busy <= 0 || r.Write <= 0 || r.BenchCPU <= 0 || r.PluginCPU <= 0 {
		t.Errorf("workers %d, phases %g s, writer %g s, CPU bench %g s, plugins %g s: want 2 workers and time in each", r.Workers, busy, r.Write, r.BenchCPU, r.PluginCPU)
	}
	if want := r.Serial / (r.Serial + busy); r.SerialFraction <= 0 || r.SerialFraction >= 1 || math.Abs(r.SerialFraction-want) > 1e-9 {
		t.Errorf("serial fraction %g, want %g in (0, 1)", r.SerialFraction, want)
	}
	if len(r.Amdahl) != 4 || r.Amdahl[3].Workers != 16 || math.Abs(r.Amdahl[3].Speedup-amdahl(r.SerialFraction, 16)) > 1e-9 {
		t.Errorf("Amdahl %+v", r.Amdahl)
	}
	txt, err := os.ReadFile(filepath.Join(dir, timelineText))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"bench run: ", "  read  ", "  folds  ", "phases (seconds summed over the workers", "  fit  ", "serial fraction 0.", "× on 16 workers\n"} {
		if !strings.Contains(string(txt), want) {
			t.Errorf("%s lacks %q:\n%s", timelineText, want, txt)
		}
	}
}

// TestAmdahl: the speed-up Amdahl's law gives on n workers to work whose
// serial fraction is f.
func TestAmdahl(t *testing.T) {
	for _, c := range []struct {
		f    float64
		n    int
		want float64
	}{
		{0, 16, 16},
		{1, 16, 1},
		{0.1, 2, 1 / (0.1 + 0.45)},
		{0.05, 16, 1 / (0.05 + 0.95/16)},
	} {
		if got := amdahl(c.f, c.n); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("amdahl(%g, %d) = %g, want %g", c.f, c.n, got, c.want)
		}
	}
}

// TestProfileInsideResultsRefused: bench run --profile DIR refuses a DIR
// inside the run's results directory (given by -o), or inside any bench
// results directory, before it writes a profile: a run would take the
// profiles for its own files (bench table then failed on
// cells/timeline.json, and --fresh moved them aside).
func TestProfileInsideResultsRefused(t *testing.T) {
	file := writeExperiment(t, `experiment "prof" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" { params = { C = 1 } }
reduction "ova" { scheme = "ova" }
`)
	out := filepath.Join(t.TempDir(), "out")
	if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	before, err := os.ReadDir(filepath.Join(out, "cells"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, profile, want string
	}{
		{"this run's results directory", filepath.Join(out, "prof"), "inside the results directory " + out + " of this run"},
		{"a results directory's cells", filepath.Join(out, "cells"), "inside the results directory " + out + ", whose entries bench manages"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"run", "--profile", tc.profile, "-o", out, file}
			if tc.name != "this run's results directory" {
				args = []string{"run", "--profile", tc.profile, "-o", filepath.Join(t.TempDir(), "other"), file}
			}
			_, stderr, err := bench(t, args...)
			if err == nil || !strings.Contains(err.Error()+stderr, tc.want) {
				t.Fatalf("err %v, stderr\n%s\nwant %q", err, stderr, tc.want)
			}
			if _, err := os.Stat(filepath.Join(out, "prof")); !os.IsNotExist(err) {
				t.Errorf("%s/prof made (%v)", out, err)
			}
			after, err := os.ReadDir(filepath.Join(out, "cells"))
			if err != nil {
				t.Fatal(err)
			}
			if len(after) != len(before) {
				t.Errorf("cells/ holds %d entries, %d before", len(after), len(before))
			}
		})
	}
}

// TestProfileDirNeverOverwrites: bench run --profile DIR makes its files
// in DIR without following links and never over a file it did not write
// (campaign 6's B44 and B46): a user's timeline.txt or timeline.json, a
// link in their place (to a file outside, or dangling) and a file with
// the name of bench's own profile are each refused with an error naming
// them before the command runs, and left as they were, with nothing made
// outside DIR; an earlier timeline of bench's is replaced by the new one.
func TestProfileDirNeverOverwrites(t *testing.T) {
	h := host.New(t.TempDir(), io.Discard)
	pid := strconv.Itoa(os.Getpid())
	earlier := newTimeline()
	earlier.mark("read")
	earlier.mark("begin") // a stage more than the new timeline's
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir, outside string)
		want  string // the error, DIR for the profile directory; "" none
	}{
		{"user's timeline.txt", func(t *testing.T, dir, _ string) { write(t, filepath.Join(dir, timelineText), "my notes, precious\n") },
			"--profile DIR: DIR/timeline.txt exists and is not a file bench wrote: bench never writes over it (move it away or choose another --profile directory)"},
		{"user's timeline.json", func(t *testing.T, dir, _ string) { write(t, filepath.Join(dir, timelineJSON), `{"mine":1}`) },
			"--profile DIR: DIR/timeline.json exists and is not a file bench wrote: bench never writes over it (move it away or choose another --profile directory)"},
		{"timeline.txt a link to a file outside", func(t *testing.T, dir, outside string) {
			write(t, filepath.Join(outside, "victim"), "victim content\n")
			link(t, "../outside/victim", filepath.Join(dir, timelineText))
		}, "--profile DIR: DIR/timeline.txt is a symbolic link, which bench neither writes through nor replaces (remove it or choose another --profile directory)"},
		{"timeline.json a dangling link out", func(t *testing.T, dir, outside string) {
			link(t, filepath.Join(outside, "made"), filepath.Join(dir, timelineJSON))
		}, "--profile DIR: DIR/timeline.json is a symbolic link, which bench neither writes through nor replaces (remove it or choose another --profile directory)"},
		{"bench's CPU profile name taken", func(t *testing.T, dir, outside string) {
			link(t, filepath.Join(outside, "made"), filepath.Join(dir, "bench-"+pid+".cpu.pprof"))
		}, "--profile DIR: cpu profile: DIR/bench-" + pid + ".cpu.pprof exists already: bench writes profiles only into files it makes and never over one (move it away or choose another --profile directory)"},
		{"bench's heap profile name taken", func(t *testing.T, dir, _ string) { write(t, filepath.Join(dir, "bench-"+pid+".heap.pprof"), "mine") },
			"--profile DIR: heap profile: DIR/bench-" + pid + ".heap.pprof exists already: bench writes profiles only into files it makes and never over one (move it away or choose another --profile directory)"},
		{"an earlier timeline of bench's", func(t *testing.T, dir, _ string) {
			d, err := profile.OpenDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if err := earlier.write(d); err != nil {
				t.Fatal(err)
			}
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			top := t.TempDir()
			dir, outside := filepath.Join(top, "prof"), filepath.Join(top, "outside")
			for _, d := range []string{dir, outside} {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			tc.setup(t, dir, outside)
			before, beforeOut := snapshot(t, dir), snapshot(t, outside)
			ran := false
			tl := newTimeline()
			err := profiled(h, dir, func(d *profile.Dir) error {
				ran = true
				tl.mark("read")
				return tl.write(d)
			})
			if tc.want == "" {
				if err != nil || !ran {
					t.Fatalf("profiled: %v (command ran: %v), want it to run", err, ran)
				}
				if b, _ := os.ReadFile(filepath.Join(dir, timelineText)); !isTimelineText(b) || bytes.Equal(b, []byte(before[timelineText])) {
					t.Errorf("timeline.txt not replaced by the new timeline:\n%s", b)
				}
				return
			}
			if err == nil || strings.ReplaceAll(err.Error(), dir, "DIR") != tc.want {
				t.Fatalf("profiled: %v\nwant %s", err, tc.want)
			}
			if ran {
				t.Error("the command ran before the refusal")
			}
			if after := snapshot(t, dir); !maps.Equal(after, before) {
				t.Errorf("DIR changed: %v, was %v", after, before)
			}
			if after := snapshot(t, outside); !maps.Equal(after, beforeOut) {
				t.Errorf("outside DIR changed: %v, was %v", after, beforeOut)
			}
		})
	}
}

// snapshot maps each entry of dir to its content, or to "-> TARGET" for a
// link.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, e := range es {
		p := filepath.Join(dir, e.Name())
		if target, err := os.Readlink(p); err == nil {
			m[e.Name()] = "-> " + target
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = string(b)
	}
	return m
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func link(t *testing.T, target, path string) {
	t.Helper()
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}
