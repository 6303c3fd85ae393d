package host

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
