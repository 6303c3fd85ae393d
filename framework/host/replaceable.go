package host

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// replaceable refuses, as ssh refuses a key file or directory that
// others may write, a plugin binary that another local user could change
// or replace: one writable by others (o+w), or one in a directory
// writable by others without the sticky bit (which, as on /tmp, keeps
// others from removing or renaming what they do not own). A binary
// reached through a link is checked where the link is and where it
// leads. Group write is accepted: a group is a set of users chosen.
func replaceable(path string) error {
	paths := []string{path}
	if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
		paths = append(paths, real)
	}
	for _, p := range paths {
		if err := writableByOthers(p); err != nil {
			return err
		}
	}
	return nil
}

// writableByOthers checks the file p (not a link's mode, which is
// always 0777) and its directory.
func writableByOthers(p string) error {
	fi, err := os.Lstat(p)
	if err != nil {
		return fmt.Errorf("plugin binary: %w", err)
	}
	if fi.Mode()&fs.ModeSymlink == 0 && fi.Mode().Perm()&0o002 != 0 {
		return fmt.Errorf("%s is writable by every user (mode %s): any local user could change the program bench runs; chmod o-w %s", p, mode(fi.Mode()), p)
	}
	dir := filepath.Dir(p)
	di, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("plugin directory: %w", err)
	}
	if di.Mode().Perm()&0o002 != 0 && di.Mode()&fs.ModeSticky == 0 {
		return fmt.Errorf("the plugin directory %s is writable by every user without the sticky bit (mode %s): any local user could replace %s; chmod o-w %s", dir, mode(di.Mode()), filepath.Base(p), dir)
	}
	return nil
}

// mode writes a file mode as chmod takes it: 0755, 1777.
func mode(m fs.FileMode) string {
	n := uint32(m.Perm())
	if m&fs.ModeSticky != 0 {
		n |= 0o1000
	}
	return fmt.Sprintf("%04o", n)
}
