package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// reducers is the path of a real plugin binary built for these tests.
var reducers string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "host-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	reducers = filepath.Join(dir, "bench-plugin-reducers")
	cmd := exec.Command("go", "build", "-o", reducers, "../../plugins/reducers")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the reducers plugin:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func copyFile(t testing.TB, src, dst string, mode os.FileMode) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, mode); err != nil {
		t.Fatal(err)
	}
}

// appendTo appends text to the file at path (a binary whose process has
// stopped: a running executable cannot be written).
func appendTo(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, werr := f.WriteString(text)
	if err := errors.Join(werr, f.Close()); err != nil {
		t.Fatal(err)
	}
}

func TestDiscover(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, reducers, filepath.Join(dir, "bench-plugin-reducers"), 0o755)
	os.WriteFile(filepath.Join(dir, "bench-plugin-notes"), []byte("not executable"), 0o644)
	os.WriteFile(filepath.Join(dir, "other-tool"), []byte("#!/bin/sh\n"), 0o755)
	os.Mkdir(filepath.Join(dir, "bench-plugin-dir"), 0o755)
	bins, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(bins) != 1 || bins[0].Name != "reducers" || bins[0].SHA256 != "" {
		t.Fatalf("discovered %+v, want only reducers, not read", bins)
	}
	if _, err := Discover(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("a missing directory must be an error")
	}
}

// TestPluginsDirHoldingSeparator: NewDirs takes a directory whose path
// holds the list separator as one directory, and never searches the
// pieces New would split it into: a relative piece ("y/bin") would be
// looked up in the working directory.
func TestPluginsDirHoldingSeparator(t *testing.T) {
	root := t.TempDir()
	sep := string(os.PathListSeparator)
	own := filepath.Join(root, "x"+sep+"y", "bin")
	for _, d := range []string{own, filepath.Join(root, "x"), filepath.Join(root, "y", "bin")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	copyFile(t, reducers, filepath.Join(own, "bench-plugin-reducers"), 0o755)
	// What the split would find: y/bin relative to the working directory.
	os.WriteFile(filepath.Join(root, "y", "bin", "bench-plugin-planted"), []byte("#!/bin/sh\nexit 3\n"), 0o755)
	t.Chdir(root)

	h := NewDirs([]string{own}, nil)
	defer h.Close()
	bins, err := h.Binaries()
	if err != nil {
		t.Fatal(err)
	}
	if len(bins) != 1 || bins[0].Name != "reducers" || bins[0].Path != filepath.Join(own, "bench-plugin-reducers") {
		t.Fatalf("binaries %v, want the reducers of %s alone", bins, own)
	}
	if p, err := h.Get(context.Background(), "reducers"); err != nil || p.Reducer == nil {
		t.Fatalf("reducers from %s: %v", own, err)
	}
	if _, err := h.Get(context.Background(), "planted"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("planted: %v, want ErrNotFound", err)
	}
	// The same path as a list: its relative piece is refused, not searched.
	_, err = New(own, nil).Binaries()
	if err == nil || !strings.Contains(err.Error(), `"y/bin" is relative`) {
		t.Fatalf("the split list: %v, want y/bin refused as relative", err)
	}
}

// TestJoinDirs: JoinDirs writes a list SplitDirs reads back as the same
// directories, and refuses one it cannot write.
func TestJoinDirs(t *testing.T) {
	sep := string(os.PathListSeparator)
	for _, c := range []struct {
		dirs    []string
		want    string
		wantErr string
	}{
		{dirs: []string{"/a"}, want: "/a"},
		{dirs: []string{"/a", "/b c", "/d"}, want: "/a" + sep + "/b c" + sep + "/d"},
		{dirs: []string{"/a", "/x" + sep + "y/bin"}, wantErr: `"/x` + sep + `y/bin" holds`},
		{dirs: []string{"/a", ""}, wantErr: "an empty directory"},
	} {
		got, err := JoinDirs(c.dirs)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("JoinDirs(%q) = %q, %v; want an error with %s", c.dirs, got, err, c.wantErr)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("JoinDirs(%q) = %q, %v; want %q", c.dirs, got, err, c.want)
		}
		if back := SplitDirs(got); !reflect.DeepEqual(back, c.dirs) {
			t.Errorf("SplitDirs(%q) = %q, want %q", got, back, c.dirs)
		}
	}
	if got, want := ShowDirs([]string{"/a", "/x" + sep + "y"}), `"/a" and "/x`+sep+`y"`; got != want {
		t.Errorf("ShowDirs = %s, want %s", got, want)
	}
}

