package engine

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/cellspec"
	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/results"
	lda "github.com/polyclass/polyclass/plugins/lda/learner"
	"github.com/polyclass/polyclass/plugins/reducers/reducer"
	"gonum.org/v1/gonum/mat"
)

// refusing is lda that refuses, by content, every problem whose solver
// seed (which comes from the problem's identity) is a multiple of 25: the
// same problems in every run, whichever fold asks and with whatever
// other problems in its call.
type refusing struct {
	plugin.Learner
	// predicts, when not 0, makes the models of seeds 1 mod predicts
	// fail their predictions.
	predicts uint64
}

// Fit refuses the problems of seeds 0 mod 25 and fits the others as lda.
func (r refusing) Fit(ctx context.Context, in plugin.FitInput, params plugin.Params) (plugin.Model, error) {
	if in.Seed%25 == 0 {
		return nil, fmt.Errorf("refused: seed %d", in.Seed)
	}
	m, err := r.Learner.Fit(ctx, in, params)
	if err == nil && r.predicts != 0 && in.Seed%r.predicts == 1 {
		m = unpredicting{m, in.Seed}
	}
	return m, err
}

// unpredicting is a model whose predictions fail.
type unpredicting struct {
	plugin.Model
	seed uint64
}

// Predict fails.
func (u unpredicting) Predict(context.Context, plugin.Matrix, *mat.Dense, *mat.Dense) error {
	return fmt.Errorf("cannot predict: seed %d", u.seed)
}

// refusingExperiment is campaign 8's D01 grid: ova, ovo and asymmetric
// ovo, three decoders each, for lda and for refusing lda, 3 folds.
const refusingExperiment = `
experiment "refusing" { seed = 11 }
dataset "five" { path = "five.csv" }
learner "lda" {}
learner "refusing" {}
reduction "ova" {
  scheme = "ova"
  decode = ["hamming", "loss:exp", "loss:logistic"]
}
reduction "ovo" {
  scheme = "ovo"
  decode = ["vote", "loss:exp", "dag"]
}
reduction "asym" {
  scheme     = "ovo"
  asymmetric = true
  decode     = ["hamming", "dag", "loss:logistic"]
}
cv { folds = 3 }
metrics = ["accuracy", "macro_f1"]
`

