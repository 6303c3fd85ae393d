package engine

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/data"
	"github.com/polyclass/polyclass/framework/encode"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/internal/plugintest"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/metrics"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/sdk"
)

// centroid is a learner for binary problems on one feature: its score is
// the distance to the negatives' mean minus the distance to the
// positives' mean. It counts its fits; its parameter c changes nothing.
type centroid struct{ fits atomic.Int64 }

func (c *centroid) Info() sdk.LearnerInfo {
	return sdk.LearnerInfo{Name: "centroid", Version: "1", Capabilities: sdk.Capabilities{Binary: true, Scores: true},
		Params: []param.ParamSpec{{Name: "c", Type: param.NumberParam, Description: "unused: a parameter to tune"}}}
}

func (c *centroid) Fit(_ context.Context, in sdk.FitInput, _ param.Params) (sdk.Model, error) {
	c.fits.Add(1)
	var sum [2]float64
	var n [2]int
	for i, y := range in.Targets {
		k := 0
		if y > 0 {
			k = 1
		}
		sum[k] += in.X.Dense.At(i, 0)
		n[k]++
	}
	return centroidModel{neg: sum[0] / float64(n[0]), pos: sum[1] / float64(n[1])}, nil
}

type centroidModel struct{ neg, pos float64 }

func (m centroidModel) Outputs() int { return 1 }

func (m centroidModel) Predict(_ context.Context, x matrix.Matrix, scores, _ *mat.Dense) error {
	r, _ := x.Dims()
	for i := 0; i < r; i++ {
		v := x.Dense.At(i, 0)
		scores.Set(i, 0, math.Abs(v-m.neg)-math.Abs(v-m.pos))
	}
	return nil
}

// oneVsAll is a reducer with one scheme: class k against the rest, decoded
// by the largest score.
type oneVsAll struct{}

func (oneVsAll) Info() sdk.ReducerInfo {
	return sdk.ReducerInfo{Name: "ova", Version: "1", Schemes: []sdk.Scheme{{Name: "ova"}}}
}

func (oneVsAll) Plan(_ context.Context, req sdk.PlanRequest) (sdk.Plan, error) {
	plan := sdk.Plan{State: binary.AppendUvarint(nil, uint64(req.NumClasses))}
	for k := 0; k < req.NumClasses; k++ {
		p := sdk.Problem{Kind: sdk.Binary, Targets: make([]float64, len(req.Labels))}
		for i, y := range req.Labels {
			p.Targets[i] = -1
			if y == k {
				p.Targets[i] = 1
			}
		}
		plan.Problems = append(plan.Problems, p)
	}
	return plan, nil
}

func (oneVsAll) Decode(_ context.Context, req sdk.DecodeRequest) (sdk.Decoding, error) {
	r, k := req.Scores.Dims()
	dec := sdk.Decoding{Predicted: make([]int, r)}
	for i := 0; i < r; i++ {
		for j := 1; j < k; j++ {
			if req.Scores.At(i, j) > req.Scores.At(i, dec.Predicted[i]) {
				dec.Predicted[i] = j
			}
		}
	}
	return dec, nil
}

// pluginGrid is one cell, centroid + ova on 12 rows of one feature in
// three classes (at 0, 5 and 10) and two given folds. Row 3 is class 0 but
// lies at 9.8, among class 2. The plugins are served in-process over gRPC.
func pluginGrid(t *testing.T) (*Grid, *centroid) {
	t.Helper()
	return newPluginGrid(t, []float64{0, 0, 0, 9.8, 5, 5, 5, 5, 10, 10, 10, 10}, []int{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}, oneVsAll{})
}

// newPluginGrid is one cell, centroid + the reducer red, on one feature x
// with labels y (classes a, b, c) and two given folds (even rows, odd
// rows).
func newPluginGrid(t *testing.T, x []float64, y []int, red sdk.Reducer) (*Grid, *centroid) {
	t.Helper()
	impl := &centroid{}
	return newPluginGridOf(t, x, y, red, impl), impl
}

