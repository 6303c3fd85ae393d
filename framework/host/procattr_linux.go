package host

import (
	"os/exec"
	"syscall"
)

// dieWithParent asks Linux to SIGKILL the plugin when the thread that
// started it ends, so that plugins never outlive a bench that was killed
// (kill -9, a broken pipe). Go runs plugin starts on threads that live as
// long as the process, as it does not end threads except those locked to a
// goroutine that exits.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
