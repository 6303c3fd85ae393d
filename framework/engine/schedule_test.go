package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/outcome"
)

// stubGrid is a grid of two datasets (2 folds × 2 repeats, then 3 folds
// × 1 repeat), one pipeline, two learners and one reduction: four cells,
// no plugins. Cells run through a stub fold function.
func stubGrid() *Grid {
	g := &Grid{Experiment: &config.Experiment{Name: "stub", Seed: 7}}
	g.Datasets = []*Dataset{
		{Config: &config.Dataset{Name: "a"}, Classes: []string{"x", "y"}, Folds: [][]int{{0, 1, 0, 1}, {1, 0, 0, 1}}, NumFolds: 2},
		{Config: &config.Dataset{Name: "b"}, Classes: []string{"x", "y"}, Folds: [][]int{{0, 1, 2, 0, 1, 2}}, NumFolds: 3},
	}
	g.Pipelines = []*Pipeline{{Config: &config.Pipeline{Name: "raw"}}}
	g.Learners = []*Learner{{Config: &config.Learner{Name: "l1"}}, {Config: &config.Learner{Name: "l2"}}}
	g.Reductions = []*Reduction{{Config: &config.Reduction{Name: "ova"}}}
	for _, d := range g.Datasets {
		for _, l := range g.Learners {
			g.Cells = append(g.Cells, &Cell{Index: len(g.Cells), Dataset: d, Pipeline: g.Pipelines[0], Learner: l, Reduction: g.Reductions[0]})
		}
	}
	return g
}

// stubValue is the accuracy the stub fold reports: it names the task.
func stubValue(t task) float64 { return float64(100*t.cell.Index + 10*t.repeat + t.fold) }

// sinkFunc adapts a function to Sink.
type sinkFunc func(r *outcome.CellResult) error

func (f sinkFunc) CellFinished(r *outcome.CellResult) error { return f(r) }

func TestSchedulerPlansTasksByGroup(t *testing.T) {
	g := stubGrid()
	done := &outcome.CellResult{Index: 1, ID: g.Cells[1].ID()}
	s := newScheduler(g, Options{Done: map[int]*outcome.CellResult{1: done}})
	var got []string
	for _, tk := range s.tasks {
		got = append(got, fmt.Sprintf("c%d r%d f%d", tk.cell.Index, tk.repeat, tk.fold))
	}
	// Cell 1 is done; the others cell by cell, repeat by repeat, fold by fold.
	want := "c0 r0 f0,c0 r0 f1,c0 r1 f0,c0 r1 f1,c2 r0 f0,c2 r0 f1,c2 r0 f2,c3 r0 f0,c3 r0 f1,c3 r0 f2"
	if strings.Join(got, ",") != want {
		t.Errorf("tasks\n got %s\nwant %s", strings.Join(got, ","), want)
	}
	// Dataset b's folds serve both of its cells: two references each.
	for k, e := range s.matrices {
		want := int64(1)
		if k.dataset == 1 {
			want = 2
		}
		if e.refs.Load() != want {
			t.Errorf("matrix %+v: %d references, want %d", k, e.refs.Load(), want)
		}
	}
	if n := s.groups[groupKey{0, 0}].Load(); n != 4 {
		t.Errorf("group a: %d tasks, want 4", n)
	}
	if n := s.groups[groupKey{1, 0}].Load(); n != 6 {
		t.Errorf("group b: %d tasks, want 6", n)
	}
	if s.results[1] != done || s.remaining[1] != 0 || s.remaining[0] != 4 || s.remaining[3] != 3 {
		t.Errorf("results[1] = %p (done %p), remaining %v", s.results[1], done, s.remaining)
	}
}

