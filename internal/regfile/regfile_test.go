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

// TestSame: two paths are one file when they are the same path, a
// symbolic or hard link to it, or another spelling of it; another file
// with the same bytes is not; a path that cannot be read is an error.
func TestSame(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte("x,class\n1,a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sym, hard := filepath.Join(dir, "sym.csv"), filepath.Join(dir, "hard.csv")
	if err := os.Symlink(a, sym); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(a, hard); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		x, y   string
		same   bool
		errSub string
	}{
		{name: "same path", x: a, y: a, same: true},
		{name: "dot segment", x: a, y: dir + "/./a.csv", same: true},
		{name: "symbolic link", x: sym, y: a, same: true},
		{name: "hard link", x: a, y: hard, same: true},
		{name: "same bytes, other file", x: a, y: b},
		{name: "missing first", x: filepath.Join(dir, "none.csv"), y: a, errSub: "none.csv: no such file"},
		{name: "missing second", x: a, y: filepath.Join(dir, "none.csv"), errSub: "none.csv: no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			same, err := Same(tc.x, tc.y)
			if tc.errSub != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errSub) || same {
					t.Fatalf("Same = %v, %v; want false and an error with %q", same, err, tc.errSub)
				}
				return
			}
			if err != nil || same != tc.same {
				t.Errorf("Same = %v, %v; want %v", same, err, tc.same)
			}
		})
	}
}

// TestOpenNamesOtherNormalisation: a path that is not found but whose
// name is an entry of its directory in another Unicode normalisation
// (NFD "cafe" + U+0301 for NFC "caf" + U+00E9, or the reverse) is still
// not found, and the error names that entry, escaped so that the two
// show apart; a name with no such entry gets the plain error, and a
// directory that does not exist too.
func TestOpenNamesOtherNormalisation(t *testing.T) {
	const nfc, nfd = "caf\u00e9.csv", "cafe\u0301.csv"
	dir := t.TempDir()
	for _, sub := range []string{"nfd", "nfc"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{filepath.Join(dir, "nfd", nfd), filepath.Join(dir, "nfc", nfc)} {
		if err := os.WriteFile(p, []byte("a,class\n1,x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const hint = " (the same name in another Unicode normalisation)"
	for _, tc := range []struct{ path, want string }{
		{filepath.Join(dir, "nfd", nfc), `: no such file or directory; did you mean "cafe\u0301.csv"` + hint},
		{filepath.Join(dir, "nfc", nfd), `: no such file or directory; did you mean "caf\u00e9.csv"` + hint},
		{filepath.Join(dir, "nfc", "cafe.csv"), ": no such file or directory"},
		{filepath.Join(dir, "none", nfc), ": no such file or directory"},
	} {
		_, err := Open(tc.path)
		if err == nil || !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("Open(%q) = %v, want a not-found error", tc.path, err)
		}
		if want := "open " + tc.path + tc.want; err.Error() != want {
			t.Errorf("Open(%+q) error\n%s\nwant\n%s", tc.path, err, want)
		}
	}
	// A relative path is looked up in the working directory.
	t.Chdir(filepath.Join(dir, "nfd"))
	if _, err := Open(nfc); err == nil || !strings.Contains(err.Error(), `did you mean "cafe\u0301.csv"`) {
		t.Errorf("Open(%+q) in the directory of %+q: %v", nfc, nfd, err)
	}
	if f, err := Open(nfd); err != nil {
		t.Errorf("Open(%+q): %v", nfd, err)
	} else {
		f.Close()
	}
}
