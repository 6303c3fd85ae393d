package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/results"
)

func TestRunEndPrint(t *testing.T) {
	tests := []struct {
		name string
		end  runEnd
		want string
	}{
		{"complete", runEnd{name: "e", status: results.StatusComplete, cells: 4, failed: 1, total: 4, elapsed: 1500 * time.Microsecond, dir: "out", written: []string{"out/e.md"}},
			"e: 4 cells (1 failed) in 2ms\n  out: e.md\n  out/cells: 4 cells\n  report: out/e.md\n"},
		{"complete, verbose", runEnd{name: "e", status: results.StatusComplete, cells: 4, total: 4, elapsed: time.Second, dir: "out", written: []string{"out/e.md"}, verbose: true},
			"e: 4 cells (0 failed) in 1s\n  out/e.md\n"},
		{"resumed", runEnd{name: "e", status: results.StatusComplete, cells: 4, kept: 3, total: 4, elapsed: time.Second},
			"e: 4 cells (0 failed, 3 kept from an earlier run) in 1s\n"},
		{"interrupted", runEnd{name: "e", status: results.StatusInterrupted, cells: 3, total: 4, elapsed: time.Second, dir: "out", written: []string{"out/e.md"}},
			"e: interrupted, 3 of 4 cells, the tables partial (0 failed) in 1s\n  out: e.md\n  out/cells: 3 cells\n  report: out/e.md\n"},
		{"interrupted shard", runEnd{name: "e shard 1/2", status: results.StatusInterrupted, cells: 1, kept: 1, total: 2, shard: true, elapsed: time.Second,
			dir: "out", written: []string{"out/shards/manifest-1-of-2.json"}},
			"e shard 1/2: interrupted, 1 of 2 cells (0 failed, 1 kept from an earlier run) in 1s\n  out/shards: 1 file\n  out/cells: 1 cell of this shard\n  (--verbose lists every file)\n"},
		// A shard says where its cells went: three trials of a new user
		// saw "shards/s0/shards: 1 file" and nothing of shards/s0/cells.
		{"complete shard", runEnd{name: "e shard 0/3", status: results.StatusComplete, cells: 10, total: 10, shard: true, elapsed: time.Second,
			dir: "s0", written: []string{"s0/shards/0-of-3.json"}},
			"e shard 0/3: 10 cells (0 failed) in 1s\n  s0/shards: 1 file\n  s0/cells: 10 cells of this shard\n  (--verbose lists every file)\n"},
		{"shard, nothing written", runEnd{name: "e shard 1/2", status: results.StatusInterrupted, cells: 1, kept: 1, total: 2, shard: true, elapsed: time.Second},
			"e shard 1/2: interrupted, 1 of 2 cells (0 failed, 1 kept from an earlier run) in 1s\n"},
		{"shared fits", runEnd{name: "e", status: results.StatusComplete, cells: 4, total: 4, elapsed: time.Second, dir: "out", written: []string{"out/e.md"},
			verbose: true, stats: engine.Stats{FitsRequested: 90, FitsMade: 45}},
			"e: 4 cells (0 failed) in 1s; fits: 90 requested, 45 made\n  out/e.md\n"},
		{"failed run", runEnd{name: "e", status: results.StatusFailed, cells: 2, failed: 2, total: 4, elapsed: time.Second},
			"e: 2 cells (2 failed) in 1s\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			tt.end.print(&b)
			if b.String() != tt.want {
				t.Errorf("got %q, want %q", b.String(), tt.want)
			}
		})
	}
}

// TestWrittenSummaryTilde: a results directory named ~ (given as ./~/x,
// which bench takes as a name) is printed with its "./", so that it does
// not read as the home directory (campaign 11c's B16: report: ~/x/adv.md).
func TestWrittenSummaryTilde(t *testing.T) {
	for _, dir := range []string{filepath.Join(".", "~", "x"), filepath.Join(".", "$HOME", "x")} {
		var b bytes.Buffer
		writtenSummary(&b, dir, []string{filepath.Join(dir, "adv.md")}, 1, false, false)
		want := fmt.Sprintf("  ./%[1]s: adv.md\n  ./%[1]s/cells: 1 cell\n  report: ./%[1]s/adv.md\n", dir)
		if b.String() != want {
			t.Errorf("got\n%s\nwant\n%s", b.String(), want)
		}
		b.Reset()
		writtenSummary(&b, dir, []string{filepath.Join(dir, "adv.md")}, 1, false, true)
		if want := "  ./" + dir + "/adv.md\n"; b.String() != want {
			t.Errorf("verbose: got %q, want %q", b.String(), want)
		}
	}
}