func TestSchedulerRunsEveryFoldWhateverTheWorkers(t *testing.T) {
	var first []*outcome.CellResult
	for _, workers := range []int{1, 2, 7} {
		g := stubGrid()
		var (
			mu              sync.Mutex
			sunk            []int
			lastDone, total int
		)
		s := newScheduler(g, Options{Workers: workers,
			Sink:     sinkFunc(func(r *outcome.CellResult) error { sunk = append(sunk, r.Index); return nil }),
			Progress: func(d, n int) { mu.Lock(); lastDone, total = d, n; mu.Unlock() },
		})
		s.fold = func(_ context.Context, tk task, _ *matrixEntry) (outcome.FoldResult, error) {
			return outcome.FoldResult{Repeat: tk.repeat, Fold: tk.fold, Metrics: map[string]float64{"accuracy": stubValue(tk)}}, nil
		}
		res, stats, err := s.run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != 4 || len(sunk) != 4 || stats.Folds != 14 || lastDone != 14 || total != 14 {
			t.Fatalf("workers %d: %d results, sink got %v, %d folds, progress %d/%d; want 4, 4 cells, 14 folds", workers, len(res), sunk, stats.Folds, lastDone, total)
		}
		// Fold slots are repeat-major: repeat 1 fold 0 of cell 1 is slot 2.
		if v := res[1].Folds[2].Metrics["accuracy"]; v != 110 {
			t.Errorf("workers %d: cell 1 slot 2 = %v, want 110", workers, v)
		}
		if first == nil {
			first = res
			continue
		}
		for i := range res {
			if fmt.Sprint(res[i]) != fmt.Sprint(first[i]) {
				t.Errorf("workers %d: cell %d = %v, with 1 worker %v", workers, i, res[i], first[i])
			}
		}
	}
}

func TestSchedulerFailedFoldFailsItsCellOnly(t *testing.T) {
	g := stubGrid()
	var log strings.Builder
	s := newScheduler(g, Options{Workers: 1, Log: &log})
	ran := 0
	s.fold = func(_ context.Context, tk task, _ *matrixEntry) (outcome.FoldResult, error) {
		ran++
		if tk.cell.Index == 2 && tk.fold == 1 {
			return outcome.FoldResult{}, errors.New("boom")
		}
		return outcome.FoldResult{Metrics: map[string]float64{"accuracy": stubValue(tk)}}, nil
	}
	res, _, err := s.run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res[2].Error != "repeat 0 fold 1: boom" || res[2].Folds != nil {
		t.Errorf("cell 2: error %q, %d folds; want the failing fold named and no folds", res[2].Error, len(res[2].Folds))
	}
	// The fold after the failure runs (a learner's answer skips nothing:
	// see skipsAbove), with one worker as with any; it was skipped before.
	if ran != 14 {
		t.Errorf("%d folds ran, want 14 (cell 2's third too)", ran)
	}
	for _, i := range []int{0, 1, 3} {
		if res[i].Failed() {
			t.Errorf("cell %d failed: %s", i, res[i].Error)
		}
	}
	if want := "cell 2 (b|raw|l1||ova) failed: repeat 0 fold 1: boom\n"; log.String() != want {
		t.Errorf("log %q, want %q", log.String(), want)
	}
}

// TestFailedCellLineEscaped: the line of a failed cell on the terminal
// and in run.log shows a plugin's error text with every control, bidi
// and invisible character but newline and tab escaped (campaign 8 N12: a
// learner's error set the terminal's title, cleared its screen and
// overwrote the line); the cell keeps the text as the plugin gave it.
func TestFailedCellLineEscaped(t *testing.T) {
	tests := []struct{ name, err, want string }{
		{"title, colour, clear screen, carriage return, right-to-left override (N12)",
			"ValueError: bad \x1b[31mRED\x1b]0;pwned-title\x07 rev\u202eesrever \rOVERWRITE\x1b[2J",
			`ValueError: bad \x1b[31mRED\x1b]0;pwned-title\a rev\u202eesrever \rOVERWRITE\x1b[2J`},
		{"the plugin's stderr keeps its lines and tabs", "boom\nplugin stderr:\nTraceback:\n\tfit.py\x1b[2J",
			"boom\nplugin stderr:\nTraceback:\n\tfit.py\\x1b[2J"},
		{"C1 controls, separators, zero-width space", "a\u009b2J\u2028b\u200bc", `a\u009b2J\u2028b\u200bc`},
		{"plain text as it is", "ValueError: C must be > 0 (at fit.py:3, in fit)", "ValueError: C must be > 0 (at fit.py:3, in fit)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := stubGrid()
			var log strings.Builder
			s := newScheduler(g, Options{Workers: 1, Log: &log})
			s.fold = func(_ context.Context, tk task, _ *matrixEntry) (outcome.FoldResult, error) {
				if tk.cell.Index == 2 && tk.fold == 1 {
					return outcome.FoldResult{}, errors.New(tt.err)
				}
				return outcome.FoldResult{Metrics: map[string]float64{"accuracy": stubValue(tk)}}, nil
			}
			res, _, err := s.run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if want := "cell 2 (b|raw|l1||ova) failed: repeat 0 fold 1: " + tt.want + "\n"; log.String() != want {
				t.Errorf("log %q, want %q", log.String(), want)
			}
			if want := "repeat 0 fold 1: " + tt.err; res[2].Error != want {
				t.Errorf("cell 2's error %q, want the plugin's text as it is, %q", res[2].Error, want)
			}
		})
	}
}

