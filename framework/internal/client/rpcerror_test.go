package client

import (
	"fmt"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// TestRPCErrorText: a failure of the plugin or of the caller's input prints
// the plugin's message alone; a failed call says what failed in words.
func TestRPCErrorText(t *testing.T) {
	for _, tc := range []struct {
		code codes.Code
		want string
	}{
		{codes.Internal, "fit: linsvm: C = +Inf, want a finite value > 0"},
		{codes.Unknown, "fit: linsvm: C = +Inf, want a finite value > 0"},
		{codes.InvalidArgument, "fit: linsvm: C = +Inf, want a finite value > 0"},
		{codes.Unavailable, "fit: plugin unreachable (its process may have ended): linsvm: C = +Inf, want a finite value > 0"},
		{codes.DeadlineExceeded, "fit: time limit exceeded: linsvm: C = +Inf, want a finite value > 0"},
		{codes.ResourceExhausted, "fit: message too large or out of resources: linsvm: C = +Inf, want a finite value > 0"},
		{codes.Aborted, "fit: Aborted: linsvm: C = +Inf, want a finite value > 0"},
	} {
		e := &RPCError{Op: "fit", Status: status.New(tc.code, "linsvm: C = +Inf, want a finite value > 0")}
		// The SDK's servers name the operation first: it is not repeated.
		named := &RPCError{Op: "fit", Status: status.New(tc.code, "fit: linsvm: C = +Inf, want a finite value > 0")}
		if named.Error() != e.Error() {
			t.Errorf("%v: %q, want %q", tc.code, named.Error(), e.Error())
		}
		if got := e.Error(); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.code, got, tc.want)
		}
		if status.Code(e) != tc.code {
			t.Errorf("%v: status.Code = %v", tc.code, status.Code(e))
		}
	}
}

// TestRPCErrorSchemeNamed: a reducer's plan error already names the
// operation with its scheme ("plan ecoc: …"): it reads once, not "plan:
// plan ecoc: …"; a call that failed still says how.
func TestRPCErrorSchemeNamed(t *testing.T) {
	const msg = "plan ecoc: code matrix: 2 rows but the task has 3 classes"
	for _, tc := range []struct {
		code codes.Code
		want string
	}{
		{codes.InvalidArgument, msg},
		{codes.Internal, msg},
		{codes.Unavailable, "plan: plugin unreachable (its process may have ended): " + msg},
		{codes.Unknown, msg},
	} {
		if got := (&RPCError{Op: "plan", Status: status.New(tc.code, msg)}).Error(); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.code, got, tc.want)
		}
	}
	// "planner: …" names another operation: the prefix stays.
	if got := (&RPCError{Op: "plan", Status: status.New(codes.Internal, "planner: x")}).Error(); got != "plan: planner: x" {
		t.Errorf("got %q, want %q", got, "plan: planner: x")
	}
}

// TestRPCErrorBounded: a plugin not served by the SDK (which bounds its
// messages) may send an error of megabytes, under the transport's 16 MiB:
// the host prints its first 4 KiB then how much it left out. On the code
// before, the whole message was printed, into the run log and each
// report's failure note.
func TestRPCErrorBounded(t *testing.T) {
	for _, tc := range []struct {
		name string
		msg  string
		want string
	}{
		{"1 MiB", strings.Repeat("x", 1<<20), "fit: " + strings.Repeat("x", 4056) + fmt.Sprintf("… (%d bytes more)", 1<<20-4056)},
		{"a cut inside a character", "a" + strings.Repeat("é", 4096), "fit: a" + strings.Repeat("é", 2027) + fmt.Sprintf("… (%d bytes more)", 8193-4055)},
		{"4 KiB", strings.Repeat("x", 4096), "fit: " + strings.Repeat("x", 4096)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := (&RPCError{Op: "fit", Status: status.New(codes.Unknown, tc.msg)}).Error()
			if got != tc.want {
				t.Errorf("%d bytes: %.40q … %q\nwant %d bytes: … %q", len(got), got, got[max(0, len(got)-40):], len(tc.want), tc.want[max(0, len(tc.want)-40):])
			}
		})
	}
}
