//go:build unix

package host

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// The unix sockets of the Go plugins (go-plugin's server creates one in
// the directory its environment variable PLUGIN_UNIX_SOCKET_DIR names,
// else in the system's temporary directory) go into a directory of the
// host's own, never in one others may write, under socketsName in the
// temporary directory: removed when the host closes and, when a
// killed bench (kill -9) could not remove it, by the next host that
// starts a plugin. Each run's directory holds a lock file its host keeps
// locked (flock) while it lives; the kernel releases the lock when the
// process ends however it ends, so a directory whose lock can be taken
// belongs to no live bench.

// socketsParent is the directory in which the sockets' directories are
// made: the temporary directory (TMPDIR).
func socketsParent() string { return os.TempDir() }

// socketsName names the directory of socketsParent holding the runs'
// socket directories: one per user, private to the user.
func socketsName() string { return fmt.Sprintf("polyclass-sockets-%d", os.Getuid()) }

// socketsPrefix starts the name of every run's directory in the
// directory socketsName names.
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

// newSockets makes this run's socket directory in tmp, the temporary
// directory, with os.Lstat (newSocketsWith).
func newSockets(tmp string) (*sockets, error) {
	return newSocketsWith(tmp, os.Lstat)
}

// newSocketsWith makes this run's socket directory in tmp, reading
// owners and modes with lstat. It refuses a tmp that another user could
// replace, or rename what is made in it out of (trust.checkTempDir: the
// plugins' rule): another user's socket there would take bench's
// connections. In tmp's private directory of the user (socketsName) it
// removes the socket directories that killed runs left, then creates
// this run's, locked; when that name is another user's (or not a private
// directory), it makes a private directory of its own in tmp instead.
// Every directory made is checked once made (owner, mode, not a link).
func newSocketsWith(tmp string, lstat func(string) (fs.FileInfo, error)) (*sockets, error) {
	s, err := makeSockets(tmp, lstat)
	if err != nil {
		return nil, fmt.Errorf("the plugins' unix sockets: %w", err)
	}
	return s, nil
}

// makeSockets is newSocketsWith, its errors not yet prefixed.
func makeSockets(tmp string, lstat func(string) (fs.FileInfo, error)) (*sockets, error) {
	if err := runningUser().checkTempDir(tmp, socketsName(), lstat); err != nil {
		return nil, err
	}
	base := filepath.Join(tmp, socketsName())
	if err := os.Mkdir(base, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	if !privateWith(base, lstat) {
		return ownSockets(tmp, lstat)
	}
	sweepSockets(base)
	// Another host's sweep may take the lock between its creation and
	// its locking here, and remove the directory: make another then.
	for range 8 {
		s, again, err := lockedSockets(base, lstat)
		if !again {
			return s, err
		}
	}
	return nil, fmt.Errorf("%s: other bench runs removed each directory made in it", base)
}

// ownSockets makes a private directory of the run's own in tmp, when
// tmp's directory of the user's runs is not the user's: without a lock
// (no other run uses it), removed when the host closes.
func ownSockets(tmp string, lstat func(string) (fs.FileInfo, error)) (*sockets, error) {
	dir, err := os.MkdirTemp(tmp, socketsName()+"-")
	if err != nil {
		return nil, err
	}
	if err := checkMade(dir, lstat); err != nil {
		os.Remove(dir)
		return nil, err
	}
	return &sockets{dir: dir}, nil
}

// checkMade refuses dir, a directory just made, unless it is a private
// directory of the user (not a link) with room for a socket's path.
func checkMade(dir string, lstat func(string) (fs.FileInfo, error)) error {
	if !privateWith(dir, lstat) {
		return fmt.Errorf("%s, just made, is not a directory of yours that only you may enter (another user replaced it?); set TMPDIR to a directory that only you can write", dir)
	}
	if n := len(dir) + len("/plugin0123456789"); n >= maxSocketPath {
		return fmt.Errorf("%s is too deep for a unix socket's path (%d bytes, at most %d); set TMPDIR to a shorter directory that only you can write", dir, n, maxSocketPath-1)
	}
	return nil
}

// lockedSockets creates a run directory in base and locks it; again is
// true when another host's sweep took the directory first.
func lockedSockets(base string, lstat func(string) (fs.FileInfo, error)) (s *sockets, again bool, err error) {
	dir, err := os.MkdirTemp(base, socketsPrefix)
	if err != nil {
		return nil, false, err
	}
	if err := checkMade(dir, lstat); err != nil {
		os.RemoveAll(dir)
		return nil, false, err
	}
	path := filepath.Join(dir, socketsLock)
	lock, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		os.RemoveAll(dir)
		if errors.Is(err, os.ErrNotExist) {
			return nil, true, nil // swept already
		}
		return nil, false, err
	}
	err = syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	switch {
	case errors.Is(err, syscall.EWOULDBLOCK):
		// A sweep holds it and removes the directory.
		lock.Close()
		return nil, true, nil
	case err != nil && !errors.Is(err, syscall.ENOLCK) && !errors.Is(err, syscall.EOPNOTSUPP):
		lock.Close()
		os.RemoveAll(dir)
		return nil, false, fmt.Errorf("locking %s: %w", path, err)
	}
	// A sweep that locked and removed it before: the file is gone.
	held, herr := lock.Stat()
	named, nerr := os.Stat(path)
	if herr != nil || nerr != nil || !os.SameFile(held, named) {
		lock.Close()
		return nil, true, nil
	}
	return &sockets{dir: dir, lock: lock}, false, nil
}

// private reports whether dir is a directory (not a link to one) that
// belongs to the user and that no one else may enter.
func private(dir string) bool { return privateWith(dir, os.Lstat) }

// privateWith is private, reading dir's owner and mode with lstat.
func privateWith(dir string, lstat func(string) (fs.FileInfo, error)) bool {
	fi, err := lstat(dir)
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
	if s.lock != nil {
		s.lock.Close()
	}
}