func TestSchedulerRetriesAFoldWhosePluginDied(t *testing.T) {
	for _, tc := range []struct {
		deaths  int
		failed  bool
		attempt int
	}{
		{deaths: 1, attempt: 2},
		{deaths: maxRetries, attempt: maxRetries + 1},
		{deaths: maxRetries + 1, failed: true, attempt: maxRetries + 1},
	} {
		g := stubGrid()
		g.Cells = g.Cells[:1]
		s := newScheduler(g, Options{Workers: 1})
		attempts := 0
		s.fold = func(_ context.Context, tk task, _ *matrixEntry) (outcome.FoldResult, error) {
			if tk.repeat == 0 && tk.fold == 0 {
				if attempts++; attempts <= tc.deaths {
					return outcome.FoldResult{}, fmt.Errorf("plugin l1: %w", errPluginDied)
				}
			}
			return outcome.FoldResult{Metrics: map[string]float64{"accuracy": 1}}, nil
		}
		res, _, err := s.run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if attempts != tc.attempt || res[0].Failed() != tc.failed {
			t.Errorf("%d deaths: %d attempts, failed %v (%s); want %d, %v", tc.deaths, attempts, res[0].Failed(), res[0].Error, tc.attempt, tc.failed)
		}
	}
}

func TestSchedulerInterruptedCellsAreNotReported(t *testing.T) {
	g := stubGrid()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var sunk []int
	s := newScheduler(g, Options{Workers: 1, Sink: sinkFunc(func(r *outcome.CellResult) error { sunk = append(sunk, r.Index); return nil })})
	s.fold = func(ctx context.Context, tk task, _ *matrixEntry) (outcome.FoldResult, error) {
		if tk.cell.Index == 1 && tk.repeat == 1 {
			cancel() // Ctrl-C in cell 1's second repeat
		}
		if ctx.Err() != nil {
			return outcome.FoldResult{}, ctx.Err()
		}
		return outcome.FoldResult{Metrics: map[string]float64{"accuracy": 1}}, nil
	}
	res, _, err := s.run(ctx)
	// The feeder may hand out one more task before it sees the cancel.
	if !errors.Is(err, context.Canceled) || (!strings.Contains(err.Error(), "run interrupted after 7 of 14 folds") && !strings.Contains(err.Error(), "run interrupted after 8 of 14 folds")) {
		t.Fatalf("error %v, want an interruption after 7 (or 8) of 14 folds", err)
	}
	if len(res) != 1 || res[0].Index != 0 || len(sunk) != 1 || sunk[0] != 0 {
		t.Errorf("%d results, sink got %v; want cell 0 alone", len(res), sunk)
	}
}