// TestDirectoryList: a Host's directory may be a list (PATH-style); each
// is searched in order, an earlier one's plugin hiding a later one's of
// the same name, and NotExecutable looks in all of them.
func TestDirectoryList(t *testing.T) {
	mine, shipped := t.TempDir(), t.TempDir()
	copyFile(t, reducers, filepath.Join(shipped, "bench-plugin-reducers"), 0o755)
	os.WriteFile(filepath.Join(mine, "bench-plugin-mine"), []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(shipped, "bench-plugin-mine"), []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(shipped, "bench-plugin-notes"), []byte("not executable"), 0o644)
	list := mine + string(os.PathListSeparator) + shipped
	h := New(list+string(os.PathListSeparator), nil) // a trailing separator adds no directory
	defer h.Close()
	bins, err := h.Binaries()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, b := range bins {
		got[b.Name] = b.Path
	}
	want := map[string]string{"mine": filepath.Join(mine, "bench-plugin-mine"), "reducers": filepath.Join(shipped, "bench-plugin-reducers")}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("binaries %v, want %v", got, want)
	}
	p, err := h.Get(context.Background(), "reducers")
	if err != nil || p.Reducer == nil {
		t.Fatalf("reducers from the second directory: %v", err)
	}
	if got := NotExecutable([]string{mine, shipped}); !reflect.DeepEqual(got, []string{filepath.Join(shipped, "bench-plugin-notes")}) {
		t.Errorf("not executable %v", got)
	}
	if _, err := New(mine+string(os.PathListSeparator)+filepath.Join(mine, "missing"), nil).Binaries(); err == nil {
		t.Error("a missing directory in the list must be an error")
	}
}

func TestStartDispenseAndStop(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, reducers, filepath.Join(dir, "bench-plugin-reducers"), 0o755)
	h := New(dir, nil)
	defer h.Close()
	p, err := h.Get(context.Background(), "reducers")
	if err != nil {
		t.Fatal(err)
	}
	if p.Reducer == nil || p.Learner != nil || p.ReducerInfo.Name != "reducers" || p.Version() == "" {
		t.Fatalf("plugin %+v", p)
	}
	again, err := h.Get(context.Background(), "reducers")
	if err != nil || again != p {
		t.Fatal("a plugin must be started once per host")
	}
	if _, err := h.Get(context.Background(), "svm"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "found: reducers") {
		t.Fatalf("unknown plugin: %v", err)
	}
	// A plugin file that is not executable is named as such.
	noexec := filepath.Join(dir, "bench-plugin-noexec")
	copyFile(t, reducers, noexec, 0o644)
	if _, err := h.Get(context.Background(), "noexec"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), noexec+" is not executable (chmod +x ") {
		t.Fatalf("plugin without x bit: %v", err)
	}
	h.Close()
	if !p.Exited() {
		t.Fatal("Close must stop the plugin process")
	}
}

// TestChecksumGuardsTheBinary: the SHA-256 taken when the host first
// starts a binary guards it: replaced afterwards, the binary does not start
// again when its process has ended (go-plugin's SecureConfig).
func TestChecksumGuardsTheBinary(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bench-plugin-reducers")
	copyFile(t, reducers, path, 0o755)
	h := New(dir, nil)
	defer h.Close()
	p, err := h.Get(context.Background(), "reducers")
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := fileSHA256(path); p.SHA256 != want || len(want) != 64 {
		t.Fatalf("started plugin's SHA256 %q, want the file's %q", p.SHA256, want)
	}
	p.Stop() // a running executable cannot be written
	appendTo(t, path, "tampered")
	_, err = h.Get(context.Background(), "reducers")
	if err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("tampered binary started again: %v, want a checksum error", err)
	}
}

// TestPluginLogIsQuiet: a plugin's start, calls and shutdown put none of
// go-plugin's debug or trace lines into the run log (the SDK serves with a
// warning-level logger).
func TestPluginLogIsQuiet(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, reducers, filepath.Join(dir, "bench-plugin-reducers"), 0o755)
	var log syncBuffer
	h := New(dir, &log)
	if _, err := h.Get(context.Background(), "reducers"); err != nil {
		t.Fatal(err)
	}
	h.Close()
	if s := log.String(); strings.Contains(s, `"@level":"debug"`) || strings.Contains(s, `"@level":"trace"`) {
		t.Errorf("run log has go-plugin debug lines:\n%s", s)
	}
}

