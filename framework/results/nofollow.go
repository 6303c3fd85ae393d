package results

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/polyclass/polyclass/internal/regfile"
)

// A results directory is written through its own entries only: bench
// never follows a symbolic link inside it (a link there would make a run
// write, append its log or move files outside the directory), and reads
// and appends only regular files (a named pipe there would block it). The
// directory itself may be a link, as it often is on a cluster. Every
// opening of a file in the directory goes through openIn; checkLayout
// refuses the links and odd files among the entries bench uses before a
// command writes anything.

// layoutDirs are the directories of the layout, whose entries bench reads
// and writes.
var layoutDirs = []string{CellsDir, SupersededDir, ShardsDir, "plots", "predictions"}

// layoutFiles are the files of the layout at the top of the directory.
var layoutFiles = []string{ManifestFile, LogFile, lockFile}

// checkLayout returns an error naming every entry of the layout in dir
// (and every entry of its layout directories) that is a symbolic link, or
// a file bench would read or append to that is not a regular file; nil
// when there is none or dir does not exist yet.
func checkLayout(dir string) error {
	var bad []string
	add := func(path string, fi fs.FileInfo, what string) {
		rel, _ := filepath.Rel(dir, path)
		if fi.Mode()&fs.ModeSymlink != 0 {
			to, _ := os.Readlink(path)
			bad = append(bad, fmt.Sprintf("%s is a symbolic link (to %s)", rel, to))
			return
		}
		bad = append(bad, fmt.Sprintf("%s is %s%s", rel, regfile.Kind(fi.Mode()), what))
	}
	for _, name := range layoutFiles {
		path := filepath.Join(dir, name)
		if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
			add(path, fi, ", not a regular file")
		}
	}
	for _, name := range layoutDirs {
		path := filepath.Join(dir, name)
		fi, err := os.Lstat(path)
		if err != nil {
			continue
		}
		if !fi.IsDir() {
			add(path, fi, ", not a directory")
			continue
		}
		entries, err := os.ReadDir(path)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if e.Type()&fs.ModeSymlink != 0 || (!e.IsDir() && !e.Type().IsRegular()) {
				if fi, err := e.Info(); err == nil {
					add(filepath.Join(path, e.Name()), fi, "")
				}
			}
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	return fmt.Errorf("results directory %s: %s; bench writes only inside a results directory, through files and directories of its own (it follows no symbolic link there, and reads or appends to regular files only): move %s away, or choose another directory with -o",
		dir, strings.Join(bad, "; "), plural(len(bad), "it", "them"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// errLink is the cause of an error opening a symbolic link in a results
// directory.
var errLink = errors.New("a symbolic link, which bench does not follow inside a results directory")

// openIn opens path, a file of a results directory, with flag (os.O_*),
// without following a symbolic link in its last component and without
// blocking on a named pipe; it must be a regular file.
func openIn(path string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|noFollow|syscall.O_NONBLOCK, perm)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, &fs.PathError{Op: "open", Path: path, Err: errLink}
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = regfile.Check(path, fi.Mode())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// MaxFileBytes bounds a file of a results directory that bench reads
// (manifest.json, a shard's manifest, a cell file): 256 MiB, far beyond
// what a run writes (a cell file of a million-row dataset with its
// predictions holds tens of megabytes), so that a file grown or replaced
// by hand is refused at once instead of read whole.
const MaxFileBytes = 256 << 20

// readIn reads the regular file path of a results directory (see openIn),
// of at most MaxFileBytes.
func readIn(path string) ([]byte, error) {
	f, err := openIn(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > MaxFileBytes {
		return nil, tooLarge(path, fi.Size())
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err == nil && len(b) > MaxFileBytes {
		return nil, tooLarge(path, int64(len(b)))
	}
	return b, err
}

// tooLarge is the error of a results file of size bytes, over MaxFileBytes.
func tooLarge(path string, size int64) error {
	return fmt.Errorf("%s: %d bytes, more than the %d (256 MiB) bench reads of a results file: not a file bench wrote (grown or replaced by hand?); move it away", path, size, MaxFileBytes)
}