func TestSchedulerJoinsSinkErrorsAndFreesMatrices(t *testing.T) {
	g := stubGrid()
	s := newScheduler(g, Options{Workers: 3, Sink: sinkFunc(func(r *outcome.CellResult) error {
		if r.Index%2 == 1 {
			return fmt.Errorf("cell %d: disk full", r.Index)
		}
		return nil
	})})
	s.fold = func(_ context.Context, tk task, e *matrixEntry) (outcome.FoldResult, error) {
		// What design does on a task's first use: the entry holds its
		// matrix until the matrix's last task has ended.
		e.mu.Lock()
		if e.enc == nil {
			d := fmt.Sprint(tk.key)
			_ = sameDigest(&e.digest, d)
			e.enc = &matrix.EncodedMatrix{Digest: d}
		}
		e.mu.Unlock()
		return outcome.FoldResult{Metrics: map[string]float64{"accuracy": 1}}, nil
	}
	res, _, err := s.run(context.Background())
	if len(res) != 4 || err == nil || !strings.Contains(err.Error(), "cell 1: disk full") || !strings.Contains(err.Error(), "cell 3: disk full") {
		t.Fatalf("%d results, error %v; want 4 and both sink errors", len(res), err)
	}
	for k, e := range s.matrices {
		if e.refs.Load() != 0 || e.enc != nil {
			t.Errorf("matrix %+v: %d references left", k, e.refs.Load())
		}
	}
	for gk, n := range s.groups {
		if n.Load() != 0 {
			t.Errorf("group %+v: %d tasks left", gk, n.Load())
		}
	}
}

// TestSchedulerRunsSelectedCellsOnly: Select (a shard) limits the run to
// cells 0 and 3; with cell 3 done already only cell 0's 4 folds run, and the
// results hold cells 0 and 3 only.
func TestSchedulerRunsSelectedCellsOnly(t *testing.T) {
	tests := []struct {
		name    string
		done    map[int]*outcome.CellResult
		folds   int64
		results []int
		sunk    []int
	}{
		{"nothing done", nil, 4 + 3, []int{0, 3}, []int{0, 3}},
		{"cell 3 done", map[int]*outcome.CellResult{3: {Index: 3}}, 4, []int{0, 3}, []int{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := stubGrid()
			var sunk []int
			s := newScheduler(g, Options{Workers: 2, Done: tt.done,
				Select: func(i int) bool { return i == 0 || i == 3 },
				Sink:   sinkFunc(func(r *outcome.CellResult) error { sunk = append(sunk, r.Index); return nil }),
			})
			var ran []int
			var mu sync.Mutex
			s.fold = func(_ context.Context, tk task, _ *matrixEntry) (outcome.FoldResult, error) {
				mu.Lock()
				ran = append(ran, tk.cell.Index)
				mu.Unlock()
				return outcome.FoldResult{Repeat: tk.repeat, Fold: tk.fold, Metrics: map[string]float64{"accuracy": stubValue(tk)}}, nil
			}
			res, stats, err := s.run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, r := range res {
				got = append(got, r.Index)
			}
			slices.Sort(sunk) // cells finish in any order
			if fmt.Sprint(got) != fmt.Sprint(tt.results) || stats.Folds != tt.folds || fmt.Sprint(sunk) != fmt.Sprint(tt.sunk) {
				t.Errorf("results %v, %d folds, sink %v; want %v, %d, %v", got, stats.Folds, sunk, tt.results, tt.folds, tt.sunk)
			}
			for _, i := range ran {
				if i != 0 && i != 3 {
					t.Errorf("ran a fold of cell %d", i)
				}
			}
		})
	}
}

// TestShareCPUs: each fold's share of the CPUs is cpus over the folds that
// keep running, rounded down, at least 1 (joblib's rule for the threads of
// its workers).
func TestShareCPUs(t *testing.T) {
	for _, tc := range []struct{ cpus, workers, unfinished, want int }{
		{cpus: 2, workers: 2, unfinished: 40, want: 1},
		{cpus: 2, workers: 1, unfinished: 40, want: 2},
		{cpus: 8, workers: 2, unfinished: 40, want: 4},
		{cpus: 8, workers: 3, unfinished: 40, want: 2}, // 8/3 rounded down
		{cpus: 2, workers: 8, unfinished: 40, want: 1}, // more workers than CPUs
		{cpus: 8, workers: 4, unfinished: 2, want: 4},  // two folds left: half each
		{cpus: 8, workers: 4, unfinished: 1, want: 8},  // the last fold: every CPU
		{cpus: 8, workers: 4, unfinished: 0, want: 8},
		{cpus: 1, workers: 4, unfinished: 40, want: 1},
		{cpus: 0, workers: 0, unfinished: 0, want: 1},
	} {
		if got := shareCPUs(tc.cpus, tc.workers, tc.unfinished); got != tc.want {
			t.Errorf("shareCPUs(cpus %d, workers %d, unfinished %d) = %d, want %d", tc.cpus, tc.workers, tc.unfinished, got, tc.want)
		}
	}
}

