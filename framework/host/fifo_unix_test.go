//go:build unix

package host

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestChecksumRefusesAFIFO: a plugin "binary" that is a named pipe is
// refused at once: opening it to take its digest waited for a writer
// (campaign 7 B12: bench plugin check ./bench-plugin-f hung, deaf to
// SIGTERM). This test hangs on the code before.
func TestChecksumRefusesAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), BinaryPrefix+"f")
	if err := syscall.Mkfifo(path, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := fileSHA256(path)
	if err == nil || !strings.Contains(err.Error(), "is not a regular file (a named pipe)") {
		t.Fatalf("error %v, want it to say the file is a named pipe", err)
	}
}
