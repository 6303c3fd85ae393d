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