// TestSchedulerSharesCPUs: a fold's fits get the run's share of the CPUs
// (fitThreads), 4 here: all of them with one worker; with 2 workers half,
// save the last fold, which may run alone and get every CPU; with 7
// workers 1 while 3 or more folds are unfinished, so more for at most the
// last two folds.
func TestSchedulerSharesCPUs(t *testing.T) {
	for _, tc := range []struct {
		workers int
		allowed []int // the threads a fold may get
		steady  int   // what a fold gets while more folds are left than workers
		over    int   // at most so many folds get more than steady
	}{
		{workers: 1, allowed: []int{4}, steady: 4},
		{workers: 2, allowed: []int{2, 4}, steady: 2, over: 1},
		{workers: 7, allowed: []int{1, 2, 4}, steady: 1, over: 2},
	} {
		g := stubGrid()
		s := newScheduler(g, Options{Workers: tc.workers})
		s.cpus = 4
		var mu sync.Mutex
		var got []int
		s.fold = func(_ context.Context, tk task, _ *matrixEntry) (outcome.FoldResult, error) {
			n := s.fitThreads()
			mu.Lock()
			got = append(got, n)
			mu.Unlock()
			return outcome.FoldResult{Metrics: map[string]float64{"accuracy": stubValue(tk)}}, nil
		}
		if _, _, err := s.run(context.Background()); err != nil {
			t.Fatal(err)
		}
		over := 0
		for _, n := range got {
			if !slices.Contains(tc.allowed, n) {
				t.Errorf("workers %d: a fold got %d threads, want one of %v", tc.workers, n, tc.allowed)
			}
			if n > tc.steady {
				over++
			}
		}
		if len(got) != 14 || over > tc.over {
			t.Errorf("workers %d: threads %v; want 14 folds, at most %d with more than %d", tc.workers, got, tc.over, tc.steady)
		}
	}
}

// TestProgressCountsWeightedWork: with Options.Weight, Progress counts
// the folds' weights (the models each fits) rather than folds, so that a
// progress bar's estimate of the time left does not take a fold of 171
// models for a fold of 19; it ends at the total, whatever the workers.
func TestProgressCountsWeightedWork(t *testing.T) {
	for _, workers := range []int{1, 3} {
		g := stubGrid()
		// Cells 0 and 1: 4 folds each; cells 2 and 3: 3 folds each.
		weight := map[int]int{0: 19, 1: 171, 2: 0, 3: 5} // 0 counts as 1
		var mu sync.Mutex
		var seen [][2]int
		s := newScheduler(g, Options{Workers: workers,
			Weight:   func(c *Cell) int { return weight[c.Index] },
			Progress: func(d, n int) { mu.Lock(); seen = append(seen, [2]int{d, n}); mu.Unlock() },
		})
		s.fold = func(_ context.Context, tk task, _ *matrixEntry) (outcome.FoldResult, error) {
			return outcome.FoldResult{Repeat: tk.repeat, Fold: tk.fold, Metrics: map[string]float64{"accuracy": 1}}, nil
		}
		if _, _, err := s.run(context.Background()); err != nil {
			t.Fatal(err)
		}
		const total = 4*19 + 4*171 + 3*1 + 3*5
		if len(seen) != 14 {
			t.Fatalf("workers %d: %d progress calls, want 14 (one per fold)", workers, len(seen))
		}
		prev := 0
		for _, p := range seen {
			if p[1] != total || p[0] <= prev {
				t.Fatalf("workers %d: progress %v, want increasing counts of %d", workers, seen, total)
			}
			prev = p[0]
		}
		if prev != total {
			t.Errorf("workers %d: progress ends at %d, want %d", workers, prev, total)
		}
	}
}

