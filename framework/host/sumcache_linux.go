package host

import (
	"fmt"
	"os"
	"syscall"
)

// fileKey returns what identifies the contents of the file at path (an
// absolute path) for the digest cache: the path, device, inode, size and
// the modification and change times to the nanosecond. A write to the
// file sets its change time to the present, which no user can set back.
func fileKey(path string, fi os.FileInfo) (string, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || !fi.Mode().IsRegular() {
		return "", false
	}
	return fmt.Sprintf("%s\x00%d\x00%d\x00%d\x00%d.%09d\x00%d.%09d", path, st.Dev, st.Ino, st.Size,
		st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec), true
}
