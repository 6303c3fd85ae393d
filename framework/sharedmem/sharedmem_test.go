package sharedmem

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// newTest returns a segment of size bytes (memory from the Go heap, as
// the allocator and Floats see no difference).
func newTest(size int) *Segment {
	return newSegment(nil, make([]byte, size))
}

func TestAllocLowestFit(t *testing.T) {
	s := newTest(1024)
	// The first 64 bytes are the header.
	a, _ := s.Alloc(1)   // [64, 128)
	b, _ := s.Alloc(100) // [128, 256)
	c, _ := s.Alloc(64)  // [256, 320)
	for _, tc := range []struct {
		got, want Region
	}{{a, Region{64, 64}}, {b, Region{128, 128}}, {c, Region{256, 64}}} {
		if tc.got != tc.want {
			t.Errorf("Alloc: got %+v, want %+v", tc.got, tc.want)
		}
	}
	s.Free(b)
	// The hole of 128 bytes takes a request that fits; a larger one goes
	// after c.
	if r, _ := s.Alloc(128); r != (Region{128, 128}) {
		t.Errorf("Alloc(128) after freeing b: got %+v, want {128 128}", r)
	}
	if r, _ := s.Alloc(129); r != (Region{320, 192}) {
		t.Errorf("Alloc(129): got %+v, want {320 192}", r)
	}
	if _, ok := s.Alloc(1024); ok {
		t.Error("Alloc(1024) of a segment with 512 bytes free succeeded")
	}
	for _, n := range []int{0, -1, 2048} {
		if _, ok := s.Alloc(n); ok {
			t.Errorf("Alloc(%d) succeeded", n)
		}
	}
}

// TestAllocFreeRandom checks the free runs against a byte map of what is
// allocated, over random allocations and frees: no region overlaps
// another, every region is aligned, and once all are freed the segment is
// one free run again.
func TestAllocFreeRandom(t *testing.T) {
	const size = 1 << 14
	s := newTest(size)
	owner := make([]int, size) // 0 free, else the region's number
	var live []Region
	rng := rand.New(rand.NewPCG(1, 2))
	for step := 1; step <= 5000; step++ {
		if len(live) > 0 && rng.IntN(2) == 0 {
			i := rng.IntN(len(live))
			r := live[i]
			s.Free(r)
			for j := r.Offset; j < r.end(); j++ {
				owner[j] = 0
			}
			live = append(live[:i], live[i+1:]...)
			continue
		}
		n := 1 + rng.IntN(1500)
		r, ok := s.Alloc(n)
		if !ok {
			continue
		}
		if r.Offset%Align != 0 || r.Length < n || r.Length%Align != 0 {
			t.Fatalf("step %d: Alloc(%d) = %+v", step, n, r)
		}
		for j := r.Offset; j < r.end(); j++ {
			if owner[j] != 0 {
				t.Fatalf("step %d: region %+v overlaps region %d at byte %d", step, r, owner[j], j)
			}
			owner[j] = step
		}
		live = append(live, r)
	}
	for _, r := range live {
		s.Free(r)
	}
	if len(s.free) != 1 || s.free[0] != (Region{Align, size - Align}) {
		t.Errorf("free runs after freeing everything: %+v, want [{%d %d}]", s.free, Align, size-Align)
	}
}

func TestFreeNotAllocatedPanics(t *testing.T) {
	s := newTest(1024)
	r, _ := s.Alloc(64)
	s.Free(r)
	for _, bad := range []Region{r, {2048, 64}, {0, 0}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Free(%+v) did not panic", bad)
				}
			}()
			s.Free(bad)
		}()
	}
}

func TestFloats(t *testing.T) {
	s := newTest(1024)
	for _, tc := range []struct {
		r    Region
		n    int
		want string // "" for success
	}{
		{Region{64, 128}, 16, ""},
		{Region{64, 128}, 0, ""},
		{Region{64, 128}, 17, "cannot hold 17"},
		{Region{1000, 64}, 1, "outside"},
		{Region{-8, 64}, 1, "outside"},
		{Region{4, 64}, 1, "not aligned"},
		{Region{0, 1 << 62}, 1, "outside"},
	} {
		v, err := s.Floats(tc.r, tc.n)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("Floats(%+v, %d): %v", tc.r, tc.n, err)
		case tc.want == "" && len(v) != tc.n:
			t.Errorf("Floats(%+v, %d): %d values", tc.r, tc.n, len(v))
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("Floats(%+v, %d): error %v, want one containing %q", tc.r, tc.n, err, tc.want)
		}
	}
	v, _ := s.Floats(Region{64, 128}, 2)
	v[1] = 1 // 0x3ff0000000000000, little-endian at bytes 72..79
	if s.mem[79] != 0x3f || s.mem[78] != 0xf0 {
		t.Errorf("Floats does not alias the segment: bytes 72..79 = % x", s.mem[72:80])
	}
}

