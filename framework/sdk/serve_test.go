package sdk_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
	"google.golang.org/grpc/test/bufconn"

	"github.com/polyclass/polyclass/framework/internal/serving"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/sdk"
)

// TestServeNothing: Serve without a learner or a reducer returns an error
// saying what is missing, rather than serving an empty plugin.
func TestServeNothing(t *testing.T) {
	err := sdk.Serve(context.Background(), sdk.WithWorkers(2))
	if err == nil || !strings.Contains(err.Error(), "WithLearner") {
		t.Fatalf("Serve without a learner or reducer: %v", err)
	}
}

// TestServeEndsWithContext: Serve returns nil once its context ends.
func TestServeEndsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- sdk.Serve(ctx, sdk.WithLearner(&meanLearner{}), serving.InProcess(bufconn.Listen(1<<10), nil))
	}()
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve after its context ended: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve still serving 10 s after its context ended")
	}
}

// concurrentLearner records the most Fit calls under way at once; each Fit
// waits until wait calls are under way (or 50 ms have passed).
type concurrentLearner struct {
	wait int

	mu        sync.Mutex
	now, most int
	more      *sync.Cond
}

func (l *concurrentLearner) Info() sdk.LearnerInfo {
	return sdk.LearnerInfo{Name: "concurrent", Version: "1", Capabilities: sdk.Capabilities{Binary: true, Scores: true}}
}

func (l *concurrentLearner) Fit(ctx context.Context, in sdk.FitInput, p sdk.Params) (sdk.Model, error) {
	l.mu.Lock()
	l.now++
	l.most = max(l.most, l.now)
	l.more.Broadcast()
	deadline := time.AfterFunc(50*time.Millisecond, func() { l.mu.Lock(); l.more.Broadcast(); l.mu.Unlock() })
	start := time.Now()
	for l.now < l.wait && time.Since(start) < 50*time.Millisecond {
		l.more.Wait()
	}
	deadline.Stop()
	l.now--
	l.mu.Unlock()
	return (&meanLearner{}).Fit(ctx, in, p)
}

// TestWithWorkers: the problems of one Fit call (one-vs-one subsets, each
// to Fit alone) are trained at most WithWorkers at once, and that many
// when the learner waits for them.
func TestWithWorkers(t *testing.T) {
	ctx := context.Background()
	x := mat.NewDense(4, 1, []float64{1, 2, 3, 4})
	enc := matrix.EncodeMatrix(sdk.Matrix{Dense: x})
	problems := make([]sdk.Problem, 6)
	for i := range problems {
		// Row i%4 unused: a subset of the rows, which no batch takes.
		tg := []float64{1, -1, 1, -1}
		tg[i%4] = 0
		problems[i] = sdk.Problem{Kind: sdk.Binary, Targets: tg}
	}
	for _, workers := range []int{1, 3} {
		impl := &concurrentLearner{wait: 3}
		impl.more = sync.NewCond(&impl.mu)
		c := connect(t, impl, sdk.WithWorkers(workers))
		if _, err := c.Ensure(ctx, enc); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Fit(ctx, enc.Digest, []int{0, 1, 2, 3}, nil, problems, 0); err != nil {
			t.Fatal(err)
		}
		if impl.most != workers {
			t.Errorf("WithWorkers(%d): %d fits at once, want %d", workers, impl.most, workers)
		}
	}
}

// TestWithCacheBytes: a learner keeps the datasets that fit in its budget
// and drops the least recently used beyond it, so that the host uploads
// that one again; with the default budget it keeps both.
func TestWithCacheBytes(t *testing.T) {
	ctx := context.Background()
	a := matrix.EncodeMatrix(sdk.Matrix{Dense: mat.NewDense(100, 2, nil)})
	// Another dataset of the same size.
	b := matrix.EncodeMatrix(sdk.Matrix{Dense: mat.NewDense(100, 2, append([]float64{1}, make([]float64, 199)...))})
	for _, tc := range []struct {
		name   string
		opts   []sdk.ServeOption
		again  bool // a uploaded again after b
		againB bool // then b uploaded again
	}{
		{"one dataset's budget", []sdk.ServeOption{sdk.WithCacheBytes(int64(a.Size()) + 100)}, true, true},
		{"two datasets' budget", []sdk.ServeOption{sdk.WithCacheBytes(int64(a.Size() + b.Size()))}, false, false},
		{"default", nil, false, false},
	} {
		c := connect(t, &meanLearner{}, tc.opts...)
		for _, step := range []struct {
			m    *matrix.EncodedMatrix
			want bool
		}{{a, true}, {b, true}, {a, tc.again}, {b, tc.againB}} {
			got, err := c.Ensure(ctx, step.m)
			if err != nil {
				t.Fatal(err)
			}
			if got != step.want {
				t.Errorf("%s: uploaded %v, want %v", tc.name, got, step.want)
			}
		}
	}
}
