package host

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// countingHost returns a host for dir that counts the binaries it reads
// for their digest in reads.
func countingHost(dir string, reads *atomic.Int64) *Host {
	h := New(dir, nil)
	h.hashFile = func(path string) (string, error) {
		reads.Add(1)
		return fileSHA256(path)
	}
	return h
}

// startReducers starts the reducers plugin of h, checks that its digest is
// the file's and stops it.
func startReducers(t *testing.T, h *Host) {
	t.Helper()
	p, err := h.Get(context.Background(), "reducers")
	if err != nil {
		t.Fatal(err)
	}
	want, err := fileSHA256(p.Path)
	if err != nil {
		t.Fatal(err)
	}
	if p.SHA256 != want {
		t.Fatalf("started plugin's SHA256 %q, want the file's %q", p.SHA256, want)
	}
	p.Stop()
}

// TestDigestOnceARun: a host reads a binary once for its digest, however
// often it starts it; a new host (the next bench command) reads it again.
func TestDigestOnceARun(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, reducers, filepath.Join(dir, "bench-plugin-reducers"), 0o755)
	var reads atomic.Int64
	h := countingHost(dir, &reads)
	startReducers(t, h)
	startReducers(t, h) // started again after it stopped
	h.Close()
	if got := reads.Load(); got != 1 {
		t.Errorf("one host read the binary %d times for its digest, want 1", got)
	}
	h = countingHost(dir, &reads)
	defer h.Close()
	startReducers(t, h)
	if got := reads.Load(); got != 2 {
		t.Errorf("two hosts read the binary %d times for its digest, want 2", got)
	}
}

// TestDigestGuardsRestarts: the digest taken at the first start guards the
// binary for the rest of the run: replaced after the start, the binary
// does not start again.
func TestDigestGuardsRestarts(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bench-plugin-reducers")
	copyFile(t, reducers, path, 0o755)
	h := New(dir, nil)
	defer h.Close()
	startReducers(t, h)
	appendTo(t, path, "tampered")
	_, err := h.Get(context.Background(), "reducers")
	if err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("binary replaced after its first start started again: %v, want a checksum error", err)
	}
}

// BenchmarkStart starts and stops the reducers plugin with a new host each
// time, as each bench command does: the host's digest and SecureConfig's
// check each read the binary.
func BenchmarkStart(b *testing.B) {
	dir := b.TempDir()
	copyFile(b, reducers, filepath.Join(dir, "bench-plugin-reducers"), 0o755)
	for b.Loop() {
		h := New(dir, nil)
		p, err := h.Get(context.Background(), "reducers")
		if err != nil {
			b.Fatal(err)
		}
		p.Stop()
		h.Close()
	}
}
