// Package sharedmem is the memory segment a host shares with one plugin
// process, so that score matrices need not travel through the plugin's
// gRPC connection: the host creates the segment (a Linux memfd), passes
// it to the process it starts (its file descriptor and size in the
// environment variable Env), and for each call places the matrices in a
// region it allocates, which it frees when the call returns. Both sides
// map the whole segment; only the host allocates.
//
// A page of the segment is faulted in once and used again by later calls,
// where a message's bytes would be copied through the socket and into
// fresh heap memory on each side (see docs/performance.md, goal 3).
package sharedmem

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// Env names the environment variable through which a host tells a plugin
// process about its segment: "FD:SIZE", the segment's file descriptor in
// the process and its size in bytes.
const Env = "POLYCLASS_SHARED_MEMORY"

// DefaultSize is the size of the segment a host creates per plugin
// process: address space, not memory; a page takes memory once a call
// first uses it, and keeps it until the process ends.
const DefaultSize = 1 << 30

// MinSize is the smallest segment HostSize gives under an address-space
// limit.
const MinSize = 4 << 20

// addressShare is the part of a limited address space one segment may
// take: a run starts a few plugin processes, each with its segment
// mapped into the host, and the host's heap needs the rest.
const addressShare = 32

// SizeUnder returns the size of the segment a host creates per plugin
// process when its address space is limited to limit bytes (RLIMIT_AS,
// ulimit -v, Slurm's VSizeFactor; 0 or more than 1<<62: no limit):
// DefaultSize without a limit, else 1/addressShare of the limit, rounded
// down to a 4096-byte page, between MinSize and DefaultSize. A call whose
// matrices do not fit sends them inline, so a smaller segment costs
// speed, never a result; a segment of DefaultSize under a 4 GB limit
// left the host's heap too little room (fatal error: out of memory).
func SizeUnder(limit uint64) int {
	if limit == 0 || limit > 1<<62 {
		return DefaultSize
	}
	size := limit / addressShare &^ 4095
	return int(max(MinSize, min(size, DefaultSize)))
}

// Align is the alignment of every region Alloc returns, in bytes: a cache
// line, so that the float64 values of a region are aligned too.
const Align = 64

// ErrUnsupported is returned by Create where there is no memfd (every
// system but Linux); the host then sends matrices inline.
var ErrUnsupported = errors.New("sharedmem: no shared memory segments on this system")

// Region is a run of bytes in a segment.
type Region struct {
	Offset, Length int
}

// end is the offset just past r.
func (r Region) end() int { return r.Offset + r.Length }

// Within reports whether r lies inside outer; the test cannot overflow,
// whatever the offsets and lengths of two regions of non-negative sizes.
func (r Region) Within(outer Region) bool {
	return r.Offset >= outer.Offset && r.Length <= outer.Length && r.Offset-outer.Offset <= outer.Length-r.Length
}

// Segment is a mapped shared memory segment. Its methods are safe for
// concurrent use.
type Segment struct {
	file *os.File
	mem  []byte

	mu      sync.Mutex
	free    []Region // host side: free runs, by offset, none adjacent
	live    int      // regions allocated and not yet freed
	closing bool     // Close was called while regions were live
	closed  bool
}

// header opens every segment, in its first Align bytes, which no region
// takes: a process that maps a segment checks it (FromEnv), and no region
// starts at offset 0, which SharedRegion would not encode (see
// plugin.proto).
const header = "polyclass shared memory v1\n"

// newSegment wraps the mapping mem of file, free but for its header.
func newSegment(file *os.File, mem []byte) *Segment {
	s := &Segment{file: file, mem: mem}
	if len(mem) > Align {
		s.free = []Region{{Align, len(mem) - Align}}
	}
	return s
}

// File returns the segment's file, which the host passes to the process
// it starts (exec.Cmd.ExtraFiles).
func (s *Segment) File() *os.File { return s.file }

// Size returns the segment's size in bytes.
func (s *Segment) Size() int { return len(s.mem) }

// EnvValue returns the value of Env for a process that has the segment's
// file as descriptor fd.
func (s *Segment) EnvValue(fd int) string {
	return strconv.Itoa(fd) + ":" + strconv.Itoa(len(s.mem))
}

// ParseEnv splits a value of Env into its descriptor and size.
func ParseEnv(v string) (fd, size int, err error) {
	a, b, ok := strings.Cut(v, ":")
	if ok {
		fd, err = strconv.Atoi(a)
	}
	if ok && err == nil {
		size, err = strconv.Atoi(b)
	}
	if !ok || err != nil || fd < 0 || size <= 0 {
		return 0, 0, fmt.Errorf("sharedmem: %s=%q is not FD:SIZE", Env, v)
	}
	return fd, size, nil
}

