//go:build linux

package batchsched

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// The tests of this file change the scheduling policy of this test
// process's threads; they run in file order, the one with the policy
// turned off first.

// policies returns the scheduling policy of each thread of this process.
func policies(t *testing.T) map[int]uint32 {
	t.Helper()
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]uint32{}
	for _, e := range tasks {
		tid, _ := strconv.Atoi(e.Name())
		attr, err := unix.SchedGetAttr(tid, 0)
		if err != nil {
			continue // ended meanwhile
		}
		out[tid] = attr.Policy
	}
	return out
}

// onThread runs f on a goroutine locked to a thread of its own, which
// ends with it, and returns when f has.
func onThread(t *testing.T, f func(tid int)) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		f(unix.Gettid())
	}()
	<-done
}

// setPolicy sets thread tid's policy (and nice value) or fails the test.
func setPolicy(t *testing.T, tid int, policy uint32, nice int32) {
	t.Helper()
	attr, err := unix.SchedGetAttr(tid, 0)
	if err != nil {
		t.Error(err)
		return
	}
	attr.Policy, attr.Nice = policy, nice
	if err := unix.SchedSetAttr(tid, attr, 0); err != nil {
		t.Errorf("sched_setattr(%d, policy %d, nice %d): %v", tid, policy, nice, err)
	}
}

// TestApplyOff: with POLYCLASS_SCHED_BATCH=off, Apply leaves every
// thread's policy as it was, SCHED_OTHER included.
func TestApplyOff(t *testing.T) {
	t.Setenv(Env, "off")
	onThread(t, func(tid int) {
		setPolicy(t, tid, unix.SCHED_NORMAL, 0)
		before := policies(t)
		if err := Apply(); err != nil {
			t.Fatal(err)
		}
		after := policies(t)
		if after[tid] != unix.SCHED_NORMAL {
			t.Errorf("thread %d: policy %d, want SCHED_OTHER (0)", tid, after[tid])
		}
		for id, p := range before {
			if q, ok := after[id]; ok && q != p {
				t.Errorf("thread %d: policy %d became %d", id, p, q)
			}
		}
	})
}

// TestApply: Apply moves a SCHED_OTHER thread to SCHED_BATCH with its nice
// value, leaves a SCHED_IDLE thread alone, leaves no thread of the process
// under SCHED_OTHER, and a process started afterwards runs under
// SCHED_BATCH.
func TestApply(t *testing.T) {
	ready, release := make(chan int), make(chan struct{})
	idleDone := make(chan struct{})
	go func() {
		defer close(idleDone)
		runtime.LockOSThread()
		tid := unix.Gettid()
		setPolicy(t, tid, unix.SCHED_IDLE, 0)
		ready <- tid
		<-release
	}()
	idle := <-ready
	onThread(t, func(tid int) {
		setPolicy(t, tid, unix.SCHED_NORMAL, 5)
		if err := Apply(); err != nil {
			t.Fatal(err)
		}
		attr, err := unix.SchedGetAttr(tid, 0)
		if err != nil {
			t.Fatal(err)
		}
		if attr.Policy != unix.SCHED_BATCH || attr.Nice != 5 {
			t.Errorf("thread %d: policy %d nice %d, want SCHED_BATCH (3) nice 5", tid, attr.Policy, attr.Nice)
		}
		for id, p := range policies(t) {
			if p == unix.SCHED_NORMAL {
				t.Errorf("thread %d still under SCHED_OTHER", id)
			}
		}
		if p := policies(t)[idle]; p != unix.SCHED_IDLE {
			t.Errorf("the SCHED_IDLE thread %d: policy %d, want SCHED_IDLE (5)", idle, p)
		}
	})
	close(release)
	<-idleDone
	out, err := exec.Command("cat", "/proc/self/stat").Output()
	if err != nil {
		t.Fatal(err)
	}
	// Fields after the command's closing parenthesis start at the 3rd
	// (state); the policy is the 41st (proc(5)).
	s := string(out)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 39 || fields[38] != strconv.Itoa(unix.SCHED_BATCH) {
		t.Errorf("a process started after Apply: /proc/self/stat %q, want policy %d", s, unix.SCHED_BATCH)
	}
}
