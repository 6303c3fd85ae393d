//go:build unix

package results

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockDir takes an exclusive lock on dir (flock on DIR/.lock), which the
// kernel releases when the process ends, however it ends.
func lockDir(dir string) (*os.File, error) {
	return lockPath(filepath.Join(dir, lockFile), false,
		fmt.Sprintf("results directory %s is in use by another bench run", dir))
}

// lockAt is lockDir on the results directory dir opened as root: the lock
// file is opened through root, never through a link put in dir's place.
func lockAt(root *os.Root, dir string) (*os.File, error) {
	f, err := root.OpenFile(lockFile, os.O_RDWR|os.O_CREATE|noFollow, 0o644)
	if err != nil {
		return nil, fmt.Errorf("results directory: %w", err)
	}
	return flockFile(f, filepath.Join(dir, lockFile), false,
		fmt.Sprintf("results directory %s is in use by another bench run", dir))
}

// lockPath takes a lock on the file path (created when missing): shared or
// exclusive, never waiting; busy is the error when another process holds
// it. On a file system without flock (some cluster file systems answer
// ENOLCK or EOPNOTSUPP) the file is opened unlocked.
func lockPath(path string, shared bool, busy string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|noFollow, 0o644)
	if err != nil {
		return nil, fmt.Errorf("results directory: %w", err)
	}
	return flockFile(f, path, shared, busy)
}

// flockFile takes the lock of lockPath on f, the opened file path, closing
// f when it cannot.
func flockFile(f *os.File, path string, shared bool, busy string) (*os.File, error) {
	how := syscall.LOCK_EX
	if shared {
		how = syscall.LOCK_SH
	}
	if err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB); err != nil {
		switch {
		case errors.Is(err, syscall.EWOULDBLOCK):
			f.Close()
			return nil, errors.New(busy)
		case errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.EOPNOTSUPP), errors.Is(err, syscall.ENOSYS):
			return f, nil
		}
		f.Close()
		return nil, fmt.Errorf("%s: lock: %w", path, err)
	}
	return f, nil
}

func unlockDir(f *os.File) {
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	f.Close()
}

// lockRecorded is lockDir for a reader of dir (bench rerun): the lock
// file is opened read-only when it exists (flock needs no write access),
// so that results on a read-only mount can still be read; when it does
// not exist and cannot be made there, no bench run can be writing into
// dir, and nil is returned with no error.
func lockRecorded(dir string) (*os.File, error) {
	path := filepath.Join(dir, lockFile)
	busy := fmt.Sprintf("results directory %s is in use by another bench run", dir)
	f, err := os.OpenFile(path, os.O_RDONLY|noFollow, 0)
	switch {
	case err == nil:
		return flockFile(f, path, false, busy)
	case errors.Is(err, os.ErrNotExist):
		f, err := lockPath(path, false, busy)
		if err != nil && (errors.Is(err, syscall.EROFS) || errors.Is(err, os.ErrPermission)) {
			return nil, nil
		}
		return f, err
	}
	return nil, fmt.Errorf("results directory: %w", err)
}
