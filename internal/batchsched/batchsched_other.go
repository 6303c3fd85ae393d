//go:build !linux

package batchsched

// Apply does nothing on systems other than Linux, whose SCHED_BATCH
// policy it sets.
func Apply() error { return nil }
