//go:build !unix

package main

import "time"

// processCPU is not measured on this platform.
func processCPU() time.Duration { return 0 }

// cpuTime is not measured on this platform.
func cpuTime() time.Duration { return 0 }

// osCounts are the page faults and context switches of this process and
// of its children.
type osCounts struct{ faults, switches, hugeFaults int64 }

// countsNow is not measured on this platform.
func countsNow() osCounts { return osCounts{} }