// newPluginGridOf is newPluginGrid with the learner impl (a centroid's
// info), served with the options opts.
func newPluginGridOf(t *testing.T, x []float64, y []int, red sdk.Reducer, impl sdk.Learner, opts ...sdk.ServeOption) *Grid {
	t.Helper()
	var csv strings.Builder
	csv.WriteString("x,class\n")
	folds := make([]int, len(x))
	for i, v := range x {
		fmt.Fprintf(&csv, "%v,%c\n", v, 'a'+y[i])
		folds[i] = i % 2
	}
	path := filepath.Join(t.TempDir(), "blobs.csv")
	if err := os.WriteFile(path, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	table, err := data.Read(path, data.Options{Categorical: []string{"class"}})
	if err != nil {
		t.Fatal(err)
	}
	l := host.NewLearnerClient(plugintest.Conn(t, append(opts, sdk.WithLearner(impl))...))
	r := host.NewReducerClient(plugintest.Conn(t, sdk.WithReducer(red)))
	linfo, rinfo := impl.Info(), red.Info()
	lp := &host.Plugin{Binary: host.Binary{Name: "centroid"}, Learner: l, LearnerInfo: &linfo}
	rp := &host.Plugin{Binary: host.Binary{Name: "ova"}, Reducer: r, ReducerInfo: &rinfo}

	d := &Dataset{Config: &config.Dataset{Name: "blobs", Target: "class"}, Table: table,
		Classes: []string{"a", "b", "c"}, Labels: y, Folds: [][]int{folds}, NumFolds: 2,
		Features: encode.NewFrame(table, map[string]bool{"class": true})}
	g := &Grid{Experiment: &config.Experiment{Name: "blobs", Seed: 1}, Metrics: []string{"accuracy", "macro_f1"},
		Datasets: []*Dataset{d}, Pipelines: []*Pipeline{{Config: &config.Pipeline{Name: "raw"}}},
		Learners:   []*Learner{{Config: &config.Learner{Name: "centroid"}, Plugin: lp, Info: &linfo}},
		Reductions: []*Reduction{{Config: &config.Reduction{Name: "ova"}, Plugin: rp, Scheme: rinfo.Schemes[0]}}}
	g.Cells = []*Cell{{Dataset: d, Pipeline: g.Pipelines[0], Learner: g.Learners[0], Reduction: g.Reductions[0]}}
	return g
}

func TestFoldStepsOnInProcessPlugins(t *testing.T) {
	g, _ := pluginGrid(t)
	s := newScheduler(g, Options{})
	tk := s.tasks[1] // fold 1: trains on the clean rows, tests row 3
	x, enc, err := design(g, tk, s.matrices[tk.key], DefaultDenseBudget)
	if err != nil {
		t.Fatal(err)
	}
	f, err := newFold(context.Background(), g, tk, &s.stats)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 2, 4, 6, 8, 10}; !reflect.DeepEqual(f.train, want) {
		t.Errorf("train rows %v, want %v", f.train, want)
	}
	if req := f.planRequest(); !reflect.DeepEqual(req.Labels, []int{0, 0, 1, 1, 2, 2}) || req.NumClasses != 3 || req.Seed != f.seed {
		t.Errorf("plan request labels %v, K %d", req.Labels, req.NumClasses)
	}
	out, err := f.evaluate(x, enc)
	if err != nil {
		t.Fatal(err)
	}
	// Test rows 1, 3, 5, 7, 9, 11: row 3 (class a, at 9.8) goes to c.
	if want := []int{0, 2, 1, 1, 2, 2}; !reflect.DeepEqual(out.dec.Predicted, want) {
		t.Errorf("predicted %v, want %v", out.dec.Predicted, want)
	}
	fr, err := f.score(tk, out, true)
	if err != nil {
		t.Fatal(err)
	}
	if fr.Metrics["accuracy"] != 5.0/6 || math.Abs(fr.Metrics["macro_f1"]-(2.0/3+1+0.8)/3) > 1e-15 {
		t.Errorf("metrics %v, want accuracy 5/6 and macro F1 (2/3+1+4/5)/3", fr.Metrics)
	}
	if want := [][]int{{1, 0, 1}, {0, 2, 0}, {0, 0, 2}}; !reflect.DeepEqual([][]int(fr.Confusion), want) {
		t.Errorf("confusion %v, want %v", fr.Confusion, want)
	}
	if fr.NTrain != 6 || fr.NTest != 6 || fr.Fold != 1 || fr.Predictions == nil || !reflect.DeepEqual(fr.Predictions.Rows, []int{1, 3, 5, 7, 9, 11}) {
		t.Errorf("fold result %+v", fr)
	}
	if s.stats.Uploads != 1 {
		t.Errorf("%d uploads, want 1", s.stats.Uploads)
	}
}