// refusingGrid resolves refusingExperiment on shareGrid's data with a
// host of its own (whose calls are the run's alone).
func refusingGrid(t *testing.T, predicts uint64) (*Grid, *host.Host) {
	t.Helper()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(5, 58))
	var csv strings.Builder
	csv.WriteString("a,b,c,class\n")
	for k := range 5 {
		for range 12 {
			for _, c := range []float64{float64(k % 3), float64(k / 3), float64(k % 2)} {
				fmt.Fprintf(&csv, "%.6f,", c+0.5*rng.NormFloat64())
			}
			fmt.Fprintf(&csv, "k%d\n", k)
		}
	}
	for name, text := range map[string]string{"five.csv": csv.String(), "exp.hcl": refusingExperiment} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	exp, diags := config.NewParser(config.DefaultFormats()).ParseFile(filepath.Join(dir, "exp.hcl"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	h := host.New("", nil)
	h.Register("lda", host.InProcess{Learner: lda.New()})
	h.Register("refusing", host.InProcess{Learner: refusing{lda.New(), predicts}})
	h.Register("reducers", host.InProcess{Reducer: reducer.New()})
	t.Cleanup(h.Close)
	g, diags := Resolve(context.Background(), exp, h, ResolveOptions{DefaultReducer: "reducers"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return g, h
}

// refusingRun is what a run of refusingGrid gives: each cell's file
// (times aside) or error, by cell index, and its counts.
type refusingRun struct {
	cells  map[int]string
	counts string
}

// runRefusing runs refusingGrid with opt on a host of its own.
func runRefusing(t *testing.T, predicts uint64, opt Options) refusingRun {
	t.Helper()
	g, h := refusingGrid(t, predicts)
	res, stats, err := Run(context.Background(), g, opt)
	if err != nil {
		t.Fatal(err)
	}
	specs := Specs(g, cellspec.Build{Version: "test"})
	digests := Digests(specs)
	dir := t.TempDir()
	out := refusingRun{cells: map[int]string{}}
	for _, r := range res {
		if r.Failed() {
			out.cells[r.Index] = "error: " + r.Error
			continue
		}
		path, err := results.WriteCell(dir, r, digests[r.Index], specs[r.Index])
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out.cells[r.Index] = timing.ReplaceAllString(string(b), "")
	}
	var counts strings.Builder
	fmt.Fprintf(&counts, "fits %d requested, %d made in %d calls; outputs %d requested, %d made in %d calls; plans %d/%d\n",
		stats.FitsRequested, stats.FitsMade, stats.FitCalls, stats.PredictionsRequested, stats.PredictionsMade,
		stats.PredictCalls, stats.PlansRequested, stats.PlansMade)
	for _, c := range h.Calls() {
		fmt.Fprintf(&counts, "%s %s %d\n", c.Plugin, c.Method, c.Calls)
	}
	out.counts = counts.String()
	return out
}

// TestFailedFitsCountedAlike runs campaign 8's D01 grid (ova, ovo and
// asymmetric ovo, three decoders each, for lda and for an lda that
// refuses one problem in 25 by content: the ovo and asymmetric cells of
// its fold 1, 6 cells) with 1, 2 and 8 workers, six runs in all: the calls
// to every plugin method, the fits and outputs requested and made, and
// every cell's file or error are the same in every run, and each cell's
// is that of its run alone. Before, a refused fit was given back and
// fitted again by whichever fold came next, with or without its
// siblings' problems, and a fold above a cell's failure ran or was
// skipped as the timing fell: the counts changed from run to run (Fit
// calls 18 to 24, fits requested 540 to 630 here).
func TestFailedFitsCountedAlike(t *testing.T) {
	var first refusingRun
	failed := 0
	for _, workers := range []int{1, 2, 8, 8, 2, 8} {
		run := runRefusing(t, 0, Options{Workers: workers})
		if first.cells == nil {
			first = run
			for _, c := range run.cells {
				if strings.HasPrefix(c, "error: ") {
					failed++
				}
			}
			if failed == 0 || failed == len(run.cells) {
				t.Fatalf("%d of %d cells failed; the test wants some of each", failed, len(run.cells))
			}
			continue
		}
		if run.counts != first.counts {
			t.Errorf("%d workers: counts\n%s\nwant (1 worker's)\n%s", workers, run.counts, first.counts)
		}
		for _, i := range slices.Sorted(maps.Keys(first.cells)) {
			if run.cells[i] != first.cells[i] {
				t.Errorf("%d workers: cell %d differs from 1 worker's:\n%s", workers, i, firstDiff(run.cells[i], first.cells[i]))
			}
		}
	}
	for _, i := range slices.Sorted(maps.Keys(first.cells)) {
		alone := runRefusing(t, 0, Options{Workers: 2, Select: func(c int) bool { return c == i }})
		if alone.cells[i] != first.cells[i] {
			t.Errorf("cell %d differs from its run alone:\n%s", i, firstDiff(first.cells[i], alone.cells[i]))
		}
	}
	if want := "fits 630 requested, 130 made in 24 calls; outputs 36 requested, 12 made in 10 calls; plans 54/9\n"; !strings.HasPrefix(first.counts, want) {
		t.Errorf("counts\n%s\nwant them to begin\n%s", first.counts, want)
	}
	if want := "error: repeat 0 fold 1: fit: problem 9: refused: seed 14244092545246009100"; failed != 6 || first.cells[12] != want {
		t.Errorf("%d cells failed, cell 12 %q; want 6, cell 12 %q", failed, first.cells[12], want)
	}
}

// TestFailedPredictionsCountedAlike is TestFailedFitsCountedAlike with
// models that also fail their predictions (seed 1 mod 7: the asymmetric
// cells fail on one at fold 0, the ovo cells on their refused fit at
// fold 1): 6 runs at -j 1, 2 and 8 make the same calls (the refusing
// learner's Predict 12 times) and the same cell files and errors.
func TestFailedPredictionsCountedAlike(t *testing.T) {
	var first refusingRun
	for _, workers := range []int{1, 2, 8, 8, 2, 8} {
		run := runRefusing(t, 7, Options{Workers: workers})
		if first.cells == nil {
			first = run
			continue
		}
		if run.counts != first.counts {
			t.Errorf("%d workers: counts\n%s\nwant (1 worker's)\n%s", workers, run.counts, first.counts)
		}
		for _, i := range slices.Sorted(maps.Keys(first.cells)) {
			if run.cells[i] != first.cells[i] {
				t.Errorf("%d workers: cell %d differs from 1 worker's:\n%s", workers, i, firstDiff(run.cells[i], first.cells[i]))
			}
		}
	}
	if want := "refusing LearnerService/Predict 12\n"; !strings.Contains(first.counts, want) {
		t.Errorf("counts\n%s\nwant a line %q", first.counts, want)
	}
	for i, want := range map[int]string{12: "fit: problem 9: refused", 15: "cannot predict: seed 573441485488359692"} {
		if !strings.HasPrefix(first.cells[i], "error: ") || !strings.Contains(first.cells[i], want) {
			t.Errorf("cell %d: %q, want an error with %q", i, first.cells[i], want)
		}
	}
}
