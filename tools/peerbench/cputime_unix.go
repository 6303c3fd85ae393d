//go:build unix

package main

import (
	"syscall"
	"time"
)

// processCPU returns the user + system CPU time of this process so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuTime returns the user and system time of this process and of its
// children that have been waited for (plugin processes, once closed).
func cpuTime() time.Duration {
	var children syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children) != nil {
		return 0
	}
	return processCPU() + time.Duration(children.Utime.Nano()+children.Stime.Nano())
}

// osCounts are the page faults and context switches of this process and
// of its children that have been waited for.
type osCounts struct {
	faults     int64 // minor page faults (a page's first touch)
	switches   int64 // context switches, voluntary and not
	hugeFaults int64 // transparent huge pages faulted in, by every process of the system
}

// countsNow returns the osCounts so far.
func countsNow() osCounts {
	var self, children syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &self) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children) != nil {
		return osCounts{}
	}
	return osCounts{
		faults:     self.Minflt + children.Minflt,
		switches:   self.Nvcsw + self.Nivcsw + children.Nvcsw + children.Nivcsw,
		hugeFaults: hugePagesFaulted(),
	}
}