// syncBuffer is a strings.Builder safe for the plugin's stderr goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestProcessCommandRunsFromTheWorkingDirectory: a plugin path without a
// separator (what --plugins . gives) is the file in the working
// directory, never a program of that name on $PATH.
func TestProcessCommandRunsFromTheWorkingDirectory(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"bench-plugin-x", "./bench-plugin-x"},
		{"bin/bench-plugin-x", "bin/bench-plugin-x"},
		{"/opt/bench-plugin-x", "/opt/bench-plugin-x"},
	} {
		cmd := processCommand(context.Background(), tc.path)
		if cmd.Path != filepath.FromSlash(tc.want) || cmd.Err != nil {
			t.Errorf("processCommand(%q): path %q (err %v), want %q", tc.path, cmd.Path, cmd.Err, tc.want)
		}
	}
}

// TestNotExecutableHidesNothing: a plugin file without its x bit in a
// directory searched first is not passed over for the plugin of its name
// in a later directory: a new user who put a new build in the first
// directory without chmod +x ran the older one of the second, which
// validate and run accepted without a word. bench plugin check (Open)
// names the missing x bit too, where it said "fork/exec …: permission
// denied".
func TestNotExecutableHidesNothing(t *testing.T) {
	for _, tc := range []struct {
		name       string
		firstMode  os.FileMode // the first directory's bench-plugin-reducers
		secondMode os.FileMode // the second's; 0: none
		want       string      // in Get's error after the first file's path; "": it starts
		wantOld    bool        // the error names the second file
	}{
		{"not executable first, executable later", 0o644, 0o755, "is not executable (chmod +x ", true},
		{"executable first, not executable later", 0o755, 0o644, "", false},
		{"not executable alone", 0o644, 0, "is not executable (chmod +x ", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first, second := t.TempDir(), t.TempDir()
			firstPath := filepath.Join(first, "bench-plugin-reducers")
			secondPath := filepath.Join(second, "bench-plugin-reducers")
			copyFile(t, reducers, firstPath, tc.firstMode)
			if tc.secondMode != 0 {
				copyFile(t, reducers, secondPath, tc.secondMode)
			}
			h := New(first+string(os.PathListSeparator)+second, nil)
			defer h.Close()
			p, err := h.Get(context.Background(), "reducers")
			if tc.want == "" {
				if err != nil || p.Path != firstPath {
					t.Fatalf("Get = %v, %v; want the first directory's plugin", p, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Get started %s; want an error naming %s", p.Path, firstPath)
			}
			msg := err.Error()
			if !strings.Contains(msg, firstPath+" "+tc.want+firstPath+")") {
				t.Errorf("error %q does not say that %s is not executable", msg, firstPath)
			}
			if strings.Contains(msg, secondPath) != tc.wantOld {
				t.Errorf("error %q: names %s = %v, want %v", msg, secondPath, !tc.wantOld, tc.wantOld)
			}
		})
	}
}

// TestOpenNotExecutable: bench plugin check PATH on a file without its x
// bit says so, with the command that fixes it.
func TestOpenNotExecutable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bench-plugin-reducers")
	copyFile(t, reducers, path, 0o644)
	_, err := Open(context.Background(), path, nil)
	want := "plugin reducers: " + path + " is not executable (chmod +x " + path + ")"
	if err == nil || err.Error() != want {
		t.Fatalf("Open = %v, want %q", err, want)
	}
}

// TestStopWithoutProcess: a Plugin with no process (a stand-in of a
// plugin that did not start, or one made on a caller's own connection, as
// the engine's tests make) stops and is killed as a no-op; the kill of a
// timed-out call on one crashed the engine's tests under load (a nil
// go-plugin client's Kill).
func TestStopWithoutProcess(t *testing.T) {
	p := &Plugin{Binary: Binary{Name: "fake"}}
	if !p.KillFirst() {
		t.Error("KillFirst of a plugin not yet killed = false")
	}
	if p.KillFirst() {
		t.Error("the second KillFirst = true")
	}
	p.Stop()
	if !p.Killed() || p.Exited() {
		t.Errorf("Killed %v, Exited %v", p.Killed(), p.Exited())
	}
}
