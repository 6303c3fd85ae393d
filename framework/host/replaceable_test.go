package host

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// chmod sets path's mode exactly, whatever the umask.
func chmod(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// TestReplaceablePluginsRefused: as ssh refuses a key that others may
// write, the host refuses to start a plugin binary that another local
// user could change or replace: writable by others, in a directory
// writable by others without the sticky bit, or a link to such a file.
// A world-writable directory with the sticky bit (as /tmp) and a
// group-writable binary are accepted.
func TestReplaceablePluginsRefused(t *testing.T) {
	cases := []struct {
		name string
		// setup makes the plugin directory in root and returns it and
		// the binary's path, with mode; want holds {ROOT} for root.
		setup func(t *testing.T, root string) (dir string)
		want  string
	}{
		{"binary 0777", func(t *testing.T, root string) string {
			bin := filepath.Join(root, "bench-plugin-reducers")
			copyFile(t, reducers, bin, 0o755)
			chmod(t, bin, 0o777)
			return root
		}, "plugin reducers: {ROOT}/bench-plugin-reducers is writable by every user (mode 0777): any local user could change the program bench runs; chmod o-w {ROOT}/bench-plugin-reducers"},
		{"directory 0777", func(t *testing.T, root string) string {
			dir := filepath.Join(root, "open")
			os.Mkdir(dir, 0o755)
			copyFile(t, reducers, filepath.Join(dir, "bench-plugin-reducers"), 0o755)
			chmod(t, dir, 0o777)
			return dir
		}, "plugin reducers: the plugin directory {ROOT}/open is writable by every user without the sticky bit (mode 0777): any local user could replace bench-plugin-reducers; chmod o-w {ROOT}/open"},
		{"link to a binary 0777", func(t *testing.T, root string) string {
			dir, other := filepath.Join(root, "bin"), filepath.Join(root, "other")
			os.Mkdir(dir, 0o755)
			os.Mkdir(other, 0o755)
			copyFile(t, reducers, filepath.Join(other, "reducers"), 0o755)
			chmod(t, filepath.Join(other, "reducers"), 0o757)
			if err := os.Symlink(filepath.Join(other, "reducers"), filepath.Join(dir, "bench-plugin-reducers")); err != nil {
				t.Fatal(err)
			}
			return dir
		}, "plugin reducers: {ROOT}/other/reducers is writable by every user (mode 0757): any local user could change the program bench runs; chmod o-w {ROOT}/other/reducers"},
		{"sticky directory 1777", func(t *testing.T, root string) string {
			dir := filepath.Join(root, "sticky")
			os.Mkdir(dir, 0o755)
			copyFile(t, reducers, filepath.Join(dir, "bench-plugin-reducers"), 0o755)
			chmod(t, dir, 0o777|os.ModeSticky)
			return dir
		}, ""},
		{"group-writable binary", func(t *testing.T, root string) string {
			copyFile(t, reducers, filepath.Join(root, "bench-plugin-reducers"), 0o755)
			chmod(t, filepath.Join(root, "bench-plugin-reducers"), 0o775)
			return root
		}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			chmod(t, root, 0o755)
			h := New(c.setup(t, root), nil)
			defer h.Close()
			p, err := h.Get(context.Background(), "reducers")
			want := strings.ReplaceAll(c.want, "{ROOT}", root)
			switch {
			case want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case want == "" && p.Reducer == nil:
				t.Fatal("started, but serves no reducer")
			case want != "" && (err == nil || err.Error() != want):
				t.Fatalf("got  %v\nwant %s", err, want)
			}
		})
	}
}
