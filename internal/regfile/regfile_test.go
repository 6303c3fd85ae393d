package regfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOpenRefusesWhatIsNotARegularFile: a FIFO (with no writer, which
// would block a plain open forever), a directory and a character device
// are refused at once, naming what they are; a regular file and a symbolic
// link to one open.
func TestOpenRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "d.csv")
	if err := os.WriteFile(reg, []byte("a,class\n1,x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.csv")
	if err := os.Symlink(reg, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	fifoLink := filepath.Join(dir, "fifolink.csv")
	if err := os.Symlink(fifo, fifoLink); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, want string
	}{
		{reg, ""},
		{link, ""},
		{fifo, "a named pipe (FIFO)"},
		{fifoLink, "a named pipe (FIFO)"},
		{dir, "is a directory"},
		{"/dev/null", "a character device"},
	} {
		done := make(chan struct{})
		var b []byte
		var err error
		go func() {
			b, err = ReadFile(tc.path)
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("ReadFile(%s) blocks", tc.path)
		}
		if tc.want == "" {
			if err != nil || string(b) != "a,class\n1,x\n" {
				t.Errorf("ReadFile(%s) = %q, %v", tc.path, b, err)
			}
			continue
		}
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.path) {
			t.Errorf("ReadFile(%s): %v; want ErrNotRegular naming the path and %q", tc.path, err, tc.want)
		}
	}
}
