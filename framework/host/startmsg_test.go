package host

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/internal/wire"
)

// TestStartFailuresExplained: a plugin that cannot start is explained in
// its author's terms, with its stderr, not with go-plugin's note about Go
// binaries compiled for another architecture.
func TestStartFailuresExplained(t *testing.T) {
	dir := t.TempDir()
	for name, script := range map[string]string{
		// The #! line names an interpreter that is not there.
		"nointerp": "#!/usr/bin/python4\nprint('hi')\n",
		// A print before the handshake line.
		"chatty": "#!/bin/sh\necho 'loading model weights'\necho '1|1|tcp|127.0.0.1:1|grpc'\n",
		// An import that fails: the script dies before its handshake.
		"dies": "#!/bin/sh\necho 'ModuleNotFoundError: No module named numpy' >&2\nexit 1\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, "bench-plugin-"+name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	h := New(dir, nil)
	defer h.Close()
	for _, tc := range []struct{ name, want string }{
		{"nointerp", "cannot run " + filepath.Join(dir, "bench-plugin-nointerp") + ": its interpreter /usr/bin/python4 (its #! line) does not exist or cannot run"},
		{"chatty", `the plugin printed "loading model weights" to stdout where its handshake line (1|1|tcp|127.0.0.1:PORT|grpc) belongs: a plugin must print nothing else to stdout (write to stderr)`},
		{"dies", "the plugin exited (or closed its stdout) before printing its handshake line\nplugin stderr:\nModuleNotFoundError: No module named numpy"},
	} {
		_, err := h.Get(context.Background(), tc.name)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v\nwant one containing %q", tc.name, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "architecture") {
			t.Errorf("%s: error speaks of architectures: %v", tc.name, err)
		}
	}
}

// hangingInfo is a learner service whose Info never answers, as a
// plugin in another language stuck in its Info.
type hangingInfo struct {
	protov1.UnimplementedLearnerServiceServer
}

func (hangingInfo) Info(ctx context.Context, _ *protov1.InfoRequest) (*protov1.LearnerInfo, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// TestStartTimeoutsExplained: a plugin that prints no handshake line, and
// one whose Info never answers, fail at the host's start limit with a
// message that says which (campaign 5 p01 read "timeout while waiting for
// plugin to start" of a plugin whose Info hung).
func TestStartTimeoutsExplained(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	protov1.RegisterLearnerServiceServer(srv, hangingInfo{})
	go srv.Serve(lis)
	defer srv.Stop()
	dir := t.TempDir()
	handshake := fmt.Sprintf("1|%d|tcp|%s|grpc", wire.ProtocolVersion, lis.Addr())
	for name, script := range map[string]string{
		"silent":   "#!/bin/sh\nexec sleep 60\n",
		"infohang": "#!/bin/sh\necho '" + handshake + "'\nexec sleep 60\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, "bench-plugin-"+name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct{ name, want string }{
		{"silent", "plugin silent (" + filepath.Join(dir, "bench-plugin-silent") + "): the plugin printed no handshake line within 1s, the most a plugin may take to start: it hangs while starting (a plugin built with the Go sdk calls its Info before printing the line, so an Info that never returns hangs it here)"},
		{"infohang", "plugin infohang (" + filepath.Join(dir, "bench-plugin-infohang") + "): the plugin did not answer Info within 1s, the most a plugin may take to start: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := New(dir, nil)
			h.startTimeout = time.Second
			defer h.Close()
			_, err := h.Get(context.Background(), c.name)
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("got  %v\nwant %s…", err, c.want)
			}
		})
	}
}

// TestShebangShown: the interpreter and its argument of a script's #!
// line are shown quoted when they hold a character a terminal would act
// on (a CRLF script's \r), as they are when plain.
func TestShebangShown(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"#!/usr/bin/python3 -u\n", "/usr/bin/python3 -u"},
		{"#!/usr/bin/python3 -u\r\n", `/usr/bin/python3 "-u\r"`},
		{"#!/usr/bin/python3\r\n", `"/usr/bin/python3\r"`},
		{"no line\n", ""},
	} {
		path := filepath.Join(t.TempDir(), "script")
		if err := os.WriteFile(path, []byte(tc.line), 0o755); err != nil {
			t.Fatal(err)
		}
		if got := shebang(path); got != tc.want {
			t.Errorf("shebang of %q = %q, want %q", tc.line, got, tc.want)
		}
	}
}
