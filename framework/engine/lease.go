package engine

import (
	"errors"
	"slices"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// leases counts, per design-matrix digest, the folds that use the matrix
// in a learner plugin: a fold takes its lease before it checks or uploads
// the matrix and gives it back after its last Predict. Forget drops only
// digests nobody holds, and nobody can take a lease on a digest while it
// is being forgotten, so a fold never finds its matrix forgotten between
// upload and use. Forgetting a digest holds up only the folds that want
// that digest (rare: a forgotten matrix is one no task left needs), not
// the others: a plugin slow to answer Forget (stopped, or hung) must not
// stall folds on other matrices while their timeouts run.
//
// The zero value is ready to use.
type leases struct {
	mu         sync.Mutex
	n          map[string]int
	forgetting map[string]bool
	cond       *sync.Cond     // signalled when digests stop being forgotten
	drops      sync.WaitGroup // forgets running (forgetAsync)
}

// init makes the maps and the condition (l.mu held).
func (l *leases) init() {
	if l.n == nil {
		l.n, l.forgetting = map[string]int{}, map[string]bool{}
		l.cond = sync.NewCond(&l.mu)
	}
}

// acquire takes a lease on digest. It waits while digest is being
// forgotten.
func (l *leases) acquire(digest string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.init()
	for l.forgetting[digest] {
		l.cond.Wait()
	}
	l.n[digest]++
}

// release gives back a lease taken by acquire.
func (l *leases) release(digest string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n[digest]--; l.n[digest] <= 0 {
		delete(l.n, digest)
	}
}

// held reports the number of leases on digest.
func (l *leases) held(digest string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n[digest]
}

// forgetAsync calls drop, on a goroutine of its own so that the caller
// does not wait for plugins to answer, with those of digests that no fold
// holds and no other forget is dropping, if any, and keeps every acquire
// of them waiting until drop returns; acquires of other digests go on
// meanwhile. wait waits for the drops.
func (l *leases) forgetAsync(digests []string, drop func(free []string)) {
	free := l.mark(digests)
	if len(free) == 0 {
		return
	}
	l.drops.Add(1)
	go func() {
		defer l.drops.Done()
		defer l.unmark(free)
		drop(free)
	}()
}

// wait returns when every forgetAsync's drop has returned.
func (l *leases) wait() { l.drops.Wait() }

// mark returns those of digests that no fold holds and no forget is
// dropping, marked as being forgotten.
func (l *leases) mark(digests []string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.init()
	var free []string
	for _, d := range digests {
		if l.n[d] == 0 && !l.forgetting[d] && !slices.Contains(free, d) {
			free = append(free, d)
			l.forgetting[d] = true
		}
	}
	return free
}

// unmark ends the forgetting of free and wakes the acquires waiting on it.
func (l *leases) unmark(free []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, d := range free {
		delete(l.forgetting, d)
	}
	l.cond.Broadcast()
}

// notLoaded reports whether a learner answered that it does not hold a
// dataset (gRPC FailedPrecondition, the SDK's answer to an unknown digest).
func notLoaded(err error) bool {
	var se interface{ GRPCStatus() *status.Status }
	return errors.As(err, &se) && se.GRPCStatus().Code() == codes.FailedPrecondition
}
