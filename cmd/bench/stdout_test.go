package main

import (
	"context"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
)

// fullWriter fails every write as a full disk does.
type fullWriter struct{ calls int }

func (f *fullWriter) Write(p []byte) (int, error) {
	f.calls++
	return 0, syscall.ENOSPC
}

// TestStandardOutputErrorFails: a command whose standard output cannot be
// written fails with that error, as coreutils' tools do (campaign 11's C20:
// bench with stdout on /dev/full exited 0, its output lost); with stdout
// written, the same command succeeds.
func TestStandardOutputErrorFails(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"help"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			full := &fullWriter{}
			var stderr strings.Builder
			err := runChecked(context.Background(), args, full, &stderr)
			if full.calls == 0 {
				t.Fatalf("bench %s wrote nothing to stdout", args[0])
			}
			if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "writing standard output") {
				t.Errorf("error %v, want writing standard output: ENOSPC", err)
			}
			var out strings.Builder
			if err := runChecked(context.Background(), args, &out, &stderr); err != nil || out.Len() == 0 {
				t.Errorf("written stdout: error %v, %d bytes", err, out.Len())
			}
		})
	}
}

// TestStandardOutputBrokenPipe: a reader of standard output that went
// away (bench list | head -1) is no failure of the command: before
// runChecked, bench exited 0 with no message there, and the SIGPIPE
// watch in main already stops a run whose stdout is broken; a message
// "writing standard output: broken pipe" after every such pipeline is
// noise (coreutils' tools die of SIGPIPE there, silently).
func TestStandardOutputBrokenPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	defer w.Close()
	var stderr strings.Builder
	if err := runChecked(context.Background(), []string{"help"}, w, &stderr); err != nil {
		t.Errorf("bench help into a pipe nobody reads: %v, want no error", err)
	}
}
