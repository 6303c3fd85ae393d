//go:build unix

package server

import (
	"os"

	"golang.org/x/sys/unix"
)

// directStderr points the pipe go-plugin put in os.Stderr at the
// process's own standard error (file descriptor 2), which the host reads
// itself: what the plugin then writes to os.Stderr reaches the host at
// once, including the last lines before the process exits or crashes,
// which go-plugin's forwarding of the pipe over gRPC loses. It must run
// after go-plugin has set os.Stderr (in a call's handler, see Serve).
func directStderr() {
	f := os.Stderr
	if f == nil || f.Fd() == 2 {
		return
	}
	// On failure the output still goes through go-plugin.
	_ = unix.Dup2(2, int(f.Fd()))
}
