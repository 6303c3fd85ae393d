package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyclass/polyclass/framework/cellspec"
	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/results"
	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/logreg/learner"
	"github.com/polyclass/polyclass/plugins/reducers/reducer"
)

// shareGrid resolves an experiment on 5 classes of 12 rows (3 features, a
// seeded blob per class) with the shipped logreg and reducers linked in:
// logreg by its Newton solver (which reads no seed) and by SGD (whose
// rows' order the seed sets), each under one-vs-one decoded by vote and
// by DAG, and under one random dense code of 10 columns decoded three
// ways; 3 folds. Its cells: for each learner ovo, dag, then the code by
// hamming, loss:exp, loss:logistic.
func shareGrid(t *testing.T) *Grid {
	t.Helper()
	return shareGridOf(t, shareExperiment)
}

// shareGridOf resolves experiment src on shareGrid's data (five.csv),
// logreg and reducers.
func shareGridOf(t *testing.T, src string) *Grid {
	t.Helper()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(5, 58))
	var csv strings.Builder
	csv.WriteString("a,b,c,class\n")
	for k := range 5 {
		center := []float64{float64(k % 3), float64(k / 3), float64(k % 2)}
		for range 12 {
			for _, c := range center {
				fmt.Fprintf(&csv, "%.6f,", c+0.5*rng.NormFloat64())
			}
			fmt.Fprintf(&csv, "k%d\n", k)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "five.csv"), []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "share.hcl")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	exp, diags := config.NewParser(config.DefaultFormats()).ParseFile(file)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	h := host.New("", nil)
	h.Register("logreg", host.InProcess{Learner: learner.New()})
	h.Register("reducers", host.InProcess{Reducer: reducer.New()})
	t.Cleanup(h.Close)
	g, diags := Resolve(context.Background(), exp, h, ResolveOptions{DefaultReducer: "reducers"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return g
}

// shareExperiment is shareGrid's experiment.
const shareExperiment = `
experiment "share" { seed = 11 }
dataset "five" { path = "five.csv" }
encoder "std" { type = "standardize" }
learner "logreg" { params = { C = 1 } }
learner "logreg_sgd" {
  plugin = "logreg"
  params = {
    C      = 1
    solver = "sgd"
  }
}
reduction "ovo" { scheme = "ovo" }
reduction "dag" {
  scheme = "ovo"
  decode = "dag"
}
reduction "code" {
  scheme = "ecoc"
  code   = "random_dense"
  length = 10
  decode = ["hamming", "loss:exp", "loss:logistic"]
}
cv { folds = 3 }
metrics = ["accuracy", "macro_f1"]
`

// timing matches the lines of a cell file that hold times (and the
// checksum, which covers them).
var timing = regexp.MustCompile(`(?m)^\s*"(fit_seconds|predict_seconds|checksum)": .*$`)

// cellFiles runs the cells of g that sel accepts (nil: all) with workers
// workers and returns each one's cell file, times aside, by cell index,
// and the run's stats.
func cellFiles(t *testing.T, g *Grid, workers int, sel func(int) bool) (map[int]string, Stats) {
	t.Helper()
	return cellFilesOf(t, g, Options{Workers: workers, Select: sel})
}

// cellFilesOf is cellFiles with the run's options opt (predictions kept).
func cellFilesOf(t *testing.T, g *Grid, opt Options) (map[int]string, Stats) {
	t.Helper()
	opt.KeepPredictions = true
	res, stats, err := Run(context.Background(), g, opt)
	if err != nil {
		t.Fatal(err)
	}
	return filesOf(t, g, res), stats
}

// filesOf writes the cell files of the results res of g and returns each,
// times aside, by cell index.
func filesOf(t *testing.T, g *Grid, res []*outcome.CellResult) map[int]string {
	t.Helper()
	specs := Specs(g, cellspec.Build{Version: "test"})
	digests := Digests(specs)
	dir := t.TempDir()
	out := map[int]string{}
	for _, r := range res {
		if r.Failed() {
			t.Fatalf("cell %s failed: %s", r.ID.Key(), r.Error)
		}
		path, err := results.WriteCell(dir, r, digests[r.Index], specs[r.Index])
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out[r.Index] = timing.ReplaceAllString(string(b), "")
	}
	return out
}

// TestOneFitPerDistinctProblem runs ovo and dag, and three decoders of one
// random dense code, for two learners on 5 classes and 3 folds, in one
// run: ovo and dag request 2 × 10 problems a fold and make 10, the three
// decoders request 3 × 10 columns a fold and make 10. Every cell file,
// times aside, is the one the cell writes in a run of its own, the same
// with 1 worker as with 4, and the same when no fit is shared (NoShare,
// which makes every fit requested).
func TestOneFitPerDistinctProblem(t *testing.T) {
	g := shareGrid(t)
	if len(g.Cells) != 10 {
		t.Fatalf("%d cells, want 10", len(g.Cells))
	}
	const folds, pairs, columns, learners = 3, 5 * 4 / 2, 10, 2
	wantRequested := learners * folds * (2*pairs + 3*columns)
	wantMade := learners * folds * (pairs + columns)
	together, stats := cellFiles(t, g, 4, nil)
	if stats.FitsRequested != int64(wantRequested) || stats.FitsMade != int64(wantMade) {
		t.Errorf("fits: %d requested, %d made; want %d requested, %d made", stats.FitsRequested, stats.FitsMade, wantRequested, wantMade)
	}
	serial, stats1 := cellFiles(t, g, 1, nil)
	if stats1.FitsRequested != int64(wantRequested) || stats1.FitsMade != int64(wantMade) {
		t.Errorf("-j 1 fits: %d requested, %d made; want %d requested, %d made", stats1.FitsRequested, stats1.FitsMade, wantRequested, wantMade)
	}
	unshared, statsN := cellFilesOf(t, g, Options{Workers: 4, NoShare: true})
	if statsN.FitsRequested != int64(wantRequested) || statsN.FitsMade != int64(wantRequested) {
		t.Errorf("NoShare fits: %d requested, %d made; want %d of each", statsN.FitsRequested, statsN.FitsMade, wantRequested)
	}
	for _, c := range g.Cells {
		alone, st := cellFiles(t, g, 2, func(i int) bool { return i == c.Index })
		perFold := pairs
		if c.Reduction.Config.Name == "code" {
			perFold = columns
		}
		if want := int64(folds * perFold); st.FitsRequested != want || st.FitsMade != want {
			t.Errorf("%s alone: fits %d requested, %d made; want %d of each", c.ID().Key(), st.FitsRequested, st.FitsMade, want)
		}
		if together[c.Index] != alone[c.Index] {
			t.Errorf("%s: cell file of the shared run differs from the cell's own run:\n%s", c.ID().Key(), firstDiff(together[c.Index], alone[c.Index]))
		}
		if serial[c.Index] != together[c.Index] {
			t.Errorf("%s: cell file with -j 1 differs from -j 4:\n%s", c.ID().Key(), firstDiff(serial[c.Index], together[c.Index]))
		}
		if unshared[c.Index] != together[c.Index] {
			t.Errorf("%s: cell file with NoShare differs:\n%s", c.ID().Key(), firstDiff(unshared[c.Index], together[c.Index]))
		}
	}
	// The decoders differ in their numbers (they share fits, not results).
	if together[2] == together[3] {
		t.Errorf("cells %s and %s have the same file", g.Cells[2].ID().Key(), g.Cells[3].ID().Key())
	}
}

// firstDiff shows the first line where a and b differ.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n  %s\n  %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("%d lines against %d", len(al), len(bl))
}