// TestSchedulerPoolSize: the pool never has more workers than folds to run
// (-j 100000000 on a small grid starts one worker per fold).
func TestSchedulerPoolSize(t *testing.T) {
	tests := []struct {
		name                 string
		workers, tasks, want int
	}{
		{"-j 1e8, 14 folds", 100_000_000, 14, 14},
		{"-j max int, 3 folds", math.MaxInt, 3, 3},
		{"-j 2, 14 folds", 2, 14, 2},
		{"-j 14, 14 folds", 14, 14, 14},
		{"no folds", 8, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := poolSize(tt.workers, tt.tasks); got != tt.want {
				t.Errorf("poolSize(%d, %d) = %d, want %d", tt.workers, tt.tasks, got, tt.want)
			}
		})
	}
}

// TestSchedulerReportsLowestFailingFoldWhateverTheTiming: cell 2's fold 1
// fails at once, while fold 0 ends only after fold 1's failure is recorded
// (the order a loaded machine may give -j N). The cell names the lowest
// fold that fails on its own, whatever came first: fold 0 is neither
// skipped nor denied the rerun of a plugin that died under it.
func TestSchedulerReportsLowestFailingFoldWhateverTheTiming(t *testing.T) {
	died := fmt.Errorf("plugin l1: %w", errPluginDied)
	broke := errors.New("fold 0 broke")
	tests := []struct {
		name string
		// fold0 gives fold 0's attempts in turn (the last one repeats).
		fold0 []error
		want  string
	}{
		{"fold 0 slow and failing", []error{broke}, "repeat 0 fold 0: fold 0 broke"},
		{"fold 0's plugin dies, its rerun fails", []error{died, broke}, "repeat 0 fold 0: fold 0 broke"},
		{"fold 0's plugin dies, its rerun succeeds", []error{died, nil}, "repeat 0 fold 1: fold 1 broke"},
		// A plugin that ends under fold 0 on every try: fold 0's own
		// failure (diedOnEveryTry), the lowest.
		{"fold 0's plugin dies every time", []error{died}, "repeat 0 fold 0: plugin l1: plugin process ended"},
	}
	for _, tt := range tests {
		for _, workers := range []int{2, 4} {
			t.Run(fmt.Sprintf("%s/-j %d", tt.name, workers), func(t *testing.T) {
				r := runFold1FailsFirst(t, workers, tt.fold0)
				if r.Error != tt.want || r.Folds != nil {
					t.Errorf("cell 2: error %q, %d folds; want %q and no folds", r.Error, len(r.Folds), tt.want)
				}
			})
		}
	}
}

// runFold1FailsFirst runs stubGrid with workers; cell 2's fold 1 fails at
// once, and each attempt at its fold 0 waits until fold 1's failure is
// recorded, then ends with the next of fold0. It returns cell 2's result.
func runFold1FailsFirst(t *testing.T, workers int, fold0 []error) *outcome.CellResult {
	t.Helper()
	s := newScheduler(stubGrid(), Options{Workers: workers})
	recorded := func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.foldErrs[2][1] != nil
	}
	var attempts atomic.Int64
	s.fold = func(_ context.Context, tk task, _ *matrixEntry) (outcome.FoldResult, error) {
		ok := outcome.FoldResult{Repeat: tk.repeat, Fold: tk.fold, Metrics: map[string]float64{"accuracy": stubValue(tk)}}
		switch {
		case tk.cell.Index != 2 || tk.fold == 2:
			return ok, nil
		case tk.fold == 1:
			return outcome.FoldResult{}, errors.New("fold 1 broke")
		}
		for deadline := time.Now().Add(10 * time.Second); !recorded(); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				return outcome.FoldResult{}, errors.New("fold 1's failure never recorded")
			}
		}
		n := int(attempts.Add(1))
		if err := fold0[min(n, len(fold0))-1]; err != nil {
			return outcome.FoldResult{}, err
		}
		return ok, nil
	}
	res, _, err := s.run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return res[2]
}

