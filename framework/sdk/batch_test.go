package sdk_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/sdk"
)

// batchLearner is meanLearner with FitBatch: it records the batches it
// gets and trains each input with meanLearner's Fit. It declines batches
// when the solver is "b" and fails them when C is 7.
type batchLearner struct {
	meanLearner
	bmu     sync.Mutex
	batches [][]sdk.FitInput
}

func (l *batchLearner) FitBatch(ctx context.Context, ins []sdk.FitInput, p sdk.Params) ([]sdk.Model, error) {
	if p.Str("solver") == "b" {
		return nil, sdk.ErrBatchDeclined
	}
	if p.Float("C") == 7 {
		return nil, sdk.WithParam("C", errors.New("seven"))
	}
	l.bmu.Lock()
	l.batches = append(l.batches, ins)
	l.bmu.Unlock()
	return fitEach(ctx, &l.meanLearner, ins, p)
}

// fitEach trains each input with meanLearner's Fit.
func fitEach(ctx context.Context, l *meanLearner, ins []sdk.FitInput, p sdk.Params) ([]sdk.Model, error) {
	models := make([]sdk.Model, len(ins))
	for i, in := range ins {
		m, err := l.Fit(ctx, in, p)
		if err != nil {
			return nil, err
		}
		models[i] = m
	}
	return models, nil
}

