//go:build !unix

package main

import "time"

// processCPU is not measured on this platform.
func processCPU() time.Duration { return 0 }

// cpuTime is not measured on this platform.
func cpuTime() time.Duration { return 0 }

// loadAverage is not known on this platform.
func loadAverage() string { return "" }

// autogroupOn is false outside Linux.
func autogroupOn() bool { return false }
