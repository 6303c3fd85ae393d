//go:build linux

package main

import (
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"
)

// TestSampleTree samples a child `sleep` below this process: the tree
// holds both, and the child's peak RSS is seen.
func TestSampleTree(t *testing.T) {
	cmd := exec.Command("sleep", "0.5")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if tree := descendants(os.Getpid()); !slices.Contains(tree, cmd.Process.Pid) || tree[0] != os.Getpid() {
		t.Errorf("descendants = %v, want this process and %d", tree, cmd.Process.Pid)
	}
	stop := sampleTree(os.Getpid(), 10*time.Millisecond)
	time.Sleep(50 * time.Millisecond)
	m := stop()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if m.rootHWM <= 0 || m.childHWM <= 0 || m.peakSum < m.childHWM/2 || m.peakSum > m.rootHWM+m.childHWM {
		t.Errorf("memory %+v", m)
	}
	if rss := maxRSS(cmd.ProcessState); rss <= 0 {
		t.Errorf("maxRSS = %d", rss)
	}
	rss, hwm, ok := procMemory(os.Getpid())
	if !ok || rss <= 0 || hwm < rss {
		t.Errorf("procMemory = %d, %d, %v", rss, hwm, ok)
	}
}

// TestReadStat: this process's CPU time, after spinning for 50 ms, is at
// least a few ticks, and its parent is the one the runtime names.
func TestReadStat(t *testing.T) {
	for start := time.Now(); time.Since(start) < 50*time.Millisecond; {
	}
	st, ok := readStat(os.Getpid())
	if !ok || st.ticks < 1 || st.ppid != os.Getppid() {
		t.Fatalf("readStat = %+v, %v; want ticks and parent %d", st, ok, os.Getppid())
	}
	m := treeMemory{cpuTicks: st.ticks}
	if m.sampledCPU() != time.Duration(st.ticks)*10*time.Millisecond {
		t.Errorf("sampledCPU = %v for %d ticks", m.sampledCPU(), st.ticks)
	}
	if _, ok := readStat(1 << 30); ok {
		t.Error("readStat of a process that does not exist")
	}
}

// TestProcValue reads both forms of /proc lines, "name: value" and
// "name value", by exact name.
func TestProcValue(t *testing.T) {
	const vm = "nr_free_pages 5771046\nthp_fault_alloc 233194\nthp_fault_alloc_x 7\nthp_fault_fallback 12\nbroken\nodd 1 2\nbad x\n"
	for _, tc := range []struct {
		name string
		want int64
	}{
		{"thp_fault_alloc", 233194},
		{"thp_fault_fallback", 12},
		{"nr_free_pages", 5771046},
		{"thp_fault", 0},
		{"odd", 0},
		{"bad", 0},
		{"missing", 0},
	} {
		if got := vmstat(vm, tc.name); got != tc.want {
			t.Errorf("vmstat(%q) = %d, want %d", tc.name, got, tc.want)
		}
	}
	const status = "Name:\tbench\nVmHWM:\t  123456 kB\nVmRSS:\t   65432 kB\nmodel name\t: Intel(R) Xeon(R)\n"
	if v := procValue(status, "VmRSS"); v != "65432 kB" {
		t.Errorf("VmRSS = %q", v)
	}
	if n, ok := kilobytes(procValue(status, "VmHWM")); !ok || n != 123456*1024 {
		t.Errorf("VmHWM = %d, %v", n, ok)
	}
	if v := procValue(status, "model name"); v != "Intel(R) Xeon(R)" {
		t.Errorf("model name = %q", v)
	}
	if _, ok := kilobytes(procValue(status, "VmSwap")); ok {
		t.Error("a missing field read as a number")
	}
	if cpuModel() == "" || memTotal() <= 0 || len(loadAverages()) != 3 {
		t.Errorf("machine: %q, %d bytes, load %v", cpuModel(), memTotal(), loadAverages())
	}
}
