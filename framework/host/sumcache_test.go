package host

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// countingHost returns a host for dir with the digest cache in cache,
// counting the binaries it reads for their digest in reads.
func countingHost(dir, cache string, reads *atomic.Int64) *Host {
	h := New(dir, nil)
	h.SetSumCache(cache)
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

// reducersInCache copies the reducers plugin into a new directory and
// starts it once with a host whose digest cache is new: the cache then
// holds the binary's digest, and reads counts one read.
func reducersInCache(t *testing.T) (dir, cache, path string, reads *atomic.Int64) {
	t.Helper()
	dir, cache = t.TempDir(), t.TempDir()
	path = filepath.Join(dir, "bench-plugin-reducers")
	copyFile(t, reducers, path, 0o755)
	reads = new(atomic.Int64)
	h := countingHost(dir, cache, reads)
	startReducers(t, h)
	h.Close()
	return dir, cache, path, reads
}

// fileWithCache writes a small file in a new directory and returns its
// path and a digest cache in that directory.
func fileWithCache(t *testing.T) (string, sumCache) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := os.WriteFile(path, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, sumCache{dir: filepath.Join(dir, "cache")}
}

// storeEntry stores sum as the entry of the file at path in c and checks
// that lookup finds it.
func storeEntry(t *testing.T, c sumCache, path, sum string) {
	t.Helper()
	file, key, ok := c.entry(path)
	if !ok {
		t.Fatal("no cache entry for a regular file")
	}
	c.store(file, key, sum)
	if got, ok := c.lookup(path); !ok || got != sum {
		t.Fatalf("lookup of the stored entry: %q %v", got, ok)
	}
}

// TestSumCacheSavesARead: a host whose cache knows the binary does not
// read it for its digest (SecureConfig still checks it); the first host
// read it once and filled the cache.
func TestSumCacheSavesARead(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	copyFile(t, reducers, filepath.Join(dir, "bench-plugin-reducers"), 0o755)
	for i, want := range []int64{1, 0, 0} {
		var reads atomic.Int64
		h := countingHost(dir, cache, &reads)
		startReducers(t, h)
		h.Close()
		if got := reads.Load(); got != want {
			t.Errorf("host %d read the binary %d times for its digest, want %d", i, got, want)
		}
	}
}

// TestSumCacheWrongEntry: an entry whose digest is not the binary's (the
// key matches) fails SecureConfig's check; the host drops it, hashes the
// binary, starts it and writes the right entry.
func TestSumCacheWrongEntry(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	path := filepath.Join(dir, "bench-plugin-reducers")
	copyFile(t, reducers, path, 0o755)
	c := sumCache{dir: cache}
	storeEntry(t, c, path, strings.Repeat("ab", 32))
	var reads atomic.Int64
	h := countingHost(dir, cache, &reads)
	defer h.Close()
	startReducers(t, h)
	if reads.Load() != 1 {
		t.Errorf("read the binary %d times, want 1 (after the wrong entry failed the check)", reads.Load())
	}
	want, _ := fileSHA256(path)
	if got, ok := c.lookup(path); !ok || got != want {
		t.Errorf("entry after the start: %q %v, want %q", got, ok, want)
	}
}

// TestSumCacheMissesAChangedBinary: a binary written after its entry was
// made (new change time and size) is read again, and its new digest is
// the one the plugin starts with.
func TestSumCacheMissesAChangedBinary(t *testing.T) {
	dir, cache, path, reads := reducersInCache(t)
	appendTo(t, path, "trailing bytes an ELF loader ignores")
	h := countingHost(dir, cache, reads)
	defer h.Close()
	startReducers(t, h)
	if reads.Load() != 2 {
		t.Errorf("read the binary %d times over two hosts, want 2 (it changed in between)", reads.Load())
	}
}

// TestSumCacheStillGuardsRestarts: a cached digest that SecureConfig
// accepted guards the binary for the rest of the run like one the host
// took itself: replaced after the start, the binary does not start again.
func TestSumCacheStillGuardsRestarts(t *testing.T) {
	dir, cache, path, reads := reducersInCache(t)
	h := countingHost(dir, cache, reads)
	defer h.Close()
	startReducers(t, h) // from the cache
	appendTo(t, path, "tampered")
	_, err := h.Get(context.Background(), "reducers")
	if err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("binary replaced after a start from the cache started again: %v, want a checksum error", err)
	}
}

// TestSumCacheHash: hash stores the digest it read unless the file
// changed during the read; the zero cache stores nothing and still
// returns the digest.
func TestSumCacheHash(t *testing.T) {
	path, c := fileWithCache(t)
	changing := func(p string) (string, error) {
		sum, err := fileSHA256(p)
		os.WriteFile(p, []byte("two, longer"), 0o644)
		return sum, err
	}
	if _, err := c.hash(path, changing); err != nil {
		t.Fatal(err)
	}
	if sum, ok := c.lookup(path); ok {
		t.Errorf("a file that changed while read left entry %q", sum)
	}
	want, _ := fileSHA256(path)
	if got, err := c.hash(path, fileSHA256); err != nil || got != want {
		t.Fatalf("hash = %q, %v; want %q", got, err, want)
	}
	if got, ok := c.lookup(path); !ok || got != want {
		t.Errorf("lookup = %q %v, want %q", got, ok, want)
	}
	var zero sumCache
	if got, err := zero.hash(path, fileSHA256); err != nil || got != want {
		t.Errorf("zero cache: hash = %q, %v; want %q", got, err, want)
	}
	if _, ok := zero.lookup(path); ok {
		t.Error("the zero cache holds an entry")
	}
}

