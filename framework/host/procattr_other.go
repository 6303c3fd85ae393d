//go:build !linux

package host

import (
	"errors"
	"os/exec"
	"time"
)

// dieWithParent has no portable equivalent outside Linux: there, plugins of
// a bench killed with SIGKILL end when they next fail to reach it.
func dieWithParent(*exec.Cmd) {}

// killGroup kills the plugin process (process groups are a Linux matter
// here).
func killGroup(cmd *exec.Cmd) {
	if cmd != nil && cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// cpuTime is not measured outside Linux.
func cpuTime(int) (time.Duration, error) {
	return 0, errors.New("the CPU time of a process is read from /proc, on Linux only")
}
