//go:build unix

package host

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// The unix sockets of the Go plugins (go-plugin's server creates one in
// the directory its environment variable PLUGIN_UNIX_SOCKET_DIR names,
// else in the system's temporary directory) go into a directory of the
// host's own, under socketsBase: removed when the host closes and, when a
// killed bench (kill -9) could not remove it, by the next host that
// starts a plugin. Each run's directory holds a lock file its host keeps
// locked (flock) while it lives; the kernel releases the lock when the
// process ends however it ends, so a directory whose lock can be taken
// belongs to no live bench.

// socketsBase is the directory holding the runs' socket directories: one
// per user, private to the user.
func socketsBase() string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("polyclass-sockets-%d", os.Getuid()))
}

// socketsPrefix starts the name of every run's directory in socketsBase.
const socketsPrefix = "run-"

// maxSocketPath bounds the length of a unix socket's path (sun_path
// holds 108 bytes on Linux, 104 on the BSDs and macOS, with its NUL).
const maxSocketPath = 104

// socketsLock is the lock file in a run's directory.
const socketsLock = ".lock"

// staleUnlocked is the age after which a run's directory without a lock
// file (its host died between creating it and locking it) is removed.
const staleUnlocked = time.Minute

// sockets is a run's socket directory.
type sockets struct {
	dir  string
	lock *os.File
}

// newSockets removes the socket directories that killed runs left in
// base, then creates this run's, locked. It returns nil when base is not
// a private directory of the user (another user's, a link): the plugins
// then make their sockets where go-plugin makes them by default.
func newSockets(base string) *sockets {
	if err := os.MkdirAll(base, 0o700); err != nil {
		return nil
	}
	if !private(base) {
		return nil
	}
	sweepSockets(base)
	// Another host's sweep may take the lock between its creation and
	// its locking here, and remove the directory: make another then.
	for range 8 {
		s, again := lockedSockets(base)
		if !again {
			return s
		}
	}
	return nil
}

// lockedSockets creates a run directory in base and locks it; again is
// true when another host's sweep took the directory first.
func lockedSockets(base string) (s *sockets, again bool) {
	dir, err := os.MkdirTemp(base, socketsPrefix)
	if err != nil {
		return nil, false
	}
	if len(dir)+len("/plugin0123456789") >= maxSocketPath {
		// Too deep for a socket's path: the plugins make theirs in
		// the temporary directory itself, as they do by default.
		os.RemoveAll(dir)
		return nil, false
	}
	path := filepath.Join(dir, socketsLock)
	lock, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		os.RemoveAll(dir)
		return nil, errors.Is(err, os.ErrNotExist) // swept already
	}
	err = syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	switch {
	case errors.Is(err, syscall.EWOULDBLOCK):
		// A sweep holds it and removes the directory.
		lock.Close()
		return nil, true
	case err != nil && !errors.Is(err, syscall.ENOLCK) && !errors.Is(err, syscall.EOPNOTSUPP):
		lock.Close()
		os.RemoveAll(dir)
		return nil, false
	}
	// A sweep that locked and removed it before: the file is gone.
	held, herr := lock.Stat()
	named, nerr := os.Stat(path)
	if herr != nil || nerr != nil || !os.SameFile(held, named) {
		lock.Close()
		return nil, true
	}
	return &sockets{dir: dir, lock: lock}, false
}

// private reports whether dir is a directory (not a link to one) that
// belongs to the user and that no one else may enter.
func private(dir string) bool {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() || fi.Mode().Perm()&0o077 != 0 {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}

// sweepSockets removes the run directories of base whose host is gone:
// those whose lock file this process can lock (removed while it holds
// the lock, so that a host locking the file afterwards finds it gone),
// and those without one older than staleUnlocked.
func sweepSockets(base string) {
	entries, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), socketsPrefix) {
			continue
		}
		sweep(filepath.Join(base, e.Name()))
	}
}

// sweep removes run directory dir when the host that made it has ended.
func sweep(dir string) {
	f, err := os.OpenFile(filepath.Join(dir, socketsLock), os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		if fi, err := os.Lstat(dir); err == nil && time.Since(fi.ModTime()) > staleUnlocked {
			os.RemoveAll(dir)
		}
		return
	}
	if err != nil {
		return
	}
	defer f.Close() // releases the lock taken here
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
		os.RemoveAll(dir)
	}
}

// remove deletes the run's directory and releases its lock.
func (s *sockets) remove() {
	if s == nil {
		return
	}
	os.RemoveAll(s.dir)
	s.lock.Close()
}
