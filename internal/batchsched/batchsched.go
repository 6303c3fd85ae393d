// Package batchsched runs a process, and the processes it starts, under
// Linux's SCHED_BATCH scheduling policy (sched(7)).
//
// A run is bench and one process per plugin, each a Go runtime whose
// threads wake for a call, a collection or the runtime's monitor while
// the other processes' fits keep the CPUs busy. Under the default policy
// (SCHED_OTHER) a thread that wakes up preempts the fit running on its
// CPU at once; a thread under SCHED_BATCH waits for the fit's time slice
// to end or for an idle CPU. Measured on the letter grid through the
// plugin processes (2 CPUs, 14 alternated pairs of runs, cmd/peerbench's
// tax-grid): context switches fell from 16032 to 7680 (medians) and CPU
// time by 1.2 % (median of the pairs' ratios 0.988; 11 of 14 pairs
// faster). The same engine with its learners linked into one process ran
// 0.9 % slower under SCHED_BATCH (10 pairs), so the policy pays where
// processes share the CPUs, not in general.
//
// SCHED_BATCH keeps the thread's nice value and weight: the run gets the
// same share of the CPUs as before, and an interactive program's thread
// that wakes up still preempts it. No privilege is needed.
//
// Setting POLYCLASS_SCHED_BATCH=off leaves the policy as it is.
package batchsched

import (
	"strings"
)

// Env is the environment variable that leaves the scheduling policy alone
// when set to "off" (or "0", "false").
const Env = "POLYCLASS_SCHED_BATCH"

// Disabled reports whether getenv's environment turns the policy off:
// Env set to "off", "0" or "false".
func Disabled(getenv func(string) string) bool {
	switch strings.ToLower(strings.TrimSpace(getenv(Env))) {
	case "off", "0", "false":
		return true
	}
	return false
}