// FromEnv maps the segment the environment names (see Env) and returns
// it, or nil when the variable is unset: a process started without one.
func FromEnv() (*Segment, error) {
	v := os.Getenv(Env)
	if v == "" {
		return nil, nil
	}
	fd, size, err := ParseEnv(v)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), "polyclass-shared")
	// Reading a mapping past the end of its file faults (SIGBUS): the file
	// must be as large as the variable says.
	if st, err := f.Stat(); err != nil || st.Size() < int64(size) || size <= Align {
		return nil, fmt.Errorf("sharedmem: descriptor %d (%s=%s) is not a shared memory segment of that size: %v", fd, Env, v, err)
	}
	s, err := Open(f, size)
	if err != nil {
		return nil, err
	}
	if string(s.mem[:len(header)]) != header {
		s.Close() //nolint:errcheck // the header's absence is the error
		return nil, fmt.Errorf("sharedmem: descriptor %d (%s=%s) is not a shared memory segment of a polyclass host", fd, Env, v)
	}
	return s, nil
}

// Alloc returns a free region of at least n bytes (rounded up to Align),
// the lowest that fits, so that the pages calls touch are the same ones
// again; ok is false when no free run is large enough, or n ≤ 0.
func (s *Segment) Alloc(n int) (r Region, ok bool) {
	if n <= 0 || n > len(s.mem) {
		return Region{}, false
	}
	n = (n + Align - 1) &^ (Align - 1)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing || s.closed {
		return Region{}, false
	}
	for i, f := range s.free {
		if f.Length < n {
			continue
		}
		r = Region{f.Offset, n}
		if f.Length == n {
			s.free = append(s.free[:i], s.free[i+1:]...)
		} else {
			s.free[i] = Region{f.Offset + n, f.Length - n}
		}
		s.live++
		return r, true
	}
	return Region{}, false
}

// Free returns r, from Alloc, to the free runs, merged with its
// neighbours; the last region freed after Close releases the segment.
// Freeing a region twice, or one Alloc did not return, panics.
func (s *Segment) Free(r Region) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.insertFree(r)
	s.ended()
}

// ended counts a region out of use; the last one after Close releases
// the segment. s.mu is held.
func (s *Segment) ended() {
	s.live--
	if s.closing && s.live == 0 {
		s.closing, s.closed = false, true
		s.release() //nolint:errcheck // nobody is left to tell
	}
}

// Forfeit takes r, from Alloc, out of use for good: a call that failed or
// was cancelled may leave its plugin still writing to (or reading) the
// region, which must then not go to another call. The region counts as
// freed for Close.
func (s *Segment) Forfeit(r Region) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ended()
}

// insertFree adds r to the free runs.
func (s *Segment) insertFree(r Region) {
	i := 0
	for i < len(s.free) && s.free[i].Offset < r.Offset {
		i++
	}
	if r.Length <= 0 || r.Offset < 0 || r.end() > len(s.mem) ||
		(i > 0 && s.free[i-1].end() > r.Offset) || (i < len(s.free) && r.end() > s.free[i].Offset) {
		panic(fmt.Sprintf("sharedmem: free of region [%d, %d), which is not allocated", r.Offset, r.end()))
	}
	prev := i > 0 && s.free[i-1].end() == r.Offset
	next := i < len(s.free) && s.free[i].Offset == r.end()
	switch {
	case prev && next:
		s.free[i-1].Length += r.Length + s.free[i].Length
		s.free = append(s.free[:i], s.free[i+1:]...)
	case prev:
		s.free[i-1].Length += r.Length
	case next:
		s.free[i] = Region{r.Offset, r.Length + s.free[i].Length}
	default:
		s.free = append(s.free, Region{})
		copy(s.free[i+1:], s.free[i:])
		s.free[i] = r
	}
}

// Floats returns the first n float64 values of region r as a slice that
// aliases the segment (valid until the segment is closed), or an error
// that says why r cannot hold them: outside the segment, not aligned for
// float64, or shorter than n values.
func (s *Segment) Floats(r Region, n int) ([]float64, error) {
	switch {
	case n < 0 || r.Offset < 0 || r.Length < 0 || r.Offset > len(s.mem) || r.Length > len(s.mem)-r.Offset:
		return nil, fmt.Errorf("region [%d, +%d) is outside the %d-byte shared segment", r.Offset, r.Length, len(s.mem))
	case r.Offset%8 != 0:
		return nil, fmt.Errorf("region at offset %d is not aligned for float64 values", r.Offset)
	case r.Length/8 < n:
		return nil, fmt.Errorf("region of %d bytes cannot hold %d float64 values", r.Length, n)
	case n == 0:
		return []float64{}, nil
	}
	return unsafe.Slice((*float64)(unsafe.Pointer(&s.mem[r.Offset])), n), nil
}

// Close releases the segment: unmaps it and closes its file, at once when
// no region is allocated, else when the last one is freed (a call in
// flight when its plugin stops still reads and writes its regions). Slices
// from Floats must not be used after. Close is idempotent.
func (s *Segment) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.closing {
		return nil
	}
	if s.live > 0 {
		s.closing = true
		return nil
	}
	s.closed = true
	return s.release()
}
