//go:build linux

package batchsched

import (
	"errors"
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// Apply moves every thread of the calling process that runs under the
// default policy (SCHED_OTHER) to SCHED_BATCH, keeping its nice value;
// threads under another policy (SCHED_IDLE, a real-time one), which the
// user chose, keep it. The runtime's later threads, and the processes
// started afterwards, inherit the policy of the thread that creates them.
// Apply does nothing when the environment turns it off (Disabled). It
// returns the first error of a thread that could not be moved (a seccomp
// filter may refuse sched_setattr); the caller may go on without the
// policy.
func Apply() error {
	if Disabled(os.Getenv) {
		return nil
	}
	// A thread created during the first pass by a thread not yet moved
	// inherits the default policy: the second pass moves it.
	for range 2 {
		if err := applyThreads(); err != nil {
			return err
		}
	}
	return nil
}

// applyThreads moves the threads listed in /proc/self/task.
func applyThreads() error {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return fmt.Errorf("listing this process's threads: %w", err)
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		if err := applyThread(tid); err != nil {
			return err
		}
	}
	return nil
}

// applyThread moves thread tid to SCHED_BATCH if it runs under
// SCHED_OTHER. A thread that has ended meanwhile (ESRCH) is no error.
func applyThread(tid int) error {
	attr, err := unix.SchedGetAttr(tid, 0)
	if errors.Is(err, unix.ESRCH) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading the scheduling policy of thread %d: %w", tid, err)
	}
	if attr.Policy != unix.SCHED_NORMAL {
		return nil
	}
	attr.Policy = unix.SCHED_BATCH
	if err := unix.SchedSetAttr(tid, attr, 0); err != nil && !errors.Is(err, unix.ESRCH) {
		return fmt.Errorf("setting SCHED_BATCH on thread %d: %w", tid, err)
	}
	return nil
}
