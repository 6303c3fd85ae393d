package sharedmem

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
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

// addressHelperEnv makes the test binary the child of
// TestSegmentsUnderAddressLimit: "SIZE:LIMIT" (SIZE "host" for HostSize).
const addressHelperEnv = "POLYCLASS_SHAREDMEM_ADDRESS_HELPER"

// TestSegmentsUnderAddressLimit runs, in a child process whose address
// space is limited to 3.5 GiB more than it holds at its start (as ulimit
// -v does; campaign 4 x12–x16), what
// a host does for a run: three plugin segments mapped, then 1 GiB of
// heap in use. With segments of HostSize (1/32 of the limit each)
// the child ends well; with segments of DefaultSize, the code before,
// the heap has no room left and the Go runtime aborts ("fatal error: out
// of memory"), which the second case shows so that the limit is known to
// bite.
func TestSegmentsUnderAddressLimit(t *testing.T) {
	if v := os.Getenv(addressHelperEnv); v != "" {
		addressHelper(v)
		return
	}
	tests := []struct {
		name, size string
		ok         bool
		want       string // in the child's output
	}{
		{"HostSize", "host", true, "heap of 1073741824 bytes"},
		{"DefaultSize, the code before", strconv.Itoa(DefaultSize), false, "out of memory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestSegmentsUnderAddressLimit$")
			cmd.Env = append(os.Environ(), addressHelperEnv+"="+tt.size+":"+strconv.Itoa(7<<29))
			out, err := cmd.CombinedOutput()
			if (err == nil) != tt.ok || !strings.Contains(string(out), tt.want) {
				t.Errorf("child: %v, want ok %v and %q in:\n%.2000s", err, tt.ok, tt.want, out)
			}
		})
	}
}

// vmSize is the address space the process holds, in bytes (VmSize).
func vmSize() uint64 {
	b, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmSize:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// addressHelper is the child: it limits its address space to LIMIT
// bytes more than it holds, maps three segments and fills a 1 GiB slice,
// then exits 0.
func addressHelper(v string) {
	sizeText, limitText, _ := strings.Cut(v, ":")
	limit, _ := strconv.ParseUint(limitText, 10, 64)
	limit += vmSize() // what the runtime and the test binary hold already
	if err := unix.Setrlimit(unix.RLIMIT_AS, &unix.Rlimit{Cur: limit, Max: limit}); err != nil {
		fmt.Println("setrlimit:", err)
		os.Exit(3)
	}
	size := HostSize()
	if sizeText != "host" {
		size, _ = strconv.Atoi(sizeText)
	}
	var segs []*Segment
	for range 3 {
		s, err := Create(size)
		if err != nil {
			fmt.Println("create:", err)
			os.Exit(4)
		}
		segs = append(segs, s)
	}
	heap := make([]byte, 1<<30)
	for i := 0; i < len(heap); i += 1 << 20 {
		heap[i] = 1
	}
	fmt.Printf("segments of %d bytes, heap of %d bytes\n", size, len(heap))
	for _, s := range segs {
		s.Close()
	}
	os.Exit(0)
}
