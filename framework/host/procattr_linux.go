package host

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// dieWithParent asks Linux to SIGKILL the plugin when the thread that
// started it ends, so that plugins never outlive a bench that was killed
// (kill -9, a broken pipe). Go runs plugin starts on threads that live as
// long as the process, as it does not end threads except those locked to a
// goroutine that exits.
//
// The plugin also leads a process group of its own, which killGroup ends
// with whatever the plugin started (an interpreter's worker processes);
// and a Ctrl-C at the terminal reaches bench alone, which stops its
// plugins itself.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
}

// killGroup sends SIGKILL to the process group the plugin leads (see
// dieWithParent): the plugin and the processes it started, stopped ones
// (SIGSTOP) included.
func killGroup(cmd *exec.Cmd) {
	if cmd == nil || cmd.Process == nil {
		return
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		_ = cmd.Process.Kill()
	}
}

// cpuTime reads the user and system CPU time of process pid from
// /proc/PID/stat (fields 14 and 15, in clock ticks of 1/100 s, Linux's
// USER_HZ).
func cpuTime(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	return statCPU(b)
}

// statFields returns the fields of a /proc/PID/stat line after the
// command name (field 2, in parentheses, which may hold spaces): f[0] is
// field 3, f[k] field k+3.
func statFields(b []byte) ([]string, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return nil, errors.New("/proc stat: no command name")
	}
	return strings.Fields(string(b[i+1:])), nil
}

// statCPU returns utime + stime of a /proc/PID/stat line.
func statCPU(b []byte) (time.Duration, error) {
	// The command name (field 2) is in parentheses and may hold spaces.
	f, err := statFields(b)
	if err != nil {
		return 0, err
	}
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc stat: %d fields", len(f)+2)
	}
	var ticks int64
	for _, s := range f[11:13] { // fields 14 and 15
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc stat: %w", err)
		}
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond, nil
}
