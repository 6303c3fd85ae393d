//go:build unix

package main

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user + system) of this process and of
// its children that have ended and been waited for (the plugin processes,
// once the host has closed them); ok is false where the system cannot say.
func processCPU() (self, children time.Duration, ok bool) {
	var s, c syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &s) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &c) != nil {
		return 0, 0, false
	}
	return rusageCPU(s), rusageCPU(c), true
}

// rusageCPU is the user + system time of r.
func rusageCPU(r syscall.Rusage) time.Duration {
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}
