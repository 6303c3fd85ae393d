//go:build !linux

package main

import (
	"os"
	"time"
)

// treeMemory is the memory of a process tree, in bytes (not measured
// outside Linux).
type treeMemory struct {
	maxrss, rootHWM, childHWM, peakSum, cpuTicks int64
}

// sampledCPU is not measured outside Linux.
func (treeMemory) sampledCPU() time.Duration { return 0 }

// maxRSS is not measured outside Linux.
func maxRSS(*os.ProcessState) int64 { return 0 }

// sampleTree is not available outside Linux.
func sampleTree(int, time.Duration) func() treeMemory {
	return func() treeMemory { return treeMemory{} }
}
