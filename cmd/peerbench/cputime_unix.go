//go:build unix

package main

import (
	"os"
	"strconv"
	"strings"
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
		hugeFaults: vmstat(readFile("/proc/vmstat"), "thp_fault_alloc"),
	}
}

// readFile returns a file's contents, "" when it cannot be read.
func readFile(name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		return ""
	}
	return string(b)
}

// vmstat returns the value of the counter called name in text, the
// contents of /proc/vmstat ("name value" lines), or 0 when it is not
// there.
func vmstat(text, name string) int64 {
	for _, line := range strings.Split(text, "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == name {
			n, err := strconv.ParseInt(f[1], 10, 64)
			if err == nil {
				return n
			}
		}
	}
	return 0
}

// loadAverage returns the 1-minute load average from /proc/loadavg, or ""
// where there is none.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// autogroupOn reports whether Linux's autogroup scheduling is enabled: CPU
// time is then shared fairly between sessions, not between threads.
func autogroupOn() bool {
	b, err := os.ReadFile("/proc/sys/kernel/sched_autogroup_enabled")
	return err == nil && strings.TrimSpace(string(b)) == "1"
}
