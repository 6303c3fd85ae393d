package sharedmem

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestCreateShared writes through one mapping of a created segment and
// reads through a second mapping of its file, as a plugin process does
// (FromEnv with the descriptor the host passed).
func TestCreateShared(t *testing.T) {
	s, err := Create(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r, _ := s.Alloc(80)
	v, err := s.Floats(r, 10)
	if err != nil {
		t.Fatal(err)
	}
	for i := range v {
		v[i] = float64(i) / 3
	}
	// A second descriptor of the file, opened read-write as the plugin's
	// inherited one is.
	dup, err := os.OpenFile("/proc/self/fd/"+strconv.Itoa(int(s.File().Fd())), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(Env, (&Segment{mem: make([]byte, s.Size())}).EnvValue(int(dup.Fd())))
	other, err := FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	w, err := other.Floats(r, 10)
	if err != nil {
		t.Fatal(err)
	}
	for i := range w {
		if w[i] != float64(i)/3 {
			t.Fatalf("second mapping: value %d is %v, want %v", i, w[i], float64(i)/3)
		}
	}
	if &w[0] == &v[0] {
		t.Fatal("the second mapping is the first one")
	}
}

// TestFromEnvNotASegment: a descriptor that is not a host's segment (no
// header), or smaller than the variable says, is refused.
func TestFromEnvNotASegment(t *testing.T) {
	for _, tc := range []struct {
		name, size, want string
	}{
		{"plain file", "65536", "not a shared memory segment of a polyclass host"},
		// A mapping past the file's end would fault on first use.
		{"size past the end", "131072", "not a shared memory segment of that size"},
	} {
		f, err := os.CreateTemp(t.TempDir(), "plain")
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(1 << 16); err != nil {
			t.Fatal(err)
		}
		t.Setenv(Env, strconv.Itoa(int(f.Fd()))+":"+tc.size)
		if s, err := FromEnv(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: FromEnv = %v, %v; want an error containing %q", tc.name, s, err, tc.want)
		}
		f.Close() //nolint:errcheck // FromEnv may have closed the descriptor
	}
}

// TestCloseWaitsForRegions: a segment closed while a region is allocated
// stays mapped until the region is freed, and allocates nothing more.
func TestCloseWaitsForRegions(t *testing.T) {
	s, err := Create(1 << 16)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := s.Alloc(64)
	v, _ := s.Floats(r, 8)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	v[7] = 1 // still mapped: a fault here fails the test binary
	if _, ok := s.Alloc(64); ok {
		t.Error("Alloc after Close succeeded")
	}
	if !s.closing || s.closed {
		t.Errorf("after Close with a live region: closing %v, closed %v; want true, false", s.closing, s.closed)
	}
	s.Free(r)
	if !s.closed {
		t.Error("the segment was not released when its last region was freed")
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}
