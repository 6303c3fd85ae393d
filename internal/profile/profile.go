// Package profile writes the CPU and heap profiles of one process (bench
// run --profile, and plugin processes asked through their environment):
// NAME-PID.cpu.pprof from Start to the stop function, and
// NAME-PID.heap.pprof when it stops, both in pprof's gzipped format.
package profile

import (
	"errors"
	"fmt"
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

// Start creates dir when missing and starts the CPU profile of this
// process; the returned function stops it and writes the heap profile
// (after a garbage collection, so that in-use figures are current; the
// profile also holds every allocation since the start of the process).
func Start(dir, name string) (stop func() error, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("profile directory: %w", err)
	}
	cpuPath, heapPath := Paths(dir, name, os.Getpid())
	f, err := os.Create(cpuPath)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile %s: %w", cpuPath, err)
	}
	return func() error {
		pprof.StopCPUProfile()
		err := f.Close()
		return errors.Join(err, writeHeap(heapPath))
	}, nil
}

func writeHeap(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("heap profile: %w", err)
	}
	runtime.GC()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return fmt.Errorf("heap profile %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("heap profile %s: %w", path, err)
	}
	return nil
}