func TestParseEnv(t *testing.T) {
	for _, tc := range []struct {
		v        string
		fd, size int
		ok       bool
	}{
		{"3:1073741824", 3, 1 << 30, true},
		{"0:1", 0, 1, true},
		{"3", 0, 0, false},
		{"3:", 0, 0, false},
		{":10", 0, 0, false},
		{"-1:10", 0, 0, false},
		{"3:0", 0, 0, false},
		{"x:10", 0, 0, false},
	} {
		fd, size, err := ParseEnv(tc.v)
		if (err == nil) != tc.ok || fd != tc.fd || size != tc.size {
			t.Errorf("ParseEnv(%q) = %d, %d, %v; want %d, %d, ok %v", tc.v, fd, size, err, tc.fd, tc.size, tc.ok)
		}
	}
}

func FuzzParseEnv(f *testing.F) {
	for _, v := range []string{"3:1073741824", "3", ":", "-1:-1", "9999999999999999999999:1"} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		fd, size, err := ParseEnv(v)
		if err != nil {
			return
		}
		if fd < 0 || size <= 0 {
			t.Fatalf("ParseEnv(%q) accepted fd %d, size %d", v, fd, size)
		}
		// What it accepted reads back the same from its plain form, and
		// had exactly one separator.
		fd2, size2, err := ParseEnv(strconv.Itoa(fd) + ":" + strconv.Itoa(size))
		if err != nil || fd2 != fd || size2 != size || strings.Count(v, ":") != 1 {
			t.Fatalf("ParseEnv(%q) = %d, %d, which does not read back (%d, %d, %v)", v, fd, size, fd2, size2, err)
		}
	})
}

func TestFromEnvUnset(t *testing.T) {
	t.Setenv(Env, "")
	if s, err := FromEnv(); s != nil || err != nil {
		t.Errorf("FromEnv without %s: %v, %v; want nil, nil", Env, s, err)
	}
	t.Setenv(Env, "nonsense")
	if _, err := FromEnv(); err == nil || !strings.Contains(err.Error(), Env) {
		t.Errorf("FromEnv with a bad value: error %v, want one naming %s", err, Env)
	}
}

// TestForfeit: a forfeited region is never allocated again, and counts as
// freed for Close.
func TestForfeit(t *testing.T) {
	s := newTest(1024)
	a, _ := s.Alloc(64)
	b, _ := s.Alloc(64)
	s.Forfeit(a)
	s.Free(b)
	for range 3 {
		r, _ := s.Alloc(64)
		if r.Offset <= a.Offset && a.Offset < r.end() {
			t.Fatalf("Alloc returned %+v, which holds the forfeited region %+v", r, a)
		}
		s.Free(r)
	}
	if s.live != 0 {
		t.Errorf("%d regions live after freeing and forfeiting all, want 0", s.live)
	}
}

// TestRegionWithin: a region lies within another when it starts at or
// after it and ends at or before its end, whatever the sizes, without
// overflow at the ends of the int range.
func TestRegionWithin(t *testing.T) {
	outer := Region{Offset: 64, Length: 128}
	for _, tc := range []struct {
		r    Region
		want bool
	}{
		{Region{64, 128}, true},
		{Region{64, 0}, true},
		{Region{100, 92}, true},
		{Region{192, 0}, true},
		{Region{63, 10}, false},
		{Region{100, 93}, false},
		{Region{64, 129}, false},
		{Region{193, 0}, false},
		{Region{math.MaxInt - 8, 16}, false}, // its end overflows
		{Region{70, math.MaxInt}, false},
	} {
		if got := tc.r.Within(outer); got != tc.want {
			t.Errorf("%+v.Within(%+v) = %v, want %v", tc.r, outer, got, tc.want)
		}
	}
	if !(Region{math.MaxInt - 8, 8}).Within(Region{0, math.MaxInt}) {
		t.Error("a region at the top of the int range is not within one spanning it")
	}
}

// TestSizeUnder checks the segment size under an address-space limit:
// DefaultSize without one, 1/32 of it rounded down to a page within
// [MinSize, DefaultSize] with one. On the code before, every segment was
// DefaultSize, whatever the limit (campaign 4 x12–x16: three 1 GiB
// segments under ulimit -v 4000000 left the heap too little room).
func TestSizeUnder(t *testing.T) {
	tests := []struct {
		name  string
		limit uint64
		want  int
	}{
		{"no limit", 0, DefaultSize},
		{"infinity", ^uint64(0), DefaultSize},
		{"ulimit -v 4000000 (KiB)", 4000000 << 10, 128000000},
		{"64 GiB", 64 << 30, DefaultSize},
		{"32 GiB + 1", 32<<30 + 1, DefaultSize},
		{"1 GiB", 1 << 30, 32 << 20},
		{"tiny", 1 << 20, MinSize},
		{"not page-aligned", 32*4096 + 31*32, MinSize},
		{"page rounding", 32 * (64<<20 + 4096 + 100), 64<<20 + 4096},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SizeUnder(tt.limit); got != tt.want {
				t.Errorf("SizeUnder(%d) = %d, want %d", tt.limit, got, tt.want)
			}
		})
	}
}
