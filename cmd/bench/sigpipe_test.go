//go:build unix

package main

import (
	"os"
	"testing"
)

// TestBrokenPipe: a pipe is broken once its reader is closed, never
// before; a regular file never is.
func TestBrokenPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if brokenPipe(int(w.Fd())) {
		t.Error("a pipe with a reader is broken")
	}
	r.Close()
	if !brokenPipe(int(w.Fd())) {
		t.Error("a pipe without a reader is not broken")
	}
	f, err := os.Create(t.TempDir() + "/out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if brokenPipe(int(f.Fd())) {
		t.Error("a file is broken")
	}
}