// TestSchedulerSkipsOnlyFoldsAboveAnOwnFailure: a fold is skipped when a
// lower fold of its cell failed on its own by a timeout (or a plugin that
// died on every try: see skipsAbove); one in a lower slot than the
// failure, one of another cell, one above a plugin's death and one above
// a learner's answer run (the last was skipped before: a skip made the
// calls of a run depend on its timing).
func TestSchedulerSkipsOnlyFoldsAboveAnOwnFailure(t *testing.T) {
	g := stubGrid()
	s := newScheduler(g, Options{})
	c1, c2, c3 := g.Cells[1], g.Cells[2], g.Cells[3] // c2, c3 on dataset b: 3 folds, 1 repeat
	timedOut := fmt.Errorf("plugin l1 did not answer within the fold's timeout (cv.timeout): %w", context.DeadlineExceeded)
	s.record(task{cell: c2, fold: 1}, outcome.FoldResult{}, timedOut, false)
	s.record(task{cell: c3, fold: 0}, outcome.FoldResult{}, fmt.Errorf("plugin l2: %w", errPluginDied), false)
	s.record(task{cell: c1, fold: 0}, outcome.FoldResult{}, errors.New("fit: problem 3: refused"), false)
	tests := []struct {
		name string
		t    task
		want bool
	}{
		{"the fold below the failure", task{cell: c2, fold: 0}, false},
		{"the failed fold", task{cell: c2, fold: 1}, false},
		{"the fold above the failure", task{cell: c2, fold: 2}, true},
		{"a fold of another cell", task{cell: g.Cells[0], repeat: 1, fold: 1}, false},
		{"a fold above a plugin's death", task{cell: c3, fold: 1}, false},
		{"a fold above a learner's answer", task{cell: c1, fold: 1}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := s.failedBelow(tt.t); got != tt.want {
				t.Errorf("failedBelow(cell %d fold %d) = %v, want %v", tt.t.cell.Index, tt.t.fold, got, tt.want)
			}
		})
	}
}

// manyCellsGrid is a grid of cells one-learner-apiece on one dataset of
// 5 folds, no plugins.
func manyCellsGrid(cells int) *Grid {
	g := &Grid{Experiment: &config.Experiment{Name: "many", Seed: 7}}
	d := &Dataset{Config: &config.Dataset{Name: "d"}, Classes: []string{"x", "y"}, Folds: [][]int{{0, 1, 2, 3, 4}}, NumFolds: 5}
	g.Datasets = []*Dataset{d}
	g.Pipelines = []*Pipeline{{Config: &config.Pipeline{Name: "raw"}}}
	g.Reductions = []*Reduction{{Config: &config.Reduction{Name: "ova"}}}
	for i := range cells {
		l := &Learner{Config: &config.Learner{Name: fmt.Sprintf("l%d", i)}}
		g.Learners = append(g.Learners, l)
		g.Cells = append(g.Cells, &Cell{Index: i, Dataset: d, Pipeline: g.Pipelines[0], Learner: l, Reduction: g.Reductions[0]})
	}
	return g
}

// TestSchedulerCellWhoseFoldsAllFailNamesFold0: every fold of every cell
// fails, as logreg's with a class weight of 1e308 (the adversarial run
// corpus). Each cell names fold 0, whatever the workers: fold 1 failing
// before fold 0's worker looks does not skip fold 0. Skipping every fold
// after any failure, as before, named another fold in up to 91 of the
// 2000 cells in about two runs of three at -j 4 and -j 8.
func TestSchedulerCellWhoseFoldsAllFailNamesFold0(t *testing.T) {
	for _, workers := range []int{1, 4, 8} {
		t.Run(fmt.Sprintf("-j %d", workers), func(t *testing.T) {
			s := newScheduler(manyCellsGrid(2000), Options{Workers: workers})
			s.fold = func(_ context.Context, tk task, _ *matrixEntry) (outcome.FoldResult, error) {
				return outcome.FoldResult{}, fmt.Errorf("objective of fold %d is +Inf", tk.fold)
			}
			res, _, err := s.run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			other := 0
			for _, r := range res {
				if r.Error != "repeat 0 fold 0: objective of fold 0 is +Inf" {
					if other++; other == 1 {
						t.Errorf("cell %d: error %q, want fold 0's", r.Index, r.Error)
					}
				}
			}
			if other > 0 {
				t.Errorf("%d of %d cells name another fold than 0", other, len(res))
			}
		})
	}
}

