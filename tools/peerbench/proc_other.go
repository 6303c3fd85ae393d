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

// hugePagesFaulted is not known outside Linux.
func hugePagesFaulted() int64 { return 0 }

// loadAverages are not known outside Linux.
func loadAverages() []string { return nil }

// cpuModel is not known outside Linux.
func cpuModel() string { return "" }

// memTotal is not known outside Linux.
func memTotal() int64 { return 0 }

// autogroupOn is false outside Linux.
func autogroupOn() bool { return false }