func TestRunOnInProcessPlugins(t *testing.T) {
	g, learner := pluginGrid(t)
	res, stats, err := Run(context.Background(), g, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Failed() {
		t.Fatalf("results %+v", res)
	}
	// Fold 0 trains with row 3 among class a (its mean 4.9), and still
	// gets every test row right (a row at 5 scores 2.45 for b, 2.4 for a).
	acc := []float64{res[0].Folds[0].Metrics["accuracy"], res[0].Folds[1].Metrics["accuracy"]}
	if acc[0] != 1 || acc[1] != 5.0/6 {
		t.Errorf("accuracies %v, want [1 5/6]", acc)
	}
	// Three problems per fold; one design matrix for both folds (nothing
	// is fitted on the raw features), uploaded once.
	if n := learner.fits.Load(); n != 6 {
		t.Errorf("%d fits, want 6", n)
	}
	if stats.Folds != 2 || stats.Uploads != 1 {
		t.Errorf("stats %+v, want 2 folds, 1 upload", stats)
	}
}

// parallelCentroid is centroid as a ParallelBatchFitter: it records the
// workers of each batch.
type parallelCentroid struct {
	centroid
	mu      sync.Mutex
	workers []int
}

func (c *parallelCentroid) FitBatch(ctx context.Context, ins []sdk.FitInput, p param.Params) ([]sdk.Model, error) {
	return c.FitBatchParallel(ctx, ins, p, 1)
}

func (c *parallelCentroid) FitBatchParallel(ctx context.Context, ins []sdk.FitInput, p param.Params, workers int) ([]sdk.Model, error) {
	c.mu.Lock()
	c.workers = append(c.workers, workers)
	c.mu.Unlock()
	models := make([]sdk.Model, len(ins))
	for i, in := range ins {
		m, err := c.Fit(ctx, in, p)
		if err != nil {
			return nil, err
		}
		models[i] = m
	}
	return models, nil
}

// TestFitsGetTheirShareOfCPUs: a fold's Fit call carries its share of the
// CPUs (4 here) to the learner, through the protocol and below the
// server's 16 workers: all 4 with one worker; with 2 workers 2 each, or 4
// for the second fold when it starts after the first has ended.
func TestFitsGetTheirShareOfCPUs(t *testing.T) {
	for _, tc := range []struct {
		workers int
		want    [][]int // the workers of the two folds' batches, in order
	}{
		{workers: 1, want: [][]int{{4, 4}}},
		{workers: 2, want: [][]int{{2, 2}, {2, 4}}},
	} {
		impl := &parallelCentroid{}
		g := newPluginGridOf(t, []float64{0, 0, 0, 9.8, 5, 5, 5, 5, 10, 10, 10, 10}, []int{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}, oneVsAll{},
			impl, sdk.WithWorkers(16))
		s := newScheduler(g, Options{Workers: tc.workers})
		s.cpus = 4
		res, _, err := s.run(context.Background())
		if err != nil || len(res) != 1 || res[0].Failed() {
			t.Fatalf("workers %d: results %+v, %v", tc.workers, res, err)
		}
		got := slices.Clone(impl.workers)
		slices.Sort(got)
		if !slices.ContainsFunc(tc.want, func(w []int) bool { return slices.Equal(w, got) }) {
			t.Errorf("workers %d: the batches had %v workers, want one of %v", tc.workers, got, tc.want)
		}
	}
}

// probCentroid is centroid with probabilities (a logistic of the score):
// it records, for each Predict, the rows and whether probabilities were
// asked for.
type probCentroid struct {
	centroid
	mu    sync.Mutex
	calls []string
}

func (c *probCentroid) Info() sdk.LearnerInfo {
	info := c.centroid.Info()
	info.Capabilities.Probabilities = true
	return info
}

func (c *probCentroid) Fit(ctx context.Context, in sdk.FitInput, p param.Params) (sdk.Model, error) {
	m, err := c.centroid.Fit(ctx, in, p)
	return probModel{m.(centroidModel), c}, err
}

type probModel struct {
	centroidModel
	c *probCentroid
}

func (m probModel) Predict(ctx context.Context, x matrix.Matrix, scores, probs *mat.Dense) error {
	r, _ := x.Dims()
	m.c.mu.Lock()
	m.c.calls = append(m.c.calls, fmt.Sprintf("%d rows, probabilities %v", r, probs != nil))
	m.c.mu.Unlock()
	if err := m.centroidModel.Predict(ctx, x, scores, nil); err != nil {
		return err
	}
	if probs != nil {
		for i := range r {
			probs.Set(i, 0, 1/(1+math.Exp(-scores.At(i, 0))))
		}
	}
	return nil
}

// coverageOVA is oneVsAll that asks for the training rows' scores, as
// coverage decoding does.
type coverageOVA struct{ oneVsAll }

func (r coverageOVA) Plan(ctx context.Context, req sdk.PlanRequest) (sdk.Plan, error) {
	plan, err := r.oneVsAll.Plan(ctx, req)
	plan.NeedsTrainingScores = true
	return plan, err
}

// TestTrainingScoresComeWithoutProbabilities: a plan that needs the
// training rows' scores gets them from a Predict that does not ask for
// probabilities (the decoder reads none for them); the test rows' Predict
// asks, the learner having them.
func TestTrainingScoresComeWithoutProbabilities(t *testing.T) {
	impl := &probCentroid{}
	g := newPluginGridOf(t, []float64{0, 0, 0, 9.8, 5, 5, 5, 5, 10, 10, 10, 10}, []int{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}, coverageOVA{},
		impl)
	res, _, err := Run(context.Background(), g, Options{Workers: 1})
	if err != nil || len(res) != 1 || res[0].Failed() {
		t.Fatalf("results %+v, %v", res, err)
	}
	// Per fold: the 6 training rows without probabilities (every block of
	// test rows is decoded with them), then the 6 test rows with, each
	// model (3) on its own.
	var want []string
	for range 2 {
		for range 3 {
			want = append(want, "6 rows, probabilities false")
		}
		for range 3 {
			want = append(want, "6 rows, probabilities true")
		}
	}
	if !slices.Equal(impl.calls, want) {
		t.Errorf("Predict calls\n got %q\nwant %q", impl.calls, want)
	}
}

// scoresOnlyOVA is oneVsAll whose plan says its decoder reads no
// probabilities; its Decode records whether it got some.
type scoresOnlyOVA struct {
	oneVsAll
	gotProbs *atomic.Int64
}

func (r scoresOnlyOVA) Plan(ctx context.Context, req sdk.PlanRequest) (sdk.Plan, error) {
	plan, err := r.oneVsAll.Plan(ctx, req)
	plan.IgnoresProbabilities = true
	return plan, err
}

func (r scoresOnlyOVA) Decode(ctx context.Context, req sdk.DecodeRequest) (sdk.Decoding, error) {
	if req.Probabilities != nil {
		r.gotProbs.Add(1)
	}
	return r.oneVsAll.Decode(ctx, req)
}

// TestPlanIgnoringProbabilitiesGetsNone: when the plan says its decoder
// reads no probabilities, the test rows' Predict asks for none (the
// learner computes none) and Decode gets none; the decisions stand.
func TestPlanIgnoringProbabilitiesGetsNone(t *testing.T) {
	impl := &probCentroid{}
	red := scoresOnlyOVA{gotProbs: new(atomic.Int64)}
	g := newPluginGridOf(t, []float64{0, 0, 0, 9.8, 5, 5, 5, 5, 10, 10, 10, 10}, []int{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}, red,
		impl)
	res, _, err := Run(context.Background(), g, Options{Workers: 1})
	if err != nil || len(res) != 1 || res[0].Failed() {
		t.Fatalf("results %+v, %v", res, err)
	}
	want := slices.Repeat([]string{"6 rows, probabilities false"}, 6)
	if !slices.Equal(impl.calls, want) || red.gotProbs.Load() != 0 {
		t.Errorf("Predict calls %q, %d decodings with probabilities; want %q and none", impl.calls, red.gotProbs.Load(), want)
	}
	// As in TestRunOnInProcessPlugins: the same decisions.
	if acc := []float64{res[0].Folds[0].Metrics["accuracy"], res[0].Folds[1].Metrics["accuracy"]}; acc[0] != 1 || acc[1] != 5.0/6 {
		t.Errorf("accuracies %v, want [1 5/6]", acc)
	}
}

func TestCheckDecoding(t *testing.T) {
	mc := &Dataset{Classes: []string{"a", "b", "c"}}
	ml := &Dataset{Classes: []string{"a", "b"}, MultiLabel: true}
	for _, tc := range []struct {
		name string
		d    *Dataset
		dec  sdk.Decoding
		want string
	}{
		{"ok", mc, sdk.Decoding{Predicted: []int{0, 2}, ClassScores: mat.NewDense(2, 3, nil)}, ""},
		{"too few", mc, sdk.Decoding{Predicted: []int{0}}, "reducer r returned 1 predictions for 2 test rows"},
		{"class out of range", mc, sdk.Decoding{Predicted: []int{0, 3}}, "reducer r predicted class 3 for test row 1; classes are 0..2"},
		{"negative class", mc, sdk.Decoding{Predicted: []int{-1, 0}}, "predicted class -1 for test row 0"},
		{"scores shape", mc, sdk.Decoding{Predicted: []int{0, 1}, ClassScores: mat.NewDense(2, 2, nil)}, "returned 2×2 class scores for 2 test rows and 3 classes"},
		{"multi-label ok", ml, sdk.Decoding{LabelMatrix: mat.NewDense(2, 2, nil)}, ""},
		{"no label matrix", ml, sdk.Decoding{Predicted: []int{0, 1}}, "returned no label matrix for multi-label data"},
		{"label matrix shape", ml, sdk.Decoding{LabelMatrix: mat.NewDense(3, 2, nil)}, "returned a 3×2 label matrix for 2 test rows and 2 labels"},
	} {
		err := checkDecoding(tc.dec, tc.d, 2, "r")
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestEvaluateMetrics(t *testing.T) {
	d := &Dataset{Classes: []string{"a", "b", "c"}}
	in := &metrics.Input{K: 3, True: []int{0, 0, 1, 1, 2, 2}, Pred: []int{0, 1, 1, 1, 2, 0}, FitSeconds: 1.5}
	// subset_accuracy is a multi-label metric: left out for multiclass data.
	got, warn, err := evaluateMetrics([]string{"accuracy", "macro_f1", "fit_seconds", "subset_accuracy"}, d, in)
	if err != nil {
		t.Fatal(err)
	}
	// F1 per class: a 1/2, b 4/5, c 2/3.
	want := map[string]float64{"accuracy": 4.0 / 6, "macro_f1": 59.0 / 90, "fit_seconds": 1.5}
	if len(got) != len(want) || warn != nil {
		t.Fatalf("metrics %v (warnings %v), want %v", got, warn, want)
	}
	for k, v := range want {
		if math.Abs(got[k]-v) > 1e-15 {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	if c := confusion(in.True, in.Pred, 3); !reflect.DeepEqual(c, [][]int{{1, 1, 0}, {0, 2, 0}, {1, 0, 1}}) {
		t.Errorf("confusion %v", c)
	}
	if _, _, err := evaluateMetrics([]string{"acuracy"}, d, in); err == nil {
		t.Error("unknown metric: no error")
	}
}

// forgetful is oneVsAll whose Plan first makes the learner plugin forget
// the fold's design matrix (as a cache eviction or a restart would), and
// whose Decode reports what the scheduler's entries hold then.
type forgetful struct {
	oneVsAll
	forget   func(ctx context.Context)
	onDecode func()
}

func (r forgetful) Plan(ctx context.Context, req sdk.PlanRequest) (sdk.Plan, error) {
	r.forget(ctx)
	return r.oneVsAll.Plan(ctx, req)
}

func (r forgetful) Decode(ctx context.Context, req sdk.DecodeRequest) (sdk.Decoding, error) {
	r.onDecode()
	return r.oneVsAll.Decode(ctx, req)
}

// TestSettledMatrixIsEncodedAgainWhenLost: once a fold has uploaded its
// design matrix, the scheduler's entry lets it go, so that bench holds no
// copy through the fits; a learner that has lost the matrix by then gets
// it encoded again (to the same digest) and uploaded, and the results are
// those of a run where nothing was lost.
func TestSettledMatrixIsEncodedAgainWhenLost(t *testing.T) {
	g, _ := pluginGrid(t)
	want, _, err := Run(context.Background(), g, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		lose    bool
		uploads int64
		held    []int // entries holding a matrix at each fold's Decode
	}{
		// The raw pipeline's two folds share one digest: one upload.
		// The entries hold nothing through the fits.
		{"kept", false, 1, []int{0, 0}},
		// Fold 0 uploads, loses the matrix at Plan and uploads it again
		// at Fit; fold 1 finds it held, loses it, uploads it again. The
		// matrix encoded again stays with its entry to the fold's end.
		{"lost", true, 3, []int{1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, _ := pluginGrid(t)
			lc := g.Learners[0].Plugin.Learner
			var s *scheduler
			var held []int
			r := forgetful{
				forget: func(ctx context.Context) {
					for _, e := range s.matrices {
						if d := e.digest.Load(); d != nil && tc.lose {
							if err := lc.Forget(ctx, *d); err != nil {
								t.Error(err)
							}
						}
					}
				},
				onDecode: func() {
					n := 0
					for _, e := range s.matrices {
						e.mu.Lock()
						if e.enc != nil {
							n++
						}
						e.mu.Unlock()
					}
					held = append(held, n)
				},
			}
			g.Reductions[0].Plugin = &host.Plugin{Binary: host.Binary{Name: "ova"}, Reducer: host.NewReducerClient(plugintest.Conn(t, sdk.WithReducer(r))), ReducerInfo: g.Reductions[0].Plugin.ReducerInfo}
			s = newScheduler(g, Options{Workers: 1})
			// The reducer loses the matrix when asked for a plan: every
			// fold must ask (the two folds' plans are alike, which the
			// run's plan cache would answer once).
			s.plans = nil
			got, stats, err := s.run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Failed() {
				t.Fatalf("results %+v", got)
			}
			for k := range want[0].Folds {
				if !reflect.DeepEqual(got[0].Folds[k].Confusion, want[0].Folds[k].Confusion) || got[0].Folds[k].Metrics["accuracy"] != want[0].Folds[k].Metrics["accuracy"] {
					t.Errorf("fold %d: %+v, want %+v", k, got[0].Folds[k], want[0].Folds[k])
				}
			}
			if stats.Uploads != tc.uploads {
				t.Errorf("%d uploads, want %d", stats.Uploads, tc.uploads)
			}
			if !reflect.DeepEqual(held, tc.held) {
				t.Errorf("entries holding a matrix at each Decode: %v, want %v", held, tc.held)
			}
		})
	}
}
