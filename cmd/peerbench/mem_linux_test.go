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
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep binary")
	}
	cmd := exec.Command(sleep, "0.5")
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

// TestProcCPU: this process's CPU time, after spinning for 50 ms, is at
// least a few ticks and at most what the runtime says it used.
func TestProcCPU(t *testing.T) {
	for start := time.Now(); time.Since(start) < 50*time.Millisecond; {
	}
	ticks, ok := procCPU(os.Getpid())
	if !ok || ticks < 1 {
		t.Fatalf("procCPU = %d, %v", ticks, ok)
	}
	m := treeMemory{cpuTicks: ticks}
	if m.sampledCPU() != time.Duration(ticks)*10*time.Millisecond {
		t.Errorf("sampledCPU = %v for %d ticks", m.sampledCPU(), ticks)
	}
	if _, ok := procCPU(1 << 30); ok {
		t.Error("procCPU of a process that does not exist")
	}
}
