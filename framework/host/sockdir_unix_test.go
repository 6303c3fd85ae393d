//go:build unix

package host

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestSocketsSweep: a new run's socket directory is made private and
// locked; the directories of runs that ended (their lock free, or no lock
// file and over a minute old) are removed, those of live runs kept; a
// base too deep for socket paths gives none.
func TestSocketsSweep(t *testing.T) {
	tmp, err := os.MkdirTemp("", "sw")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	base := filepath.Join(tmp, "s")
	live := newSockets(base)
	if live == nil || !private(base) {
		t.Fatalf("newSockets(%s) = %v, private %v", base, live, private(base))
	}
	mk := func(name string, lock bool, age time.Duration) string {
		dir := filepath.Join(base, name)
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "plugin123"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if lock {
			if err := os.WriteFile(filepath.Join(dir, socketsLock), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		old := time.Now().Add(-age)
		if err := os.Chtimes(dir, old, old); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	dead := mk("run-dead", true, 0)
	oldUnlocked := mk("run-old", false, 2*staleUnlocked)
	newUnlocked := mk("run-new", false, 0)
	other := mk("notarun", true, 0)
	next := newSockets(base)
	defer next.remove()
	for dir, want := range map[string]bool{live.dir: true, next.dir: true, dead: false, oldUnlocked: false, newUnlocked: true, other: true} {
		if _, err := os.Stat(dir); (err == nil) != want {
			t.Errorf("%s exists: %v, want %v", dir, err == nil, want)
		}
	}
	live.remove()
	if _, err := os.Stat(live.dir); err == nil {
		t.Errorf("%s left after remove", live.dir)
	}
	deep := filepath.Join(tmp, strings.Repeat("d", 90))
	if s := newSockets(deep); s != nil {
		t.Errorf("newSockets(%d-byte base) = %s, want none", len(deep), s.dir)
	}
}

// TestSocketsConcurrentStarts: hosts starting together (a Slurm array's
// tasks on one node) each get a locked directory of their own that
// outlives the others' sweeps. Before, a sweep could take the lock of a
// directory whose host had created its lock file but not locked it yet,
// and remove the directory the host then handed to its plugins.
func TestSocketsConcurrentStarts(t *testing.T) {
	tmp, err := os.MkdirTemp("", "cs")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	base := filepath.Join(tmp, "s")
	const hosts, starts = 8, 50
	var wg sync.WaitGroup
	errs := make(chan string, hosts*starts)
	for range hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range starts {
				s := newSockets(base)
				if s == nil {
					errs <- "newSockets gave no directory"
					continue
				}
				// Another host's sweep runs in between.
				sweepSockets(base)
				if fi, err := os.Stat(filepath.Join(s.dir, socketsLock)); err != nil {
					errs <- fmt.Sprintf("%s: %v", s.dir, err)
				} else if li, err := s.lock.Stat(); err != nil || !os.SameFile(fi, li) {
					errs <- fmt.Sprintf("%s: the lock held is not the directory's (%v)", s.dir, err)
				}
				s.remove()
			}
		}()
	}
	wg.Wait()
	close(errs)
	n := 0
	for e := range errs {
		if n++; n <= 5 {
			t.Error(e)
		}
	}
	if n > 0 {
		t.Errorf("%d of %d starts lost their directory", n, hosts*starts)
	}
}
