//go:build unix

package results

import "syscall"

// noFollow makes an open fail on a symbolic link (ELOOP).
const noFollow = syscall.O_NOFOLLOW
