//go:build linux

package hugepages

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"syscall"
	"unsafe"

	"github.com/polyclass/polyclass/framework/internal/ballast"
)

// madvHugepage is MADV_HUGEPAGE from <sys/mman.h>.
const madvHugepage = 14

// Names of the runtime/metrics the adviser reads.
const (
	metricTotal    = "/memory/classes/total:bytes"
	metricFree     = "/memory/classes/heap/free:bytes"
	metricReleased = "/memory/classes/heap/released:bytes"
)

// Heap advises the Go heap of the calling process to use transparent huge
// pages (see the package comment) and keeps advising its new mappings
// after each garbage collection until the returned function is called.
// It does nothing when the environment turns the advice off (Disabled).
// A process calls it once, early (bench and every plugin process do,
// through sdk.HoldHeapFloor); a later call reserves only what the heap
// does not already hold free.
func Heap() (stop func()) {
	if disabled() {
		return func() {}
	}
	a := &adviser{}
	a.start()
	return func() { a.stopped.Store(true) }
}

// adviser re-advises the heap's mappings after collections in which the
// runtime mapped more memory.
type adviser struct {
	anchor  uintptr // an address inside the heap's run of mappings
	mapped  uint64  // metricTotal at the last advice
	stopped atomic.Bool
}

// start makes the heap map at least Reserve of free address space,
// advises the heap's mappings and arms the collection hook.
func (a *adviser) start() {
	_, free := heapSpace()
	var reserve ballast.Block
	if need := reserveNeeded(free, readFile("/proc/sys/vm/overcommit_memory")); need > 0 {
		// Never written; allocated in chunks so that the runtime does not
		// zero it (package ballast): no page of it becomes resident.
		reserve = ballast.Alloc(int(need))
		a.anchor = uintptr(unsafe.Pointer(reserve.Addr()))
	} else {
		a.anchor = uintptr(unsafe.Pointer(new([4096]byte)))
	}
	advise(a.anchor)
	if reserve.Size() > 0 {
		runtime.KeepAlive(reserve) // its last use: garbage from here on
		// The reserve becomes free address space; give its (never
		// written) pages back at once rather than leaving them to the
		// background scavenger.
		debug.FreeOSMemory()
	}
	a.mapped, _ = heapSpace()
	a.arm()
}

// arm sets a finalizer on a fresh object so that afterCollection runs
// after the next collection.
func (a *adviser) arm() {
	runtime.SetFinalizer(&sentinel{a: a}, func(s *sentinel) { s.a.afterCollection() })
}

// sentinel is the garbage whose finalizer marks a completed collection.
type sentinel struct {
	a *adviser
	_ [16]byte // not a tiny allocation, which could share its block
}

// afterCollection re-advises the heap if the runtime mapped more memory
// since the last advice, and re-arms the hook unless stopped.
func (a *adviser) afterCollection() {
	if a.stopped.Load() {
		return
	}
	if total, _ := heapSpace(); total > a.mapped {
		advise(a.anchor)
		a.mapped = total
	}
	a.arm()
}

// readFile returns the contents of a file, "" when it cannot be read.
func readFile(name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		return ""
	}
	return string(b)
}

// heapSpace returns the memory the runtime has mapped read-write and the
// heap's free address space (free pages, resident or returned).
func heapSpace() (total, free uint64) {
	s := []metrics.Sample{{Name: metricTotal}, {Name: metricFree}, {Name: metricReleased}}
	metrics.Read(s)
	return value(s[0]), value(s[1]) + value(s[2])
}

// value returns a sample's value, 0 when this Go does not know the metric.
func value(s metrics.Sample) uint64 {
	if s.Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s.Value.Uint64()
}

// advise gives MADV_HUGEPAGE to the heap mappings around addr. It is best
// effort: an unreadable maps file or a refused madvise leaves the heap as
// it is.
func advise(addr uintptr) {
	text, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return
	}
	ms, err := ParseMaps(text)
	if err != nil {
		return
	}
	for _, m := range HeapRanges(ms, addr) {
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, m.Lo, m.Hi-m.Lo, madvHugepage)
	}
}