// TestWrittenSummary: a run, table or merge says what it wrote in a few
// lines (the files at the top by name, each folder's count, the cells,
// the report's path) rather than a line per file, which --verbose
// prints.
func TestWrittenSummary(t *testing.T) {
	dir := filepath.Join("results", "q")
	var written []string
	for _, f := range []string{"q.md", "summary.csv", "folds.csv", "q.html"} {
		written = append(written, filepath.Join(dir, f))
	}
	for i := range 40 {
		written = append(written, filepath.Join(dir, "plots", fmt.Sprintf("box_%d.png", i)))
	}
	written = append(written, filepath.Join(dir, "predictions", "iris.csv"), filepath.Join(dir, "manifest.json"))
	for _, tc := range []struct {
		name    string
		written []string
		cells   int
		verbose bool
		want    string
	}{
		{"summary", written, 15, false, "  results/q: q.md, summary.csv, folds.csv, q.html, manifest.json\n" +
			"  results/q/plots: 40 files\n  results/q/predictions: 1 file\n  results/q/cells: 15 cells\n" +
			"  report: results/q/q.html\n  (--verbose lists every file)\n"},
		{"markdown only", []string{filepath.Join(dir, "q.md"), filepath.Join(dir, "manifest.json")}, 1, false,
			"  results/q: q.md, manifest.json\n  results/q/cells: 1 cell\n  report: results/q/q.md\n"},
		{"csv only: no report", []string{filepath.Join(dir, "summary.csv")}, 2, false,
			"  results/q: summary.csv\n  results/q/cells: 2 cells\n"},
		{"verbose", written, 15, true, "  " + strings.Join(written, "\n  ") + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			writtenSummary(&b, dir, tc.written, tc.cells, false, tc.verbose)
			if b.String() != tc.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tc.want)
			}
			if !tc.verbose && strings.Count(b.String(), "\n") > 6 {
				t.Errorf("%d lines for %d files", strings.Count(b.String(), "\n"), len(tc.written))
			}
		})
	}
}

func TestRunStatus(t *testing.T) {
	done, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		err  error
		want results.Status
	}{
		{"no error", context.Background(), nil, results.StatusComplete},
		{"no error, ctx done after the last cell", done, nil, results.StatusComplete},
		{"error", context.Background(), errors.New("disk full"), results.StatusFailed},
		{"interrupted", done, context.Canceled, results.StatusInterrupted},
	}
	for _, tt := range tests {
		if got := runStatus(tt.ctx, tt.err); got != tt.want {
			t.Errorf("%s: runStatus = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestFoldsToRun(t *testing.T) {
	// Two data sets: one of 2 repeats × 5 folds, one of 1 × 3.
	a := &engine.Dataset{Folds: make([][]int, 2), NumFolds: 5}
	b := &engine.Dataset{Folds: make([][]int, 1), NumFolds: 3}
	g := &engine.Grid{Cells: []*engine.Cell{{Index: 0, Dataset: a}, {Index: 1, Dataset: b}, {Index: 2, Dataset: a}, {Index: 3, Dataset: b}}}
	kept := map[int]*outcome.CellResult{2: {}}
	odd := func(i int) bool { return i%2 == 1 }
	weights := map[int]int{0: 7, 1: 2, 2: 11, 3: 5}
	tests := []struct {
		name              string
		selectCell        func(int) bool
		weights           map[int]int
		wantTotal, wantFo int
	}{
		{"all but the kept", nil, nil, 10 + 3 + 3, 10 + 3 + 3},
		{"weighted", nil, weights, 70 + 6 + 15, 16},
		{"shard of odd cells", odd, nil, 6, 6},
		{"weighted shard", odd, weights, 6 + 15, 6},
	}
	for _, tt := range tests {
		total, folds := foldsToRun(g, kept, tt.selectCell, tt.weights)
		if total != tt.wantTotal || folds != tt.wantFo {
			t.Errorf("%s: foldsToRun = %d, %d; want %d, %d", tt.name, total, folds, tt.wantTotal, tt.wantFo)
		}
	}
}
