package engine

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/polyclass/polyclass/framework/host"
)

func TestLeasesForgetOnlyFreeDigests(t *testing.T) {
	var l leases
	l.acquire("a")
	l.acquire("a")
	l.acquire("b")
	l.release("b")
	var dropped []string
	l.forgetAsync([]string{"a", "b", "c"}, func(free []string) { dropped = free })
	l.wait()
	if !slices.Equal(dropped, []string{"b", "c"}) {
		t.Errorf("dropped %v, want [b c] (a is held twice)", dropped)
	}
	l.release("a")
	if n := l.held("a"); n != 1 {
		t.Errorf("a held %d times, want 1", n)
	}
	called := false
	l.forgetAsync([]string{"a"}, func([]string) { called = true })
	l.wait()
	if called {
		t.Error("forget dropped a held digest")
	}
}

// TestLeasesNoUseAfterForget models the race the leases close: folds take a
// lease, check that the plugin holds the matrix (uploading it if not) and
// use it, while other goroutines forget it. A use must never find the
// matrix gone. Run with -race.
func TestLeasesNoUseAfterForget(t *testing.T) {
	var (
		l      leases
		mu     sync.Mutex
		loaded = map[string]bool{}
		wg     sync.WaitGroup
		errs   = make(chan error, 1)
	)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				d := fmt.Sprint(i % 3)
				if w%2 == 0 {
					l.forgetAsync([]string{d}, func(free []string) {
						mu.Lock()
						for _, f := range free {
							delete(loaded, f)
						}
						mu.Unlock()
					})
					continue
				}
				l.acquire(d)
				mu.Lock()
				loaded[d] = true // Has or Upload
				mu.Unlock()
				mu.Lock()
				ok := loaded[d] // Fit and Predict
				mu.Unlock()
				l.release(d)
				if !ok {
					select {
					case errs <- fmt.Errorf("matrix %s forgotten while leased", d):
					default:
					}
				}
			}
		}()
	}
	wg.Wait()
	l.wait()
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
}

func TestNotLoaded(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&host.RPCError{Op: "fit", Status: status.New(codes.FailedPrecondition, "dataset d is not loaded")}, true},
		{fmt.Errorf("fold 3: %w", &host.RPCError{Op: "predict", Status: status.New(codes.FailedPrecondition, "x")}), true},
		{&host.RPCError{Op: "fit", Status: status.New(codes.InvalidArgument, "C must be > 0")}, false},
		{fmt.Errorf("plain"), false},
		{nil, false},
	} {
		if got := notLoaded(tc.err); got != tc.want {
			t.Errorf("notLoaded(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}

// TestLeasesForgetHoldsUpOnlyItsDigests: while a forget's drop waits on a
// plugin (stopped, say), a lease on another digest is taken at once and a
// lease on the digest being forgotten waits for the drop to return.
func TestLeasesForgetHoldsUpOnlyItsDigests(t *testing.T) {
	var l leases
	started, unblock := make(chan struct{}), make(chan struct{})
	l.forgetAsync([]string{"a"}, func([]string) { close(started); <-unblock })
	<-started
	other := make(chan struct{})
	go func() { l.acquire("b"); close(other) }()
	select {
	case <-other:
	case <-time.After(10 * time.Second):
		t.Fatal("a lease on b waited for the forget of a")
	}
	same := make(chan struct{})
	go func() { l.acquire("a"); close(same) }()
	select {
	case <-same:
		t.Fatal("a lease on a was taken while a was being forgotten")
	case <-time.After(50 * time.Millisecond):
	}
	close(unblock)
	<-same
	l.wait()
	if l.held("a") != 1 || l.held("b") != 1 {
		t.Errorf("held a %d, b %d; want 1 and 1", l.held("a"), l.held("b"))
	}
	// A digest being forgotten is not handed to a second forget.
	started2, unblock2 := make(chan struct{}), make(chan struct{})
	l.release("a")
	l.forgetAsync([]string{"a"}, func([]string) { close(started2); <-unblock2 })
	<-started2
	again := make(chan []string, 1)
	l.forgetAsync([]string{"a", "c"}, func(free []string) { again <- free })
	if got := <-again; !slices.Equal(got, []string{"c"}) {
		t.Errorf("second forget dropped %v, want [c]", got)
	}
	close(unblock2)
	l.wait()
}
