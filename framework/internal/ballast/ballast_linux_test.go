//go:build linux

package ballast

import (
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// rssKiB returns the process's resident memory (VmRSS) in KiB.
func rssKiB(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			n, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				t.Fatalf("VmRSS line %q: %v", line, err)
			}
			return n
		}
	}
	t.Fatal("no VmRSS in /proc/self/status")
	return 0
}

var sink [][]byte

// freedHeap leaves the heap holding n MiB of freed, written memory (not
// returned to the system), as a process's heap is after its first
// collections.
func freedHeap(n int) {
	for range n * 16 {
		b := make([]byte, 64<<10)
		for i := range b {
			b[i] = 1
		}
		sink = append(sink, b)
	}
	sink = nil
	runtime.GC()
}

// TestAllocTouchesLittle: a 256 MiB block allocated after 32 MiB of heap
// was used and freed makes at most the freed memory and one chunk
// resident. One make of the same size there is zeroed whole: the
// process's resident memory then grows by about 256 MiB (logged, not
// asserted: that is the runtime's behaviour, which Alloc works around).
func TestAllocTouchesLittle(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	const size, freed = 256 << 20, 32
	freedHeap(freed)
	before := rssKiB(t)
	b := Alloc(size)
	grew := rssKiB(t) - before
	if b.Size() != size || b.Addr() == nil {
		t.Fatalf("Alloc(%d): size %d, address %v", size, b.Size(), b.Addr())
	}
	if limit := int64(freed<<10 + ChunkSize>>10); grew > limit {
		t.Errorf("Alloc(256 MiB) after %d MiB of freed heap: resident memory grew by %d KiB, want at most %d KiB (the freed heap and one chunk)", freed, grew, limit)
	}
	runtime.KeepAlive(b)
	b = Block{}
	debug.FreeOSMemory()

	freedHeap(freed)
	before = rssKiB(t)
	one := make([]byte, size)
	t.Logf("resident memory grew by %d KiB with Alloc, by %d KiB with one make of the same size", grew, rssKiB(t)-before)
	runtime.KeepAlive(one)
}
