package sdk

import (
	"os"
	"runtime/debug"
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
