package hugepages

import (
	"reflect"
	"strings"
	"testing"
)

func TestDisabled(t *testing.T) {
	tests := []struct {
		env, godebug string
		want         bool
	}{
		{"", "", false},
		{"on", "", false},
		{"off", "", true},
		{"OFF", "", true},
		{" 0 ", "", true},
		{"false", "", true},
		{"", "disablethp=1", true},
		{"", "gctrace=1, disablethp=1", true},
		{"", "disablethp=0", false},
		{"", "madvdontneed=1", false},
	}
	for _, tt := range tests {
		getenv := func(k string) string {
			switch k {
			case Env:
				return tt.env
			case "GODEBUG":
				return tt.godebug
			}
			return ""
		}
		if got := Disabled(getenv); got != tt.want {
			t.Errorf("Disabled(%s=%q, GODEBUG=%q) = %v, want %v", Env, tt.env, tt.godebug, got, tt.want)
		}
	}
}

func TestReserveNeeded(t *testing.T) {
	tests := []struct {
		free       uint64
		overcommit string
		want       int64
	}{
		{0, "0\n", Reserve},
		{0, "1\n", Reserve},
		{0, "", Reserve}, // unreadable: the default heuristic
		{0, "2\n", 0},    // strict accounting: untouched pages count too
		{10 << 20, "0\n", Reserve - 10<<20},
		{Reserve - 1, "0\n", 1},
		{Reserve, "0\n", 0},
		{Reserve + 1, "0\n", 0},
	}
	for _, tt := range tests {
		if got := reserveNeeded(tt.free, tt.overcommit); got != tt.want {
			t.Errorf("reserveNeeded(%d, %q) = %d, want %d", tt.free, tt.overcommit, got, tt.want)
		}
	}
}

// sampleMaps is the shape of a Go process's /proc/self/maps: the binary,
// the heap's run (mapped pieces, one reserved), a shared segment, the
// C heap and the stack.
const sampleMaps = `00400000-00b40000 r-xp 00000000 fe:00 10018955                           /work/bin/bench-plugin-logreg
00b40000-012cd000 r--p 00740000 fe:00 10018955                           /work/bin/bench-plugin-logreg
012cd000-0130a000 rw-p 00ecd000 fe:00 10018955                           /work/bin/bench-plugin-logreg
0130a000-01340000 rw-p 00000000 00:00 0 
01f4e000-01f6f000 rw-p 00000000 00:00 0                                  [heap]
236d2c000000-236d2f400000 ---p 00000000 00:00 0 
236d2f400000-236d33c00000 rw-p 00000000 00:00 0 
236d33c00000-236d34c00000 rw-p 00000000 00:00 0                          [anon:Go: heap]
236d34c00000-236d38000000 ---p 00000000 00:00 0 
236d38000000-236d3c000000 rw-p 00000000 00:00 0 
7fb9a8000000-7fb9e8000000 rw-s 00000000 00:01 2051                       /memfd:polyclass-shared (deleted)
7fb9e8000000-7fb9e8021000 rw-p 00000000 00:00 0 
7ffc1a0d2000-7ffc1a0f3000 rw-p 00000000 00:00 0                          [stack]
`

func TestParseMaps(t *testing.T) {
	ms, err := ParseMaps([]byte(sampleMaps))
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 13 {
		t.Fatalf("%d mappings, want 13", len(ms))
	}
	want := map[int]Mapping{
		0:  {Lo: 0x400000, Hi: 0xb40000, Perms: "r-xp", Anonymous: false},
		3:  {Lo: 0x130a000, Hi: 0x1340000, Perms: "rw-p", Anonymous: true},
		4:  {Lo: 0x1f4e000, Hi: 0x1f6f000, Perms: "rw-p", Anonymous: false}, // [heap]: the C heap
		5:  {Lo: 0x236d2c000000, Hi: 0x236d2f400000, Perms: "---p", Anonymous: true},
		7:  {Lo: 0x236d33c00000, Hi: 0x236d34c00000, Perms: "rw-p", Anonymous: true}, // named by the program
		10: {Lo: 0x7fb9a8000000, Hi: 0x7fb9e8000000, Perms: "rw-s", Anonymous: false},
		12: {Lo: 0x7ffc1a0d2000, Hi: 0x7ffc1a0f3000, Perms: "rw-p", Anonymous: false},
	}
	for i, w := range want {
		if ms[i] != w {
			t.Errorf("mapping %d = %+v, want %+v", i, ms[i], w)
		}
	}
}

func TestParseMapsErrors(t *testing.T) {
	tests := []struct {
		text, want string
	}{
		{"00400000-00b40000 r-xp 00000000 fe:00\n", "maps line 1: 4 fields"},
		{"\n00400000 r-xp 00000000 fe:00 1 /bin\n", "maps line 2: address range \"00400000\" has no '-'"},
		{"0040000g-00b40000 r-xp 0 fe:00 1\n", "maps line 1: start address \"0040000g\""},
		{"00400000-xyz r-xp 0 fe:00 1\n", "maps line 1: end address \"xyz\""},
		{"00b40000-00400000 r-xp 0 fe:00 1\n", "ends before it starts"},
		{"00400000-00b40000 rx 0 fe:00 1\n", "permissions \"rx\""},
	}
	for _, tt := range tests {
		_, err := ParseMaps([]byte(tt.text))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseMaps(%q) error %v, want one containing %q", tt.text, err, tt.want)
		}
	}
}

func TestHeapRanges(t *testing.T) {
	ms, err := ParseMaps([]byte(sampleMaps))
	if err != nil {
		t.Fatal(err)
	}
	heap := []Mapping{ms[6], ms[7], ms[9]}
	tests := []struct {
		name string
		addr uintptr
		want []Mapping
	}{
		{"in a mapped piece", 0x236d30000000, heap},
		{"in a named piece", 0x236d33c00000, heap},
		{"in the reserved part", 0x236d2c000000, heap},
		{"last byte of the run", 0x236d3bffffff, heap},
		{"just past the run", 0x236d3c000000, nil},
		{"in the binary", 0x500000, nil},
		{"in the C heap", 0x1f50000, nil},
		{"lone anonymous mapping", 0x1310000, []Mapping{ms[3]}},
		{"in the shared segment", 0x7fb9a8001000, nil},
		{"anonymous after the shared segment", 0x7fb9e8000000, []Mapping{ms[11]}},
		{"in the stack", 0x7ffc1a0d2000, nil},
		{"unmapped", 0x1000, nil},
	}
	for _, tt := range tests {
		if got := HeapRanges(ms, tt.addr); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: HeapRanges(%#x) = %+v, want %+v", tt.name, tt.addr, got, tt.want)
		}
	}
}

func FuzzParseMaps(f *testing.F) {
	f.Add([]byte(sampleMaps))
	f.Add([]byte("0-0 ---p 0 0:0 0\n"))
	f.Add([]byte("ffffffffffffffff-ffffffffffffffff rw-p 0 0:0 0 [anon:x y]\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		ms, err := ParseMaps(text)
		if err != nil {
			return
		}
		for _, m := range ms {
			if m.Hi < m.Lo || len(m.Perms) != 4 {
				t.Fatalf("ParseMaps(%q) gave %+v", text, m)
			}
			for _, r := range HeapRanges(ms, m.Lo) {
				if !r.Anonymous || !strings.HasPrefix(r.Perms, "rw") || r.Perms[3] != 'p' {
					t.Fatalf("HeapRanges gave %+v, not private writable anonymous memory", r)
				}
			}
		}
	})
}
