//go:build unix

package host

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestSocketsSweep: a new run's socket directory is made private and
// locked; the directories of runs that ended (their lock free, or no lock
// file and over a minute old) are removed, those of live runs kept; a
// temporary directory too deep for socket paths is refused, saying so
// (before, the plugins made their sockets in it, as go-plugin does by
// default, whoever could write it).
func TestSocketsSweep(t *testing.T) {
	tmp, err := os.MkdirTemp("", "sw")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	base := filepath.Join(tmp, socketsName())
	live, err := newSockets(tmp)
	if err != nil || live == nil || !private(base) || filepath.Dir(live.dir) != base {
		t.Fatalf("newSockets(%s) = %v, %v, private %v", tmp, live, err, private(base))
	}
	mk := func(name string, lock bool, age time.Duration) string {
		dir := filepath.Join(base, name)
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "plugin123"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if lock {
			if err := os.WriteFile(filepath.Join(dir, socketsLock), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		old := time.Now().Add(-age)
		if err := os.Chtimes(dir, old, old); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	dead := mk("run-dead", true, 0)
	oldUnlocked := mk("run-old", false, 2*staleUnlocked)
	newUnlocked := mk("run-new", false, 0)
	other := mk("notarun", true, 0)
	next, err := newSockets(tmp)
	if err != nil {
		t.Fatal(err)
	}
	defer next.remove()
	for dir, want := range map[string]bool{live.dir: true, next.dir: true, dead: false, oldUnlocked: false, newUnlocked: true, other: true} {
		if _, err := os.Stat(dir); (err == nil) != want {
			t.Errorf("%s exists: %v, want %v", dir, err == nil, want)
		}
	}
	live.remove()
	if _, err := os.Stat(live.dir); err == nil {
		t.Errorf("%s left after remove", live.dir)
	}
	deep := filepath.Join(tmp, strings.Repeat("d", 90))
	if err := os.Mkdir(deep, 0o700); err != nil {
		t.Fatal(err)
	}
	s, err := newSockets(deep)
	want := fmt.Sprintf(`^the plugins' unix sockets: %s/%s/run-[0-9]+ is too deep for a unix socket's path \(1[0-9][0-9] bytes, at most 103\); set TMPDIR to a shorter directory that only you can write$`, regexp.QuoteMeta(deep), socketsName())
	if s != nil || err == nil || !regexp.MustCompile(want).MatchString(err.Error()) {
		t.Errorf("newSockets(%d-byte directory) = %v, %v; want the error %s", len(deep), s, err, want)
	}
}

// TestSocketsConcurrentStarts: hosts starting together (a Slurm array's
// tasks on one node) each get a locked directory of their own that
// outlives the others' sweeps. Before, a sweep could take the lock of a
// directory whose host had created its lock file but not locked it yet,
// and remove the directory the host then handed to its plugins.
func TestSocketsConcurrentStarts(t *testing.T) {
	tmp, err := os.MkdirTemp("", "cs")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	const hosts, starts = 8, 50
	var wg sync.WaitGroup
	errs := make(chan string, hosts*starts)
	for range hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range starts {
				s, err := newSockets(tmp)
				if s == nil {
					errs <- fmt.Sprintf("newSockets gave no directory: %v", err)
					continue
				}
				// Another host's sweep runs in between.
				sweepSockets(filepath.Dir(s.dir))
				if fi, err := os.Stat(filepath.Join(s.dir, socketsLock)); err != nil {
					errs <- fmt.Sprintf("%s: %v", s.dir, err)
				} else if li, err := s.lock.Stat(); err != nil || !os.SameFile(fi, li) {
					errs <- fmt.Sprintf("%s: the lock held is not the directory's (%v)", s.dir, err)
				}
				s.remove()
			}
		}()
	}
	wg.Wait()
	close(errs)
	n := 0
	for e := range errs {
		if n++; n <= 5 {
			t.Error(e)
		}
	}
	if n > 0 {
		t.Errorf("%d of %d starts lost their directory", n, hosts*starts)
	}
}

// TestSocketsUnsafeTemp: the plugins' sockets never go into a directory
// that others may write or rename out of (campaign 8 N14: with TMPDIR
// 0777 without the sticky bit and another user's polyclass-sockets-UID
// in it, the sockets went into TMPDIR itself, where that user swapped in
// his own and bench connected to it). A TMPDIR that others could replace
// or rename in (itself or a directory on the way) is refused, naming it
// and what to do, and nothing is made in it; in a sticky TMPDIR whose
// polyclass-sockets-UID is another user's or a link, the run makes a
// private directory of its own.
func TestSocketsUnsafeTemp(t *testing.T) {
	const other = 12345
	const tail = ", or set TMPDIR to a directory that only you can write"
	name := socketsName()
	cases := []struct {
		name  string
		dirs  map[string]os.FileMode
		links map[string]string
		gives []string // paths given to uid other
		tmp   string
		want  string // the error, or the directory made: {ROOT}/… as a pattern
	}{
		{name: "TMPDIR 0777 without the sticky bit, another user's " + name + " in it (N14)",
			dirs: map[string]os.FileMode{"tmp": 0o777, "tmp/" + name: 0o700}, gives: []string{"tmp/" + name}, tmp: "tmp",
			want: "the plugins' unix sockets: the temporary directory {ROOT}/tmp is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace " + name + "; chmod o-w {ROOT}/tmp" + tail},
		{name: "TMPDIR 0777 without the sticky bit, empty",
			dirs: map[string]os.FileMode{"tmp": 0o777}, tmp: "tmp",
			want: "the plugins' unix sockets: the temporary directory {ROOT}/tmp is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace " + name + "; chmod o-w {ROOT}/tmp" + tail},
		{name: "a directory on the way to TMPDIR 0777",
			dirs: map[string]os.FileMode{"ww": 0o777, "ww/tmp": 0o700}, tmp: "ww/tmp",
			want: "the plugins' unix sockets: the directory {ROOT}/ww, on the way to {ROOT}/ww/tmp, is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace tmp; chmod o-w {ROOT}/ww" + tail},
		{name: "TMPDIR another user's",
			dirs: map[string]os.FileMode{"tmp": 0o755}, gives: []string{"tmp"}, tmp: "tmp",
			want: "the plugins' unix sockets: the temporary directory {ROOT}/tmp is owned by {OTHER}, not by root or you ({ME}): its owner could replace " + name + " in it; chown {MEC} {ROOT}/tmp" + tail},
		{name: "TMPDIR a link in a 0777 directory",
			dirs: map[string]os.FileMode{"ww": 0o777, "real": 0o700}, links: map[string]string{"ww/tmp": "../real"}, tmp: "ww/tmp",
			want: "the plugins' unix sockets: the directory {ROOT}/ww, on the way to {ROOT}/ww/tmp, is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace tmp; chmod o-w {ROOT}/ww" + tail},
		{name: "TMPDIR missing",
			tmp:  "none",
			want: "the plugins' unix sockets: temporary directory: lstat {ROOT}/none: no such file or directory"},
		{name: "sticky TMPDIR, another user's " + name + " in it",
			dirs: map[string]os.FileMode{"tmp": 0o777 | os.ModeSticky, "tmp/" + name: 0o700}, gives: []string{"tmp/" + name}, tmp: "tmp",
			want: "{ROOT}/tmp/" + name + "-[0-9]+"},
		{name: "sticky TMPDIR, " + name + " a link",
			dirs: map[string]os.FileMode{"tmp": 0o777 | os.ModeSticky, "mine": 0o700}, links: map[string]string{"tmp/" + name: "../mine"}, tmp: "tmp",
			want: "{ROOT}/tmp/" + name + "-[0-9]+"},
		{name: "sticky TMPDIR",
			dirs: map[string]os.FileMode{"tmp": 0o777 | os.ModeSticky}, tmp: "tmp",
			want: "{ROOT}/tmp/" + name + "/run-[0-9]+"},
		{name: "private TMPDIR",
			dirs: map[string]os.FileMode{"tmp": 0o700}, tmp: "tmp",
			want: "{ROOT}/tmp/" + name + "/run-[0-9]+"},
	}
	me := os.Geteuid()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := shortTemp(t)
			for _, d := range sortedKeys(c.dirs) {
				if err := os.Mkdir(filepath.Join(root, d), 0o700); err != nil {
					t.Fatal(err)
				}
			}
			for l, dest := range c.links {
				if err := os.Symlink(dest, filepath.Join(root, l)); err != nil {
					t.Fatal(err)
				}
			}
			for d, m := range c.dirs {
				chmod(t, filepath.Join(root, d), m)
			}
			var gives []give
			for _, p := range c.gives {
				gives = append(gives, give{filepath.Join(root, p), other, -1})
			}
			tmp := filepath.Join(root, c.tmp)
			before := entries(t, tmp)
			s, err := newSocketsWith(tmp, ownedLstat(t, gives))
			want := strings.NewReplacer("{ROOT}", root, "{ME}", userName(me), "{MEC}", chownTo(me), "{OTHER}", userName(other)).Replace(c.want)
			if strings.HasPrefix(c.want, "{ROOT}") {
				if err != nil || !regexp.MustCompile("^"+want+"$").MatchString(s.dir) {
					t.Fatalf("newSockets(%s) = %v, %v; want a directory %s", tmp, s, err, want)
				}
				if !private(s.dir) {
					t.Errorf("%s is not a private directory of yours", s.dir)
				}
				s.remove()
				return
			}
			if s != nil || fmt.Sprint(err) != want {
				t.Fatalf("got  %v, %v\nwant %s", s, err, want)
			}
			if after := entries(t, tmp); after != before {
				t.Errorf("%s held %s, holds %s after the refusal", tmp, before, after)
			}
		})
	}
}

