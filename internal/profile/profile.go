// Package profile writes the CPU and heap profiles of one process (bench
// run --profile, and plugin processes asked through their environment):
// NAME-PID.cpu.pprof from Start to the stop function, and
// NAME-PID.heap.pprof when it stops, both in pprof's gzipped format.
package profile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"unicode"
)

// Paths returns the CPU and heap profile files of process pid named name
// in dir; characters of name other than letters, digits, '-', '_' and '.'
// become '_'.
func Paths(dir, name string, pid int) (cpu, heap string) {
	name = strings.Map(func(r rune) rune {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-_.", r)) {
			return r
		}
		return '_'
	}, name)
	base := filepath.Join(dir, fmt.Sprintf("%s-%d", name, pid))
	return base + ".cpu.pprof", base + ".heap.pprof"
}

// Dir is a profile directory (bench run --profile DIR), opened once as an
// os.Root: every file of it is made through the Root, so never through a
// symbolic link out of it, and exclusively (O_EXCL), so never over a file
// that is there already, be it a link, a user's file or another process's
// profile. Replace alone writes over a file, and only one that the
// caller recognises as its own.
type Dir struct {
	root *os.Root
	path string
}

// OpenDir makes the profile directory path when missing and opens it.
func OpenDir(path string) (*Dir, error) {
	if err := os.MkdirAll(path, 0o755); err != nil {
		return nil, fmt.Errorf("profile directory: %w", err)
	}
	root, err := os.OpenRoot(path)
	if err != nil {
		return nil, fmt.Errorf("profile directory: %w", err)
	}
	return &Dir{root: root, path: path}, nil
}

// Path returns the directory's path as opened.
func (d *Dir) Path() string { return d.path }

// Close closes the directory's Root; the files made stay open.
func (d *Dir) Close() error { return d.root.Close() }

// file is the path of name in the directory, for messages.
func (d *Dir) file(name string) string { return filepath.Join(d.path, name) }

// neverOver is why an existing file is refused.
const neverOver = "bench writes profiles only into files it makes and never over one (move it away or choose another --profile directory)"

// Create makes the new file name in the directory; an entry of that name
// already there, whatever it is, is an error that names it.
func (d *Dir) Create(name string) (*os.File, error) {
	f, err := d.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("%s exists already: %s", d.file(name), neverOver)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.file(name), err)
	}
	return f, nil
}

// maxOwn bounds what CheckOwn reads of a file to recognise it.
const maxOwn = 16 << 20

// CheckOwn says whether Replace may write name: when it is absent, or a
// regular file (not a link) whose content mine recognises as one the
// caller wrote; anything else is an error that names it.
func (d *Dir) CheckOwn(name string, mine func([]byte) bool) error {
	fi, err := d.root.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", d.file(name), err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is a %s, which bench neither writes through nor replaces (remove it or choose another --profile directory)", d.file(name), kind(fi.Mode()))
	}
	f, err := d.root.Open(name)
	if err != nil {
		return fmt.Errorf("%s: %w", d.file(name), err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxOwn+1))
	if err != nil {
		return fmt.Errorf("%s: %w", d.file(name), err)
	}
	if len(b) > maxOwn || !mine(b) {
		return fmt.Errorf("%s exists and is not a file bench wrote: bench never writes over it (move it away or choose another --profile directory)", d.file(name))
	}
	return nil
}

// kind names what a mode is, for messages.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m.IsDir():
		return "directory"
	}
	return "special file (" + m.Type().String() + ")"
}

// Replace writes b as name, through a new temporary file renamed over it,
// when CheckOwn allows it.
func (d *Dir) Replace(name string, b []byte, mine func([]byte) bool) error {
	if err := d.CheckOwn(name, mine); err != nil {
		return err
	}
	tmp := fmt.Sprintf(".tmp-%s-%d", name, os.Getpid())
	f, err := d.Create(tmp)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err = errors.Join(err, f.Close()); err == nil {
		err = d.root.Rename(tmp, name)
	}
	if err != nil {
		d.root.Remove(tmp)
		return fmt.Errorf("writing %s: %w", d.file(name), err)
	}
	return nil
}

// Start creates dir when missing and starts the CPU profile of this
// process (StartIn); the returned function also closes dir.
func Start(dir, name string) (stop func() error, err error) {
	d, err := OpenDir(dir)
	if err != nil {
		return nil, err
	}
	stopIn, err := StartIn(d, name)
	if err != nil {
		d.Close()
		return nil, err
	}
	return func() error { return errors.Join(stopIn(), d.Close()) }, nil
}

// StartIn makes this process's CPU profile file in d (Paths) and checks
// that its heap profile's name is free, so that a name taken is an error
// before any work, and starts the CPU profile; the returned function
// stops it and writes the heap profile, a new file too (after a garbage
// collection, so that in-use figures are current; the profile also holds
// every allocation since the start of the process).
func StartIn(d *Dir, name string) (stop func() error, err error) {
	cpuPath, heapPath := Paths("", name, os.Getpid())
	if err := d.free(heapPath); err != nil {
		return nil, fmt.Errorf("heap profile: %w", err)
	}
	f, err := d.Create(cpuPath)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile %s: %w", d.file(cpuPath), err)
	}
	return func() error {
		pprof.StopCPUProfile()
		err := f.Close()
		return errors.Join(err, d.writeHeap(heapPath))
	}, nil
}

// free says whether Create can make name: an entry there is an error that
// names it, as Create's.
func (d *Dir) free(name string) error {
	_, err := d.root.Lstat(name)
	switch {
	case err == nil:
		return fmt.Errorf("%s exists already: %s", d.file(name), neverOver)
	case errors.Is(err, fs.ErrNotExist):
		return nil
	}
	return fmt.Errorf("%s: %w", d.file(name), err)
}

// writeHeap writes the heap profile as the new file name.
func (d *Dir) writeHeap(name string) error {
	f, err := d.Create(name)
	if err != nil {
		return fmt.Errorf("heap profile: %w", err)
	}
	runtime.GC()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return fmt.Errorf("heap profile %s: %w", d.file(name), err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("heap profile %s: %w", d.file(name), err)
	}
	return nil
}