// TestSumCacheOneEntryABinary: a rebuilt binary's entry replaces the
// one of the build before it, so the cache holds one entry a binary
// however often it is rebuilt, and the entry is the new build's.
func TestSumCacheOneEntryABinary(t *testing.T) {
	dir, cache, path, reads := reducersInCache(t)
	for i := range 3 {
		appendTo(t, path, fmt.Sprintf("build %d", i))
		h := countingHost(dir, cache, reads)
		startReducers(t, h)
		h.Close()
	}
	if got := reads.Load(); got != 4 {
		t.Errorf("read the binary %d times over four builds, want 4", got)
	}
	entries, err := os.ReadDir(cache)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) != 1 {
		t.Fatalf("cache holds %v after four builds of one binary, want one entry", names)
	}
	want, _ := fileSHA256(path)
	if got, ok := (sumCache{dir: cache}).lookup(path); !ok || got != want {
		t.Errorf("entry = %q %v, want the last build's %q", got, ok, want)
	}
}

// TestSumCacheStaleKey: an entry written for another key of the same path
// (the build before) is no digest for the present file.
func TestSumCacheStaleKey(t *testing.T) {
	path, c := fileWithCache(t)
	storeEntry(t, c, path, strings.Repeat("cd", 32))
	if err := os.WriteFile(path, []byte("two, longer"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.lookup(path); ok {
		t.Errorf("entry of the old key found for the rewritten file: %q", got)
	}
}

func TestParseEntry(t *testing.T) {
	h1, h2 := strings.Repeat("0123456789abcdef", 4), strings.Repeat("fedcba9876543210", 4)
	for _, tc := range []struct {
		in       string
		key, sum string
		ok       bool
	}{
		{h1 + " " + h2, h1, h2, true},
		{h1 + " " + h2 + "\n", h1, h2, true},
		{h1 + " " + h2 + "\n\n", "", "", false},
		{h1 + "\t" + h2, "", "", false},
		{h1 + h2 + "\n", "", "", false},
		{h2 + "\n", "", "", false},
		{strings.ToUpper(h1) + " " + h2, "", "", false},
		{h1 + " " + h2[:63] + "g", "", "", false},
		{h1[:63] + "  " + h2, "", "", false},
		{"", "", "", false},
	} {
		key, sum, ok := parseEntry([]byte(tc.in))
		if key != tc.key || sum != tc.sum || ok != tc.ok {
			t.Errorf("parseEntry(%q) = %q %q %v, want %q %q %v", tc.in, key, sum, ok, tc.key, tc.sum, tc.ok)
		}
	}
}

func FuzzParseEntry(f *testing.F) {
	f.Add([]byte(strings.Repeat("0f", 32) + " " + strings.Repeat("a1", 32) + "\n"))
	f.Add([]byte("not an entry"))
	f.Fuzz(func(t *testing.T, b []byte) {
		key, sum, ok := parseEntry(b)
		if !ok {
			return
		}
		if !isHex64(key) || !isHex64(sum) || !strings.HasPrefix(string(b), key+" "+sum) {
			t.Fatalf("parseEntry(%q) accepted %q %q", b, key, sum)
		}
	})
}

// BenchmarkStart starts and stops the reducers plugin with a new host each
// time (as each bench command does), without and with the digest cache
// (filled by the first start).
func BenchmarkStart(b *testing.B) {
	for _, cached := range []bool{false, true} {
		b.Run(fmt.Sprintf("cache=%v", cached), func(b *testing.B) {
			dir, cache := b.TempDir(), ""
			if cached {
				cache = b.TempDir()
			}
			copyFile(b, reducers, filepath.Join(dir, "bench-plugin-reducers"), 0o755)
			for b.Loop() {
				h := New(dir, nil)
				h.SetSumCache(cache)
				p, err := h.Get(context.Background(), "reducers")
				if err != nil {
					b.Fatal(err)
				}
				p.Stop()
				h.Close()
			}
		})
	}
}

// TestUserSumCacheDir: bench run's digest cache lives under the user's
// cache directory ($XDG_CACHE_HOME on Linux), and is none without one.
func TestUserSumCacheDir(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the user's cache directory is $XDG_CACHE_HOME on Linux only")
	}
	t.Setenv("XDG_CACHE_HOME", "/tmp/cache-home")
	if got, want := UserSumCacheDir(), filepath.Join("/tmp/cache-home", "polyclass", "plugin-sha256"); got != want {
		t.Errorf("UserSumCacheDir() = %q, want %q", got, want)
	}
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	if got := UserSumCacheDir(); got != "" {
		t.Errorf("without a cache directory: %q, want none", got)
	}
}
