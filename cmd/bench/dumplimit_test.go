package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestDumpOnLimit: a command ended by its limit writes every goroutine's
// stack (a goroutine parked in a channel receive among them, as a stuck
// fold would be); one cancelled otherwise, or whose watch was stopped,
// writes nothing.
func TestDumpOnLimit(t *testing.T) {
	limit := errors.New("the test's limit of 1ms for one bench command")
	tests := []struct {
		name     string
		end      func(cancel context.CancelCauseFunc, stop func() bool)
		wantDump bool
	}{
		{"limit", func(cancel context.CancelCauseFunc, _ func() bool) { cancel(limit) }, true},
		{"interrupted", func(cancel context.CancelCauseFunc, _ func() bool) { cancel(errors.New("interrupt")) }, false},
		{"stopped", func(cancel context.CancelCauseFunc, stop func() bool) { stop(); cancel(limit) }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parked := make(chan struct{})
			defer close(parked)
			go func() { <-parked }()
			ctx, cancel := context.WithCancelCause(context.Background())
			var out bytes.Buffer
			stop, done := dumpOnLimit(ctx, limit, "TestX", &out)
			tt.end(cancel, stop)
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the watch did not end within 10 s")
			}
			got := out.String()
			if !tt.wantDump {
				if got != "" {
					t.Errorf("wrote %q, want nothing", got)
				}
				return
			}
			head := "TestX: the test's limit of 1ms for one bench command; the goroutines then:\n"
			if !strings.HasPrefix(got, head) {
				t.Errorf("dump starts %q, want %q", got[:min(len(got), 120)], head)
			}
			if !strings.Contains(got, "chan receive") || !strings.Contains(got, "TestDumpOnLimit") {
				t.Errorf("dump lacks the parked goroutine:\n%s", got)
			}
		})
	}
}