// TestSharedProblemSeedComesFromItsIdentity: a problem's identity and
// seed are functions of the problem (not of the cell that needs it): ovo's
// and dag's problems have the same. The identity changes with each thing
// the model depends on, and so does the seed, but for the plugin's build:
// a rebuilt plugin draws the same seeds, and serves no model of another.
func TestSharedProblemSeedComesFromItsIdentity(t *testing.T) {
	g := shareGrid(t)
	ovo, dag, sgd := g.Cells[0], g.Cells[1], g.Cells[5]
	if ovo.Learner == sgd.Learner || dag.Reduction == ovo.Reduction {
		t.Fatalf("cells %s, %s, %s", ovo.ID().Key(), dag.ID().Key(), sgd.ID().Key())
	}
	rebuilt := *ovo
	l := *ovo.Learner
	l.Runtime = []sdk.Component{{Name: "go", Version: "go1.99"}}
	rebuilt.Learner = &l
	s := newScheduler(g, Options{})
	identities := func(c *Cell, fold int, mutate func(*fold)) (keys []string, seeds []uint64) {
		t.Helper()
		f, err := newFold(context.Background(), g, task{cell: c, repeat: 0, fold: fold}, &s.stats)
		if err != nil {
			t.Fatal(err)
		}
		if mutate != nil {
			mutate(f)
		}
		plan, err := f.plan(f.planRequest())
		if err != nil {
			t.Fatal(err)
		}
		if keys, err = f.identities("design", plan.Problems); err != nil {
			t.Fatal(err)
		}
		for _, p := range plan.Problems {
			seeds = append(seeds, p.Seed)
		}
		return keys, seeds
	}
	baseKeys, baseSeeds := identities(ovo, 0, nil)
	if len(baseKeys) != 10 {
		t.Fatalf("%d problems, want 10", len(baseKeys))
	}
	for _, tc := range []struct {
		name              string
		cell              *Cell
		fold              int
		mutate            func(*fold)
		sameKey, sameSeed bool
	}{
		{"dag (another cell)", dag, 0, nil, true, true},
		{"another plugin build", &rebuilt, 0, nil, false, true},
		{"another learner's parameters", sgd, 0, nil, false, false},
		{"another fold", ovo, 1, nil, false, false},
		{"another repeat", ovo, 0, func(f *fold) { f.repeat = 1 }, false, false},
		{"other training rows", ovo, 0, func(f *fold) { f.train = f.train[1:] }, false, false},
	} {
		keys, seeds := identities(tc.cell, tc.fold, tc.mutate)
		if len(keys) != len(baseKeys) {
			t.Fatalf("%s: %d problems, want %d", tc.name, len(keys), len(baseKeys))
		}
		for j := range keys {
			if (keys[j] == baseKeys[j]) != tc.sameKey {
				t.Errorf("%s: problem %d: identity the same: %v, want %v", tc.name, j, keys[j] == baseKeys[j], tc.sameKey)
			}
			if (seeds[j] == baseSeeds[j]) != tc.sameSeed {
				t.Errorf("%s: problem %d: seed the same: %v, want %v", tc.name, j, seeds[j] == baseSeeds[j], tc.sameSeed)
			}
		}
	}
	if baseSeeds[0] == baseSeeds[1] {
		t.Errorf("problems 0 and 1 share their seed %d", baseSeeds[0])
	}
}

