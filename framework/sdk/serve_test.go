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
// waits until wait calls have been under way at once, or until window has
// passed since it started.
//
// The window's end is a flag the timer sets, under the mutex, with the
// broadcast that wakes the waiting call: a deadline read from the clock
// after arming the timer (time.Now() a moment after time.AfterFunc) can
// fall after the timer's wake-up when the goroutine is descheduled between
// the two, and the call then waits for a broadcast that never comes (with
// one worker, no other call broadcasts): the test binary hangs.
type concurrentLearner struct {
	wait   int
	window time.Duration
	// pause, when set, runs between arming the window's timer and
	// waiting, the mutex held: a goroutine descheduled there.
	pause func()

	mu        sync.Mutex
	now, most int
	more      *sync.Cond
}

func newConcurrentLearner(wait int, window time.Duration) *concurrentLearner {
	l := &concurrentLearner{wait: wait, window: window}
	l.more = sync.NewCond(&l.mu)
	return l
}

func (l *concurrentLearner) Info() sdk.LearnerInfo {
	return sdk.LearnerInfo{Name: "concurrent", Version: "1", Capabilities: sdk.Capabilities{Binary: true, Scores: true}}
}

func (l *concurrentLearner) Fit(ctx context.Context, in sdk.FitInput, p sdk.Params) (sdk.Model, error) {
	l.mu.Lock()
	l.now++
	l.most = max(l.most, l.now)
	l.more.Broadcast()
	expired := false
	timer := time.AfterFunc(l.window, func() {
		l.mu.Lock()
		expired = true
		l.more.Broadcast()
		l.mu.Unlock()
	})
	if l.pause != nil {
		l.pause()
	}
	for l.most < l.wait && !expired {
		l.more.Wait()
	}
	timer.Stop()
	l.now--
	l.mu.Unlock()
	return (&meanLearner{}).Fit(ctx, in, p)
}

// TestWithWorkers: the problems of one Fit call (one-vs-one subsets, each
// to Fit alone) are trained at most WithWorkers at once, and that many
// when the learner waits for them. With one worker each Fit waits 50 ms
// for a second call that must not come; with three, the calls wait for
// each other (up to a bound that only a fault of the server reaches), so
// that a slow machine cannot make the count fall short.
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
	for _, tc := range []struct {
		workers int
		window  time.Duration
	}{{1, 50 * time.Millisecond}, {3, 10 * time.Second}} {
		impl := newConcurrentLearner(3, tc.window)
		c := connect(t, impl, sdk.WithWorkers(tc.workers))
		if _, err := c.Ensure(ctx, enc); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Fit(ctx, enc.Digest, []int{0, 1, 2, 3}, nil, problems, 0); err != nil {
			t.Fatal(err)
		}
		if impl.most != tc.workers {
			t.Errorf("WithWorkers(%d): %d fits at once, want %d", tc.workers, impl.most, tc.workers)
		}
	}
}

// TestConcurrentLearnerWindowEnds: a Fit of concurrentLearner that waits
// for calls that never come returns once its window has passed, also when
// its goroutine is descheduled past the window's end between arming the
// timer and waiting: the case in which a deadline read from the clock
// after arming the timer made it wait for ever.
func TestConcurrentLearnerWindowEnds(t *testing.T) {
	l := newConcurrentLearner(2, 10*time.Millisecond)
	l.pause = func() { time.Sleep(50 * time.Millisecond) }
	done := make(chan error, 1)
	go func() {
		_, err := l.Fit(context.Background(), sdk.FitInput{Kind: sdk.Binary, Targets: []float64{1, -1}}, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Fit still waiting a minute after its 10 ms window")
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
