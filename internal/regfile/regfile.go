// Package regfile opens the files an experiment names (data files, test
// files, folds files, experiment files) only when they are regular files,
// after following symbolic links. A named pipe (FIFO), a device or a
// directory given as a data file is refused at once, naming what it is,
// instead of blocking the reader forever (a FIFO with no writer) or
// reading without end (/dev/zero). Same tells whether two paths name one
// file; IsGzip whether a file holds gzip data.
package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"golang.org/x/text/unicode/norm"
)

// ErrNotRegular is the cause of every error for a path that is not a
// regular file once symbolic links are followed.
var ErrNotRegular = errors.New("not a regular file")

// Open opens path for reading when it is a regular file, after following
// symbolic links. Otherwise the error, an *fs.PathError wrapping
// ErrNotRegular, names the kind of file (a directory, a named pipe, ...).
//
// The file is opened without blocking (O_NONBLOCK): a FIFO put in place
// between the check and the open is caught by the second check on the
// open descriptor instead of waiting for a writer.
func Open(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			// As os.Open says it: "open PATH: no such file or directory".
			reason := pe.Err
			if errors.Is(reason, fs.ErrNotExist) {
				if name := otherNormalisation(path); name != "" {
					reason = fmt.Errorf("%w; did you mean %s (the same name in another Unicode normalisation)", reason, strconv.QuoteToASCII(name))
				}
			}
			return nil, &fs.PathError{Op: "open", Path: path, Err: reason}
		}
		return nil, err
	}
	if err := Check(path, fi.Mode()); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err = f.Stat()
	if err == nil {
		err = Check(path, fi.Mode())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// otherNormalisation returns the name of the entry of path's directory
// that is path's last element in another Unicode normalisation (equal to
// it once both are in NFC, but not byte for byte), or "" when there is
// none or the directory cannot be read: a file name written in NFD (as
// macOS and some archives store "café") looks the same as the NFC name
// an editor writes, yet opening one does not find the other. Of several
// such entries, the first in the directory's sorted order.
func otherNormalisation(path string) string {
	dir, base := filepath.Split(path)
	if base == "" {
		return ""
	}
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	want := norm.NFC.String(base)
	for _, e := range entries {
		if name := e.Name(); name != base && norm.NFC.String(name) == want {
			return name
		}
	}
	return ""
}

// ReadFile is os.ReadFile for a regular file only (see Open).
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// Check returns nil when mode is a regular file's, else an *fs.PathError
// for path whose error (a *KindError) names the kind of file and is
// ErrNotRegular (and, for a directory, syscall.EISDIR).
func Check(path string, mode fs.FileMode) error {
	if mode.IsRegular() {
		return nil
	}
	return &fs.PathError{Op: "open", Path: path, Err: &KindError{Mode: mode}}
}

// KindError is the error for a file that is not a regular file.
type KindError struct {
	Mode fs.FileMode
}

// Error says what the file is: "is a directory", "is a named pipe
// (FIFO), not a regular file".
func (e *KindError) Error() string {
	if e.Mode.IsDir() {
		return "is a directory"
	}
	return "is " + Kind(e.Mode) + ", not a regular file"
}

// Is makes a KindError ErrNotRegular, and a directory's syscall.EISDIR.
func (e *KindError) Is(target error) bool {
	return target == ErrNotRegular || (e.Mode.IsDir() && target == syscall.EISDIR)
}

// Kind names the kind of file of mode, as an error message says it: "a
// directory", "a named pipe (FIFO)", ...
func Kind(mode fs.FileMode) string {
	switch {
	case mode.IsRegular():
		return "a regular file"
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a block device"
	case mode&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file (" + mode.Type().String() + ")"
}

// Same reports whether paths a and b name one file (os.SameFile: the same
// path, a symbolic or hard link to it, or another path to it). The error
// is that of the first path that cannot be read, with false.
func Same(a, b string) (bool, error) {
	fa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(fa, fb), nil
}

// IsGzip reports whether the file f starts with the gzip magic bytes
// (1f 8b), leaving it at its start: the readers of data and folds files
// gunzip a file whose name ends in .gz, and refuse one that holds gzip
// data under another name, which they would read as text.
func IsGzip(f *os.File) bool {
	var magic [2]byte
	n, _ := f.ReadAt(magic[:], 0)
	return n == 2 && magic == [2]byte{0x1f, 0x8b}
}