// TestFitBatchSharedRows: problems that use every row go to FitBatch, in
// at most Workers parts sharing one X; a problem on a subset of the rows
// goes to Fit; the models answer as Fit's would, in problem order.
func TestFitBatchSharedRows(t *testing.T) {
	ctx := context.Background()
	impl := &batchLearner{}
	c := connect(t, impl, sdk.WithWorkers(2))
	x := mat.NewDense(4, 2, []float64{10, 1, 20, 2, 30, 3, 40, 4})
	enc := matrix.EncodeMatrix(sdk.Matrix{Dense: x})
	if _, err := c.Ensure(ctx, enc); err != nil {
		t.Fatal(err)
	}
	rows := []int{3, 1, 0}
	problems := []sdk.Problem{
		{Kind: sdk.Binary, Targets: []float64{1, -1, 1}},
		{Kind: sdk.Binary, Targets: []float64{1, 0, -1}}, // a subset: Fit
		{Kind: sdk.Binary, Targets: []float64{-1, -1, 1}, Weights: []float64{1, 2, 3}},
		{Kind: sdk.Regression, Targets: []float64{4, 5, 9}},
		{Kind: sdk.Multiclass, NumClasses: 3, Targets: []float64{0, 1, 2}},
	}
	models, err := c.Fit(ctx, enc.Digest, rows, nil, problems, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(impl.batches) != 2 {
		t.Fatalf("%d batches, want 2 (Workers)", len(impl.batches))
	}
	var batched int
	for _, b := range impl.batches {
		for _, in := range b {
			batched++
			if in.X != impl.batches[0][0].X {
				t.Error("the inputs of a batch do not share X")
			}
			if r, _ := in.X.Dims(); r != len(rows) {
				t.Errorf("batched input with %d rows, want %d", r, len(rows))
			}
		}
	}
	if batched != 4 || len(impl.fits) != 5 { // FitBatch above calls Fit for each
		t.Fatalf("%d batched, %d fits; want 4 and 5", batched, len(impl.fits))
	}
	if got := impl.batches[0][0].X.Dense.RawRowView(0); !slices.Equal(got, []float64{40, 4}) {
		t.Errorf("first gathered row %v, want [40 4]", got)
	}
	s, _, err := c.Predict(ctx, enc.Digest, []int{0}, models, false)
	if err != nil {
		t.Fatal(err)
	}
	// mean target (Multiclass: mean class index 0..2) + first feature 10
	for j, want := range []float64{1.0/3 + 10, 0 + 10, -1.0/3 + 10, 6 + 10, 1 + 10} {
		if d := s.At(0, j) - want; d > 1e-12 || d < -1e-12 {
			t.Errorf("model %d: score %v, want %v", j, s.At(0, j), want)
		}
	}
}

// TestFitBatchDeclinedOrFailed: a declined batch is trained by Fit; a
// batch's error reaches the host with the parameter it blames.
func TestFitBatchDeclinedOrFailed(t *testing.T) {
	ctx := context.Background()
	impl := &batchLearner{}
	c := connect(t, impl)
	enc := matrix.EncodeMatrix(sdk.Matrix{Dense: mat.NewDense(2, 1, []float64{1, 2})})
	if _, err := c.Ensure(ctx, enc); err != nil {
		t.Fatal(err)
	}
	problems := []sdk.Problem{{Kind: sdk.Binary, Targets: []float64{1, -1}}, {Kind: sdk.Binary, Targets: []float64{-1, 1}}}
	if _, err := c.Fit(ctx, enc.Digest, []int{0, 1}, sdk.Params{"solver": sdk.String("b")}, problems, 0); err != nil {
		t.Fatal(err)
	}
	if len(impl.batches) != 0 || len(impl.fits) != 2 {
		t.Errorf("declined: %d batches, %d fits; want 0 and 2", len(impl.batches), len(impl.fits))
	}
	_, err := c.Fit(ctx, enc.Digest, []int{0, 1}, sdk.Params{"C": sdk.Number(7)}, problems, 0)
	if err == nil || !strings.Contains(err.Error(), "seven") || !slices.Contains(host.FaultParams(err), "C") {
		t.Errorf("failed batch: err = %v (blames %v), want seven blaming C", err, host.FaultParams(err))
	}
}

// parallelLearner is batchLearner with FitBatchParallel: it records the
// workers of each call as well.
type parallelLearner struct {
	batchLearner
	workers []int
}

func (l *parallelLearner) FitBatchParallel(ctx context.Context, ins []sdk.FitInput, p sdk.Params, workers int) ([]sdk.Model, error) {
	l.bmu.Lock()
	l.workers = append(l.workers, workers)
	l.bmu.Unlock()
	return l.FitBatch(ctx, ins, p)
}

// TestFitBatchParallel: a ParallelBatchFitter gets every problem that uses
// every row in one call, with the server's workers, and the models answer
// as Fit's would.
func TestFitBatchParallel(t *testing.T) {
	ctx := context.Background()
	impl := &parallelLearner{}
	c := connect(t, impl, sdk.WithWorkers(3))
	x := mat.NewDense(4, 2, []float64{10, 1, 20, 2, 30, 3, 40, 4})
	enc := matrix.EncodeMatrix(sdk.Matrix{Dense: x})
	if _, err := c.Ensure(ctx, enc); err != nil {
		t.Fatal(err)
	}
	problems := []sdk.Problem{
		{Kind: sdk.Binary, Targets: []float64{1, -1, 1}},
		{Kind: sdk.Binary, Targets: []float64{1, 0, -1}}, // a subset: Fit
		{Kind: sdk.Binary, Targets: []float64{-1, -1, 1}},
		{Kind: sdk.Regression, Targets: []float64{4, 5, 9}},
	}
	models, err := c.Fit(ctx, enc.Digest, []int{3, 1, 0}, nil, problems, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(impl.batches) != 1 || len(impl.batches[0]) != 3 || !slices.Equal(impl.workers, []int{3}) {
		t.Fatalf("batches %d (first of %d), workers %v; want one batch of 3 on 3 workers", len(impl.batches), len(impl.batches[0]), impl.workers)
	}
	s, _, err := c.Predict(ctx, enc.Digest, []int{0}, models, false)
	if err != nil {
		t.Fatal(err)
	}
	for j, want := range []float64{1.0/3 + 10, 0 + 10, -1.0/3 + 10, 6 + 10} {
		if d := s.At(0, j) - want; d > 1e-12 || d < -1e-12 {
			t.Errorf("model %d: score %v, want %v", j, s.At(0, j), want)
		}
	}
}

// TestFitThreads: a Fit request's threads (its share of the CPUs) bounds
// the goroutines of the call below the server's workers: the workers a
// ParallelBatchFitter gets, and the parts a BatchFitter's batch is split
// into; 0, or more than the server has, leaves the server's workers.
func TestFitThreads(t *testing.T) {
	problems := make([]sdk.Problem, 6)
	for i := range problems {
		problems[i] = sdk.Problem{Kind: sdk.Binary, Targets: []float64{1, -1, float64(1 - 2*(i%2))}}
	}
	for _, tc := range []struct {
		threads, serverWorkers int
		want                   int // workers of FitBatchParallel and parts of FitBatch
	}{
		{threads: 0, serverWorkers: 4, want: 4},
		{threads: 1, serverWorkers: 4, want: 1},
		{threads: 3, serverWorkers: 4, want: 3},
		{threads: 4, serverWorkers: 4, want: 4},
		{threads: 9, serverWorkers: 4, want: 4},
		{threads: -2, serverWorkers: 4, want: 4}, // no share: the plugin's choice
		{threads: 2, serverWorkers: 1, want: 1},
	} {
		ctx := context.Background()
		par := &parallelLearner{}
		bat := &batchLearner{}
		for _, impl := range []sdk.Learner{par, bat} {
			c := connect(t, impl, sdk.WithWorkers(tc.serverWorkers))
			enc := matrix.EncodeMatrix(sdk.Matrix{Dense: mat.NewDense(3, 1, []float64{1, 2, 3})})
			if _, err := c.Ensure(ctx, enc); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Fit(ctx, enc.Digest, []int{0, 1, 2}, nil, problems, tc.threads); err != nil {
				t.Fatal(err)
			}
		}
		if !slices.Equal(par.workers, []int{tc.want}) {
			t.Errorf("threads %d, server workers %d: FitBatchParallel on %v workers, want [%d]", tc.threads, tc.serverWorkers, par.workers, tc.want)
		}
		if len(bat.batches) != tc.want {
			t.Errorf("threads %d, server workers %d: %d FitBatch parts, want %d", tc.threads, tc.serverWorkers, len(bat.batches), tc.want)
		}
	}
}

// busyLearner is meanLearner as a ParallelBatchFitter that records the
// most goroutines its calls keep busy at once: a batch counts its
// workers, a Fit one.
type busyLearner struct {
	meanLearner
	mu         sync.Mutex
	busy, most int
}

func (l *busyLearner) hold(n int) func() {
	l.mu.Lock()
	l.busy += n
	l.most = max(l.most, l.busy)
	l.mu.Unlock()
	time.Sleep(20 * time.Millisecond) // long enough for the other jobs to start if they may
	return func() { l.mu.Lock(); l.busy -= n; l.mu.Unlock() }
}

func (l *busyLearner) Fit(ctx context.Context, in sdk.FitInput, p sdk.Params) (sdk.Model, error) {
	defer l.hold(1)()
	return l.meanLearner.Fit(ctx, in, p)
}

func (l *busyLearner) FitBatch(ctx context.Context, ins []sdk.FitInput, p sdk.Params) ([]sdk.Model, error) {
	return l.FitBatchParallel(ctx, ins, p, 1)
}

func (l *busyLearner) FitBatchParallel(ctx context.Context, ins []sdk.FitInput, p sdk.Params, workers int) ([]sdk.Model, error) {
	defer l.hold(workers)()
	return fitEach(ctx, &l.meanLearner, ins, p)
}

// TestFitKeepsToItsThreads: a call never keeps more goroutines busy than
// its threads: a ParallelBatchFitter's batch on all of them holds them
// all, and the problems on a subset of the rows (trained by Fit) wait.
func TestFitKeepsToItsThreads(t *testing.T) {
	ctx := context.Background()
	impl := &busyLearner{}
	c := connect(t, impl, sdk.WithWorkers(8))
	enc := matrix.EncodeMatrix(sdk.Matrix{Dense: mat.NewDense(3, 1, []float64{1, 2, 3})})
	if _, err := c.Ensure(ctx, enc); err != nil {
		t.Fatal(err)
	}
	var problems []sdk.Problem
	for range 3 { // every row: the batch
		problems = append(problems, sdk.Problem{Kind: sdk.Binary, Targets: []float64{1, -1, 1}})
	}
	for range 4 { // row 1 unused: Fit
		problems = append(problems, sdk.Problem{Kind: sdk.Binary, Targets: []float64{1, 0, -1}})
	}
	for _, threads := range []int{1, 3} {
		impl.most = 0
		if _, err := c.Fit(ctx, enc.Digest, []int{0, 1, 2}, nil, problems, threads); err != nil {
			t.Fatal(err)
		}
		if impl.most != threads {
			t.Errorf("threads %d: at most %d goroutines busy at once, want %d", threads, impl.most, threads)
		}
	}
}
