//go:build linux

package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// This file is peerbench's one reader of /proc: the processes of a tree,
// their CPU time and memory, sampled while a child runs (sampleTree), and
// the machine's counters and description.

// treeMemory is the memory of a process tree, in bytes, and its CPU time.
type treeMemory struct {
	// maxrss is the kernel's ru_maxrss of the root process from wait4: the
	// peak resident set of the root or of any descendant it reaped,
	// whichever is largest.
	maxrss int64
	// rootHWM is the root's own VmHWM (peak RSS), last sampled value.
	rootHWM int64
	// childHWM is the largest VmHWM among its descendants.
	childHWM int64
	// peakSum is the largest sum of VmRSS over the tree seen in a sample.
	peakSum int64
	// cpuTicks is the user + system time of every process of the tree, in
	// clock ticks, as last sampled (a process reaped between samples keeps
	// its last value).
	cpuTicks int64
}

// clockTicks is the kernel's USER_HZ, the unit of /proc/PID/stat times
// (100 on every Linux architecture Go supports).
const clockTicks = 100

// sampledCPU returns the sampled CPU time of the tree.
func (m treeMemory) sampledCPU() time.Duration {
	return time.Duration(m.cpuTicks) * time.Second / clockTicks
}

// maxRSS returns ru_maxrss of a finished process in bytes (Linux reports
// kilobytes).
func maxRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss * 1024
	}
	return 0
}

// sampleTree samples the process tree rooted at pid every interval until
// the returned function is called, which returns what it saw.
func sampleTree(pid int, interval time.Duration) func() treeMemory {
	var (
		m    treeMemory
		done = make(chan struct{})
		wg   sync.WaitGroup
		cpu  = map[int]int64{}
	)
	sample := func() {
		var sum, ticks int64
		for _, p := range descendants(pid) {
			if st, ok := readStat(p); ok {
				cpu[p] = st.ticks
			}
			rss, hwm, ok := procMemory(p)
			if !ok {
				continue
			}
			sum += rss
			if p == pid {
				m.rootHWM = max(m.rootHWM, hwm)
			} else {
				m.childHWM = max(m.childHWM, hwm)
			}
		}
		for _, t := range cpu {
			ticks += t
		}
		m.peakSum = max(m.peakSum, sum)
		m.cpuTicks = ticks
	}
	wg.Go(func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			sample()
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() treeMemory {
		close(done)
		wg.Wait() // the sampler has stopped: m is this goroutine's now
		return m
	}
}

// procStat is what peerbench reads of /proc/PID/stat.
type procStat struct {
	ppid  int
	ticks int64 // utime + stime, in clock ticks
}

// readStat reads /proc/PID/stat.
func readStat(pid int) (procStat, bool) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return procStat{}, false
	}
	// pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt
	// majflt cmajflt utime stime …; comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 13 {
		return procStat{}, false
	}
	ppid, err0 := strconv.Atoi(string(f[1]))
	u, err1 := strconv.ParseInt(string(f[11]), 10, 64)
	s, err2 := strconv.ParseInt(string(f[12]), 10, 64)
	if err0 != nil || err1 != nil || err2 != nil {
		return procStat{}, false
	}
	return procStat{ppid: ppid, ticks: u + s}, true
}

// descendants returns pid and every live process below it, from the
// parent links in /proc/N/stat.
func descendants(pid int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := readStat(p); ok {
			children[st.ppid] = append(children[st.ppid], p)
		}
	}
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

// procMemory reads VmRSS and VmHWM of a process in bytes.
func procMemory(pid int) (rss, hwm int64, ok bool) {
	text := readProc(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	rss, ok1 := kilobytes(procValue(text, "VmRSS"))
	hwm, ok2 := kilobytes(procValue(text, "VmHWM"))
	return rss, hwm, ok1 && ok2
}

// kilobytes reads "N kB" in bytes.
func kilobytes(v string) (int64, bool) {
	f := strings.Fields(v)
	if len(f) == 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(f[0], 10, 64)
	return n * 1024, err == nil
}

// readProc returns a /proc file's contents, "" when it cannot be read.
func readProc(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return string(b)
}

// procValue returns the value of the first line of text whose key is
// name: "name: value" (status, meminfo, cpuinfo) or "name value"
// (vmstat); "" when there is none.
func procValue(text, name string) string {
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			k, v, _ = strings.Cut(line, " ")
		}
		if strings.TrimSpace(k) == name {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// vmstat returns the counter called name of /proc/vmstat's text, or 0.
func vmstat(text, name string) int64 {
	n, err := strconv.ParseInt(procValue(text, name), 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// hugePagesFaulted returns the transparent huge pages the whole system has
// faulted in so far (thp_fault_alloc of /proc/vmstat).
func hugePagesFaulted() int64 { return vmstat(readProc("/proc/vmstat"), "thp_fault_alloc") }

// loadAverages returns the 1-, 5- and 15-minute load averages of
// /proc/loadavg, or nil.
func loadAverages() []string {
	f := strings.Fields(readProc("/proc/loadavg"))
	if len(f) < 3 {
		return nil
	}
	return f[:3]
}

// cpuModel returns the processor's model name, or "".
func cpuModel() string { return procValue(readProc("/proc/cpuinfo"), "model name") }

// memTotal returns the machine's memory in bytes, or 0.
func memTotal() int64 {
	n, _ := kilobytes(procValue(readProc("/proc/meminfo"), "MemTotal"))
	return n
}

// autogroupOn reports whether Linux's autogroup scheduling is enabled: CPU
// time is then shared fairly between sessions, not between threads.
func autogroupOn() bool {
	return strings.TrimSpace(readProc("/proc/sys/kernel/sched_autogroup_enabled")) == "1"
}
