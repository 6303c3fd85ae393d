//go:build unix

package main

import "golang.org/x/sys/unix"

// brokenPipe reports whether nobody reads fd any more: a pipe whose
// reader has gone, or a socket whose peer has closed.
func brokenPipe(fd int) bool {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLOUT}}
	n, err := unix.Poll(fds, 0)
	return err == nil && n > 0 && fds[0].Revents&(unix.POLLERR|unix.POLLHUP) != 0
}
