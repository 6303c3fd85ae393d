//go:build unix

package results

import (
	"os"
	"syscall"
)

// noFollow makes an open fail on a symbolic link (ELOOP).
const noFollow = syscall.O_NOFOLLOW

// links returns the number of names fi's file has (its hard links); 1
// where the system does not say.
func links(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// owner returns the user id that owns the file fi describes (ok false
// when the system does not say).
func owner(fi os.FileInfo) (uid int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
