//go:build !unix

package results

import (
	"fmt"
	"os"
	"path/filepath"
)

// lockDir opens DIR/.lock; without flock a second run is not detected.
func lockDir(dir string) (*os.File, error) {
	return lockPath(filepath.Join(dir, lockFile), false, "")
}

// lockAt opens DIR/.lock through root, dir's Root; nothing is locked.
func lockAt(root *os.Root, _ string) (*os.File, error) {
	f, err := root.OpenFile(lockFile, os.O_RDWR|os.O_CREATE|noFollow, 0o644)
	if err != nil {
		return nil, fmt.Errorf("results directory: %w", err)
	}
	return f, nil
}

// lockPath opens path; without flock nothing is locked.
func lockPath(path string, _ bool, _ string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|noFollow, 0o644)
	if err != nil {
		return nil, fmt.Errorf("results directory: %w", err)
	}
	return f, nil
}

func unlockDir(f *os.File) { f.Close() }

// lockRecorded opens nothing: without flock a run in progress is not
// detected.
func lockRecorded(string) (*os.File, error) { return nil, nil }