// TestSinkRunsOutsideTheSchedulerLock: a cell is handed to the Sink
// without the scheduler's lock held, so that the other workers record
// their folds while a cell is written, and the Sink's calls still come
// one at a time, once per cell. Inside the Sink the lock must be taken
// within 10 s: other workers hold it only for moments.
func TestSinkRunsOutsideTheSchedulerLock(t *testing.T) {
	g := stubGrid()
	var s *scheduler
	var inside, most atomic.Int32
	var locked []int
	var sunk []int
	s = newScheduler(g, Options{Workers: 3, Sink: sinkFunc(func(r *outcome.CellResult) error {
		n := inside.Add(1)
		defer inside.Add(-1)
		if n > most.Load() {
			most.Store(n)
		}
		// The lock is free to take, but for the moments another worker
		// holds it (a TryLock failed then under load, and the test with
		// it): a caller holding it would keep it for the whole call.
		got := make(chan struct{})
		go func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			close(got)
		}()
		select {
		case <-got:
		case <-time.After(10 * time.Second):
			locked = append(locked, r.Index) // got closes once the caller lets go
		}
		time.Sleep(5 * time.Millisecond) // the other workers go on meanwhile
		sunk = append(sunk, r.Index)
		return nil
	})})
	s.fold = func(_ context.Context, tk task, _ *matrixEntry) (outcome.FoldResult, error) {
		return outcome.FoldResult{Metrics: map[string]float64{"accuracy": stubValue(tk)}}, nil
	}
	if _, _, err := s.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	slices.Sort(sunk)
	if !slices.Equal(sunk, []int{0, 1, 2, 3}) || most.Load() != 1 || len(locked) != 0 {
		t.Errorf("sink got %v, at most %d at once, with the scheduler's lock held for %v; want 0 1 2 3, one at a time, never held", sunk, most.Load(), locked)
	}
}

// TestWorkersDoNotWaitForTheSink: a worker hands a finished cell to the
// writer and goes on to its next fold while the Sink writes the cell (a
// cell file is made durable on disk, which takes milliseconds), so with
// one worker the first cell's Sink call sees a fold of the next cell
// start before it returns; the run still hands every cell over before it
// returns.
func TestWorkersDoNotWaitForTheSink(t *testing.T) {
	g := stubGrid()
	started := make(chan int, 64)
	var sunk []int
	var overlapped []int
	s := newScheduler(g, Options{Workers: 1, Sink: sinkFunc(func(r *outcome.CellResult) error {
		if len(sunk) == 0 {
			timeout := time.After(10 * time.Second)
		wait:
			for {
				select {
				case c := <-started:
					if c != r.Index {
						overlapped = append(overlapped, c)
						break wait
					}
				case <-timeout:
					break wait
				}
			}
		}
		sunk = append(sunk, r.Index)
		return nil
	})})
	s.fold = func(_ context.Context, tk task, _ *matrixEntry) (outcome.FoldResult, error) {
		started <- tk.cell.Index
		return outcome.FoldResult{Metrics: map[string]float64{"accuracy": stubValue(tk)}}, nil
	}
	if _, _, err := s.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	slices.Sort(sunk)
	if !slices.Equal(sunk, []int{0, 1, 2, 3}) || len(overlapped) != 1 {
		t.Errorf("sink got %v; a fold of another cell ran while the first cell was written: %v; want 0 1 2 3, and one such fold", sunk, overlapped)
	}
}
