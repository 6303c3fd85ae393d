package host

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"
)

// TestOpen starts a plugin binary by its path, whatever its file name.
func TestOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "my-reducer")
	copyFile(t, reducers, path, 0o755)
	p, err := Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop()
	if p.Name != "my-reducer" || p.ReducerInfo == nil || p.ReducerInfo.Name != "reducers" || p.Exited() {
		t.Fatalf("plugin %+v", p.Binary)
	}
	if runtime.GOOS == "linux" {
		if _, err := p.CPUTime(); err != nil {
			t.Errorf("CPUTime: %v", err)
		}
	}
	if _, err := Open(context.Background(), filepath.Join(t.TempDir(), "none"), nil); err == nil {
		t.Error("Open of a missing file succeeded")
	}
}
