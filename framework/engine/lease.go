package engine

import (
	"errors"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// leases counts, per design-matrix digest, the folds that use the matrix
// in a learner plugin: a fold takes its lease before it checks or uploads
// the matrix and gives it back after its last Predict. Forget drops only
// digests nobody holds, and nobody can take a lease while it runs, so a
// fold never finds its matrix forgotten between upload and use.
//
// The zero value is ready to use.
type leases struct {
	mu sync.Mutex
	n  map[string]int
}

// acquire takes a lease on digest. It waits while a forget is running.
func (l *leases) acquire(digest string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n == nil {
		l.n = map[string]int{}
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

// forget calls drop with those of digests that no fold holds, if any, and
// keeps every acquire waiting until drop returns.
func (l *leases) forget(digests []string, drop func(free []string)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var free []string
	for _, d := range digests {
		if l.n[d] == 0 {
			free = append(free, d)
		}
	}
	if len(free) > 0 {
		drop(free)
	}
}

// notLoaded reports whether a learner answered that it does not hold a
// dataset (gRPC FailedPrecondition, the SDK's answer to an unknown digest).
func notLoaded(err error) bool {
	var se interface{ GRPCStatus() *status.Status }
	return errors.As(err, &se) && se.GRPCStatus().Code() == codes.FailedPrecondition
}