// entries lists the names in dir, "" for none or no dir.
func entries(t *testing.T, dir string) string {
	t.Helper()
	es, _ := os.ReadDir(dir)
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
}

// TestPluginSocketsRefusedTemp: a plugin does not start with TMPDIR a
// directory that every user may write without the sticky bit (campaign 8
// N14); before, it started with its socket there. In a sticky TMPDIR it
// starts.
func TestPluginSocketsRefusedTemp(t *testing.T) {
	cases := []struct {
		name string
		mode os.FileMode
		want string
	}{
		{"TMPDIR 0777", 0o777, "plugin reducers: the plugins' unix sockets: the temporary directory {TMP} is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace " + socketsName() + "; chmod o-w {TMP}; set TMPDIR to a directory that only you can write"},
		{"TMPDIR 1777", 0o777 | os.ModeSticky, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := shortTemp(t)
			dir, tmp := filepath.Join(root, "pd"), filepath.Join(root, "tmp")
			for _, d := range []string{dir, tmp} {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			chmod(t, tmp, c.mode)
			copyFile(t, reducers, filepath.Join(dir, "bench-plugin-reducers"), 0o755)
			t.Setenv("TMPDIR", tmp)
			h := New(dir, nil)
			defer h.Close()
			p, err := h.Get(context.Background(), "reducers")
			want := strings.NewReplacer("{TMP}", tmp, "{ME}", userName(os.Geteuid()), "; set", ", or set").Replace(c.want)
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

// shortTemp returns a new directory (mode 0755) with a path short enough
// for unix sockets under it (t.TempDir's hold the test's name), removed
// at the end of the test.
func shortTemp(t *testing.T) string {
	t.Helper()
	root, err := os.MkdirTemp("", "sk")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	chmod(t, root, 0o755)
	return root
}
