//go:build unix

package host

import (
	"os"
	"path/filepath"
	"strings"
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