// TestFitTableClaims walks the table through its cases: a problem fitted
// by one fold serves the next; one fitted by a process that has since
// been replaced is fitted again; a failed fit is claimed again by the fold
// that waited for it; a fit in flight is waited for.
func TestFitTableClaims(t *testing.T) {
	gk := shareKey{learner: "logreg\x00C=1"}
	p1, p2 := &host.Plugin{}, &host.Plugin{}
	type step struct {
		lp       *host.Plugin
		keys     []string
		wantMine string // positions claimed
		wantWait string // positions to wait for
		wantHave string // positions served by the table
		// publish ends the claims with the models m<position> or err;
		// refuse ends them refused with err (fitTable.refuse).
		publish, refuse bool
		err             error
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"fitted once, then served", []step{
			{lp: p1, keys: []string{"a", "b"}, wantMine: "[0 1]", wantWait: "[]", wantHave: "[]", publish: true},
			{lp: p1, keys: []string{"b", "c", "a"}, wantMine: "[1]", wantWait: "[]", wantHave: "[0 2]", publish: true},
		}},
		{"a restarted process fits again", []step{
			{lp: p1, keys: []string{"a"}, wantMine: "[0]", wantWait: "[]", wantHave: "[]", publish: true},
			{lp: p2, keys: []string{"a"}, wantMine: "[0]", wantWait: "[]", wantHave: "[]", publish: true},
			{lp: p2, keys: []string{"a"}, wantMine: "[]", wantWait: "[]", wantHave: "[0]"},
		}},
		{"in flight, then failed: claimed again", []step{
			{lp: p1, keys: []string{"a", "b"}, wantMine: "[0 1]", wantWait: "[]", wantHave: "[]"},
			{lp: p1, keys: []string{"a"}, wantMine: "[]", wantWait: "[0]", wantHave: "[]"},
		}},
		{"a duplicate within one plan waits for its first", []step{
			{lp: p1, keys: []string{"a", "a"}, wantMine: "[0]", wantWait: "[1]", wantHave: "[]", publish: true},
		}},
		{"a failed fit is given back", []step{
			{lp: p1, keys: []string{"a"}, wantMine: "[0]", wantWait: "[]", wantHave: "[]", publish: true, err: errors.New("broke")},
			{lp: p1, keys: []string{"a"}, wantMine: "[0]", wantWait: "[]", wantHave: "[]"},
		}},
		{"a refused fit is never claimed again: the next fold finds it refused", []step{
			{lp: p1, keys: []string{"a", "b"}, wantMine: "[0 1]", wantWait: "[]", wantHave: "[]", refuse: true, err: errors.New("refused")},
			{lp: p1, keys: []string{"b", "c"}, wantMine: "[1]", wantWait: "[0]", wantHave: "[]"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := newFitTable()
			for n, s := range tc.steps {
				have := make([]bool, len(s.keys))
				models := make([]host.ModelRef, len(s.keys))
				mine, fits, wait := tab.claim(gk, s.keys, s.lp, have, models, make([]float64, len(s.keys)))
				var waits, served []int
				for i := range s.keys {
					if wait[i] != nil {
						waits = append(waits, i)
					}
					if have[i] {
						served = append(served, i)
						if want := fmt.Sprintf("m%d", i); models[i].Handle == "" {
							t.Errorf("step %d: position %d served no model (want one like %s)", n, i, want)
						}
					}
				}
				if got := fmt.Sprint(nonNil(mine)); got != s.wantMine {
					t.Errorf("step %d: claimed %s, want %s", n, got, s.wantMine)
				}
				if got := fmt.Sprint(nonNil(waits)); got != s.wantWait {
					t.Errorf("step %d: waits for %s, want %s", n, got, s.wantWait)
				}
				if got := fmt.Sprint(nonNil(served)); got != s.wantHave {
					t.Errorf("step %d: served %s, want %s", n, got, s.wantHave)
				}
				if s.refuse {
					tab.refuse(fits, s.err)
				}
				if s.publish {
					var ms []host.ModelRef
					for _, i := range mine {
						ms = append(ms, host.ModelRef{Handle: fmt.Sprintf("m%d", i)})
					}
					tab.publish(pick(s.keys, mine), fits, ms, s.lp, 1, s.err)
					if s.err == nil {
						for i, e := range wait {
							if !e.usable(s.lp) || e.model.Handle == "" {
								t.Errorf("step %d: position %d's fit is not usable once published", n, i)
							}
						}
					}
				}
			}
		})
	}
}

