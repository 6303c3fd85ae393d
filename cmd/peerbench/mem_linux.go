//go:build linux

package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// treeMemory is the memory of a process tree, in bytes.
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
		mu   sync.Mutex
		m    treeMemory
		done = make(chan struct{})
		wg   sync.WaitGroup
		cpu  = map[int]int64{}
	)
	sample := func() {
		tree := descendants(pid)
		for _, p := range tree {
			if t, ok := procCPU(p); ok {
				cpu[p] = t
			}
		}
		var sum int64
		for _, p := range tree {
			rss, hwm, ok := procMemory(p)
			if !ok {
				continue
			}
			sum += rss
			mu.Lock()
			if p == pid {
				m.rootHWM = max(m.rootHWM, hwm)
			} else {
				m.childHWM = max(m.childHWM, hwm)
			}
			mu.Unlock()
		}
		var ticks int64
		for _, t := range cpu {
			ticks += t
		}
		mu.Lock()
		m.peakSum = max(m.peakSum, sum)
		m.cpuTicks = ticks
		mu.Unlock()
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
		wg.Wait()
		mu.Lock()
		defer mu.Unlock()
		return m
	}
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
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may contain spaces and parentheses.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(b[i+1:])
		if len(f) < 2 {
			continue
		}
		pp, err := strconv.Atoi(string(f[1]))
		if err != nil {
			continue
		}
		children[pp] = append(children[pp], p)
	}
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

// procCPU reads utime + stime of a process from /proc/PID/stat, in clock
// ticks.
func procCPU(pid int) (int64, bool) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	// After "pid (comm)": state ppid pgrp session tty_nr tpgid flags
	// minflt cminflt majflt cmajflt utime stime …
	f := bytes.Fields(b[i+1:])
	if len(f) < 13 {
		return 0, false
	}
	u, err1 := strconv.ParseInt(string(f[11]), 10, 64)
	s, err2 := strconv.ParseInt(string(f[12]), 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return u + s, true
}

// procMemory reads VmRSS and VmHWM of a process in bytes.
func procMemory(pid int) (rss, hwm int64, ok bool) {
	f, err := os.Open(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0, 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Bytes()
		var dst *int64
		switch {
		case bytes.HasPrefix(line, []byte("VmRSS:")):
			dst = &rss
		case bytes.HasPrefix(line, []byte("VmHWM:")):
			dst = &hwm
		default:
			continue
		}
		f := bytes.Fields(line)
		if len(f) >= 2 {
			if v, err := strconv.ParseInt(string(f[1]), 10, 64); err == nil {
				*dst = v * 1024
				ok = true
			}
		}
	}
	return rss, hwm, ok
}
