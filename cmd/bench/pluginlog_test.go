package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestPluginLogBounded: the plugins' stderr a run log receives stops at
// maxPluginLog bytes, with one line saying so, and a new run log starts
// the count again (campaign 5 p_floodfit: a plugin writing 32 MiB to
// stderr per fit made a 289 MB run.log, no word).
func TestPluginLogBounded(t *testing.T) {
	var log bytes.Buffer
	l := &pluginLog{}
	l.set(&log)
	line := []byte(strings.Repeat("E", 1<<20-1) + "\n")
	for range 40 {
		if n, err := l.Write(line); n != len(line) || err != nil {
			t.Fatalf("Write: %d, %v", n, err)
		}
	}
	const note = "bench: the plugins wrote more than 16 MiB to stderr: the rest is not logged\n"
	if got, want := log.Len(), 16*len(line)+len(note); got != want || !strings.HasSuffix(log.String(), note) {
		t.Errorf("run log of %d bytes ending %q, want %d ending %q", got, log.String()[max(0, log.Len()-80):], want, note)
	}
	var next bytes.Buffer
	l.set(&next)
	l.Write([]byte("plugin lda: hello\n"))
	if next.String() != "plugin lda: hello\n" {
		t.Errorf("the next run log holds %q", next.String())
	}
}