// nonNil turns a nil slice into an empty one, for printing.
func nonNil(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

// TestSharedModelsReleasedWithTheirGroup: once a run has ended, the table
// holds no model (each share group's models went with its last task), and
// every group's count is back to zero.
func TestSharedModelsReleasedWithTheirGroup(t *testing.T) {
	g := shareGrid(t)
	s := newScheduler(g, Options{Workers: 3})
	if _, _, err := s.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := len(s.fits.entries); n != 0 {
		t.Errorf("%d models left in the table, want 0", n)
	}
	if n := len(s.fits.groups); n != 0 {
		t.Errorf("%d share groups left in the table, want 0", n)
	}
	// Two learners × 3 folds: six share groups, each of five tasks.
	if len(s.shares) != 6 {
		t.Errorf("%d share groups, want 6", len(s.shares))
	}
	for k, n := range s.shares {
		if n.Load() != 0 {
			t.Errorf("share group %+v: %d tasks unfinished", k, n.Load())
		}
	}
}

// TestSchedulerQueuesShareGroupsTogether: the cells of one learner and
// parameters run fold by fold side by side; another learner's cells come
// after them.
func TestSchedulerQueuesShareGroupsTogether(t *testing.T) {
	g := shareGrid(t)
	s := newScheduler(g, Options{Done: map[int]*outcome.CellResult{1: {Index: 1}}})
	var got []string
	for _, tk := range s.tasks[:8] {
		got = append(got, fmt.Sprintf("c%d f%d", tk.cell.Index, tk.fold))
	}
	want := "c0 f0,c2 f0,c3 f0,c4 f0,c0 f1,c2 f1,c3 f1,c4 f1"
	if strings.Join(got, ",") != want {
		t.Errorf("tasks\n got %s\nwant %s", strings.Join(got, ","), want)
	}
	if tk := s.tasks[12]; tk.cell.Index != 5 || tk.fold != 0 {
		t.Errorf("task 12 is cell %d fold %d, want cell 5 fold 0", tk.cell.Index, tk.fold)
	}
	var buf bytes.Buffer
	for _, tk := range s.tasks {
		if tk.share.learner != sharedLearner(tk.cell) || tk.share.fold != tk.fold {
			fmt.Fprintf(&buf, "cell %d fold %d in share group %+v\n", tk.cell.Index, tk.fold, tk.share)
		}
	}
	if buf.Len() > 0 {
		t.Error(buf.String())
	}
}

// TestRunTimesItsPhases: a run's Stats say how long its workers spent in
// each phase of their folds, in phase order; a Sink that takes 2 ms a
// cell shows as at least 20 ms of the writer's time for the 10 cells.
func TestRunTimesItsPhases(t *testing.T) {
	g := shareGrid(t)
	sink := sinkFunc(func(*outcome.CellResult) error { time.Sleep(2 * time.Millisecond); return nil })
	_, stats, err := Run(context.Background(), g, Options{Workers: 2, Sink: sink})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Workers != 2 {
		t.Errorf("%d workers, want 2", stats.Workers)
	}
	var names []string
	got := map[string]float64{}
	for _, p := range stats.Phases {
		names = append(names, p.Name)
		got[p.Name] = p.Seconds
	}
	if want := "encode,upload,plan,fit,wait for shared fits,predict,decode,score,views"; strings.Join(names, ",") != want {
		t.Errorf("phases %s, want %s", strings.Join(names, ","), want)
	}
	for _, name := range []string{"encode", "upload", "plan", "fit", "predict", "decode", "score"} {
		if got[name] <= 0 {
			t.Errorf("phase %s took %v s, want some time", name, got[name])
		}
	}
	if stats.WriteSeconds < 0.020 {
		t.Errorf("the writer took %v s, want at least 10 × 2 ms", stats.WriteSeconds)
	}
}

// TestFitTableRefitsAfterAKill: a model whose process the host stopped
// (a fold's timeout) serves no fold, not even on that process's handle:
// the next fold that needs it fits it again.
func TestFitTableRefitsAfterAKill(t *testing.T) {
	h := host.New("", nil)
	h.Register("logreg", host.InProcess{Learner: learner.New()})
	t.Cleanup(h.Close)
	lp, err := h.Get(context.Background(), "logreg")
	if err != nil {
		t.Fatal(err)
	}
	tab := newFitTable()
	gk := shareKey{learner: "logreg\x00"}
	claim := func() []int {
		have, models := []bool{false}, make([]host.ModelRef, 1)
		mine, fits, _ := tab.claim(gk, []string{"a"}, lp, have, models, make([]float64, 1))
		if len(mine) > 0 {
			tab.publish([]string{"a"}, fits, []host.ModelRef{{Handle: "m"}}, lp, 1, nil)
		}
		return mine
	}
	if mine := claim(); len(mine) != 1 {
		t.Fatalf("first claim: %v, want [0]", mine)
	}
	if mine := claim(); len(mine) != 0 {
		t.Fatalf("second claim on the live process: %v, want none (served)", mine)
	}
	lp.KillFirst()
	if mine := claim(); len(mine) != 1 {
		t.Errorf("claim after the kill: %v, want [0] (fitted again)", mine)
	}
}

// TestOneOutputPerSharedModelsAndRows: the cells of a share group that
// decode the same models on the same rows ask the learner for their
// outputs once. shareGrid's 2 learners × 3 folds each have 5 cells: ovo
// and dag decode one set of pairwise models (one prediction made for two
// requested), the code's three decoders one set of columns (one for
// three). With NoShare every fold predicts for itself. The cell files,
// times aside, are the same in the three runs.
func TestOneOutputPerSharedModelsAndRows(t *testing.T) {
	g := shareGrid(t)
	const learners, folds, cells = 2, 3, 5
	cases := []struct {
		name      string
		opt       Options
		requested int64
		made      int64
	}{
		{"shared, 4 workers", Options{Workers: 4}, learners * folds * cells, learners * folds * 2},
		{"shared, 1 worker", Options{Workers: 1}, learners * folds * cells, learners * folds * 2},
		{"NoShare", Options{Workers: 4, NoShare: true}, learners * folds * cells, learners * folds * cells},
	}
	var first map[int]string
	for _, tc := range cases {
		files, stats := cellFilesOf(t, g, tc.opt)
		if stats.PredictionsRequested != tc.requested || stats.PredictionsMade != tc.made {
			t.Errorf("%s: predictions %d requested, %d made; want %d requested, %d made",
				tc.name, stats.PredictionsRequested, stats.PredictionsMade, tc.requested, tc.made)
		}
		if first == nil {
			first = files
			continue
		}
		for _, c := range g.Cells {
			if files[c.Index] != first[c.Index] {
				t.Errorf("%s: %s: cell file differs from %s's:\n%s", tc.name, c.ID().Key(), cases[0].name, firstDiff(files[c.Index], first[c.Index]))
			}
		}
	}
}

// TestModelsOfSmallGroupsReleasedTogether: the run's table asks the
// learner to release the models of ended share groups once releaseBatch
// (64) of them have gathered, and the rest when the run ends. shareGrid's
// 6 share groups hold 20 models each (10 pairwise, 10 code columns): 2
// Release calls (80 models after the fourth group, 40 at the end) rather
// than 6, and every model made is released. With NoShare each fold's
// models go with it, one call per fold: 30 calls.
func TestModelsOfSmallGroupsReleasedTogether(t *testing.T) {
	g := shareGrid(t)
	cases := []struct {
		name          string
		opt           Options
		calls, models int64
	}{
		{"shared, 1 worker", Options{Workers: 1}, 2, 120},
		{"shared, 4 workers", Options{Workers: 4}, 2, 120},
		{"NoShare", Options{Workers: 4, NoShare: true}, 30, 300},
	}
	for _, tc := range cases {
		_, stats, err := Run(context.Background(), g, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		if stats.ReleaseCalls != tc.calls || stats.ModelsReleased != tc.models || stats.FitsMade != tc.models {
			t.Errorf("%s: %d Release calls freed %d models of %d made; want %d calls freeing all %d",
				tc.name, stats.ReleaseCalls, stats.ModelsReleased, stats.FitsMade, tc.calls, tc.models)
		}
	}
}

// TestSiblingsFittedInOneBatch: the first fold of a share group to fit
// fits the other cells' problems in its own Fit call, and predicts their
// outputs on the test rows in its own Predict call. With one worker,
// shareGrid's ovo fold fits the code's 10 columns with its 10 pairs: one
// Fit call and one Predict call per group (6 each) where each reduction
// made its own (12). With 4 workers any fold of a group may come first:
// it claims the group's fits and test outputs at once (claimWith), so
// the calls are the same 6 whichever it is. NoShare fits and predicts
// each fold alone (30 calls). The fits made, and every cell file (times
// aside), are the same in every run.
func TestSiblingsFittedInOneBatch(t *testing.T) {
	g := shareGrid(t)
	cases := []struct {
		name     string
		opt      Options
		calls    int64
		wantMade int64
	}{
		{"1 worker", Options{Workers: 1}, 6, 120},
		{"4 workers", Options{Workers: 4}, 6, 120},
		{"NoShare", Options{Workers: 4, NoShare: true}, 30, 300},
	}
	var first map[int]string
	for _, tc := range cases {
		files, stats := cellFilesOf(t, g, tc.opt)
		if stats.FitCalls != tc.calls || stats.FitsMade != tc.wantMade || stats.PredictCalls != tc.calls {
			t.Errorf("%s: %d Fit calls made %d models, %d Predict calls; want %d calls of each making %d",
				tc.name, stats.FitCalls, stats.FitsMade, stats.PredictCalls, tc.calls, tc.wantMade)
		}
		if first == nil {
			first = files
			continue
		}
		for _, c := range g.Cells {
			if files[c.Index] != first[c.Index] {
				t.Errorf("%s: %s: cell file differs from %s's:\n%s", tc.name, c.ID().Key(), cases[0].name, firstDiff(files[c.Index], first[c.Index]))
			}
		}
	}
}

// TestClaimWithWhicheverFirst: two cells A (problems a1, a2) and B (b1)
// of one share group, A ahead of B. Whichever fold claims first claims
// the other's fits and the other's test outputs with its own, and its
// batch holds the problems in the group's order (a1 a2 b1); the fold
// that comes second claims nothing and waits for all of its fits, and
// finds its outputs claimed.
func TestClaimWithWhicheverFirst(t *testing.T) {
	gk := shareKey{fold: 1}
	lp := &host.Plugin{}
	ownA, ownB := []string{"a1", "a2"}, []string{"b1"}
	problems := map[string]plugin.Problem{"a1": {Seed: 1}, "a2": {Seed: 2}, "b1": {Seed: 3}}
	candOf := func(keys []string, ownAt int, outputs string) siblingCandidates {
		c := siblingCandidates{keys: keys, ownAt: ownAt, outputs: []string{outputs},
			models: []siblingModels{{keys: keys}}}
		for _, k := range keys {
			c.problems = append(c.problems, problems[k])
		}
		return c
	}
	cases := []struct {
		name          string
		first, second []string
		cand          siblingCandidates
		otherOutputs  string
	}{
		{"A first", ownA, ownB, candOf(ownB, 0, "outputs of b"), "outputs of b"},
		{"B first", ownB, ownA, candOf(ownA, 2, "outputs of a"), "outputs of a"},
	}
	for _, tc := range cases {
		tab := newFitTable()
		n := len(tc.first)
		c := tab.claimWith(gk, tc.first, tc.cand, lp, make([]bool, n), make([]host.ModelRef, n), make([]float64, n))
		if len(c.mine) != n || len(c.wait) != 0 || len(c.outputs) != 1 || c.outputs[0].key != tc.otherOutputs {
			t.Fatalf("%s: claimed %v (waits %d) and outputs %v; want every own fit and %q", tc.name, c.mine, len(c.wait), c.outputs, tc.otherOutputs)
		}
		sib := tc.cand.claimed(c.sibMine, c.sibFits)
		batch := slices.Concat(sib.keys[:sib.before], pick(tc.first, c.mine), sib.keys[sib.before:])
		if want := []string{"a1", "a2", "b1"}; !slices.Equal(batch, want) {
			t.Errorf("%s: batch %v, want %v", tc.name, batch, want)
		}
		m := len(tc.second)
		later := tab.claimWith(gk, tc.second, siblingCandidates{}, lp, make([]bool, m), make([]host.ModelRef, m), make([]float64, m))
		if len(later.mine) != 0 || len(later.wait) != m {
			t.Errorf("%s: the second fold claimed %v and waits for %d of %d", tc.name, later.mine, len(later.wait), m)
		}
		if _, mine := tab.claimOutputs(gk, tc.otherOutputs); mine {
			t.Errorf("%s: the second fold's outputs were free", tc.name)
		}
	}
}

// TestClaimWithAfterARefusal: once the learner refused b (fitTable.refuse),
// a fold that lacks b claims nothing, c among its problems and its
// siblings' candidate d (it fits alone: claims.refused), and a fold that
// has b already (from before) claims as before.
func TestClaimWithAfterARefusal(t *testing.T) {
	gk := shareKey{fold: 2}
	lp := &host.Plugin{}
	cases := []struct {
		name        string
		have        []bool
		wantRefused bool
		wantMine    int
	}{
		{"lacks b", []bool{false, false}, true, 0},
		{"has b", []bool{true, false}, false, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tab := newFitTable()
			_, fits, _ := tab.claim(gk, []string{"b"}, lp, []bool{false}, make([]host.ModelRef, 1), make([]float64, 1))
			tab.refuse(fits, errors.New("refused"))
			cand := siblingCandidates{keys: []string{"d"}, problems: []plugin.Problem{{Seed: 4}}}
			c := tab.claimWith(gk, []string{"b", "c"}, cand, lp, tc.have, make([]host.ModelRef, 2), make([]float64, 2))
			if c.refused != tc.wantRefused || len(c.mine) != tc.wantMine {
				t.Errorf("refused %v, claimed %v; want refused %v, %d claimed", c.refused, c.mine, tc.wantRefused, tc.wantMine)
			}
			if _, mine, _ := tab.claim(gk, []string{"d"}, lp, []bool{false}, make([]host.ModelRef, 1), make([]float64, 1)); len(mine) != 1-tc.wantMine {
				t.Errorf("the sibling's d claimed by the next fold: %v; want %d", mine, 1-tc.wantMine)
			}
		})
	}
}
