package sdk

import (
	"os"
	"runtime"
	"runtime/debug"

	"github.com/polyclass/polyclass/framework/internal/ballast"
	"github.com/polyclass/polyclass/framework/internal/hugepages"
)

// GCPercent is the garbage collector's target (GOGC) that SetGCPercent
// gives a process: the heap may grow 25 % over what was live at the last
// collection, not Go's default 100 %. The processes of a run hold large
// arrays without pointers (data columns, design matrices, their copies in
// the learners), which cost a collection little to mark, while the
// default would let each process's resident memory reach twice what it
// uses.
const GCPercent = 25

// SetGCPercent sets the garbage collector's target to GCPercent unless the
// environment sets GOGC or GOMEMLIMIT, which then rule. Serve calls it in
// every Go plugin process; bench calls it too.
func SetGCPercent() {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(GCPercent)
	}
}

// HeapFloor is the size of the block a plugin process (Serve) and bench
// (HoldHeapFloor) hold so that their garbage collectors do not run after
// every few megabytes. The
// collector's goal is the live heap plus GCPercent of it, and at least
// 4 MB × GCPercent/100 = 1 MB: a plugin whose live heap is a few MB (a
// reducer, a learner on a small dataset) would collect once per megabyte
// it allocates, where the same code linked into bench, whose heap holds
// the data, collects several times less often. The block counts as live
// heap, so the goal is at least HeapFloor × (1 + GCPercent/100); it holds
// no pointers (the collector does not scan it) and is never written, so
// its pages are never resident (package ballast allocates it so that the
// runtime does not zero it either). The cost is the goal's headroom: at most
// HeapFloor × GCPercent/100 = 16 MB more resident memory per process.
//
// Measured with cmd/peerbench (plugintax: the letter grid through plugin
// processes vs the same plugins linked in, CPU of all processes, median
// of 3, quiet machine): a 16 MB floor 1.07 and 1.08 (two runs), 64 MB
// 1.05 (wall 1.07); the diabetes130 run's summed peak RSS rose from 394
// to 407 MB with 64 MB.
const HeapFloor = 64 << 20

// HoldHeapFloor gives the calling process the heap floor of a plugin
// process (see HeapFloor) and returns the function that ends it; bench
// holds it for the whole run, whose own live heap is a few MB on small
// data sets (letter: a collection every 3 MB allocated without it).
//
// It also advises the heap to use transparent huge pages (package
// hugepages; POLYCLASS_HUGEPAGES=off turns that off), and release stops
// advising its later growth.
func HoldHeapFloor() (release func()) {
	floor := ballast.Alloc(HeapFloor)
	stop := hugepages.Heap()
	return func() {
		stop()
		runtime.KeepAlive(floor)
	}
}
