//go:build unix

package host

import (
	"bytes"
	"context"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
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
		}, "plugin reducers: the plugin directory {ROOT}/open is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace bench-plugin-reducers; chmod o-w {ROOT}/open, or move the plugin to a directory that only you and root can write"},
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
		{"ancestor 0777 (campaign 7 A15)", func(t *testing.T, root string) string {
			dir := filepath.Join(root, "ww", "pd")
			os.MkdirAll(dir, 0o755)
			copyFile(t, reducers, filepath.Join(dir, "bench-plugin-reducers"), 0o755)
			chmod(t, filepath.Join(root, "ww"), 0o777)
			return dir
		}, "plugin reducers: the directory {ROOT}/ww, on the way to {ROOT}/ww/pd/bench-plugin-reducers, is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace pd; chmod o-w {ROOT}/ww, or move the plugin to a directory that only you and root can write"},
		{"link in a 0777 directory (campaign 7 A18)", func(t *testing.T, root string) string {
			for _, d := range []string{"pd", "ww", "real"} {
				os.Mkdir(filepath.Join(root, d), 0o755)
			}
			copyFile(t, reducers, filepath.Join(root, "real", "bench-plugin-reducers"), 0o755)
			if err := os.Symlink("../ww/mid", filepath.Join(root, "pd", "bench-plugin-reducers")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("../real/bench-plugin-reducers", filepath.Join(root, "ww", "mid")); err != nil {
				t.Fatal(err)
			}
			chmod(t, filepath.Join(root, "ww"), 0o777)
			return filepath.Join(root, "pd")
		}, "plugin reducers: the directory {ROOT}/ww, on the way to {ROOT}/pd/bench-plugin-reducers, is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace mid; chmod o-w {ROOT}/ww, or move the plugin to a directory that only you and root can write"},
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
			want := strings.NewReplacer("{ROOT}", root, "{ME}", userName(os.Geteuid())).Replace(c.want)
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

// give makes path (not a link it is) look owned by uid and group gid
// (-1: unchanged) to the check: by Lchown where it may (as root), else by
// an lstat that reports them, so that the case holds for any user.
type give struct {
	path     string
	uid, gid int
}

// ownedLstat applies gives and returns the lstat the check must use.
func ownedLstat(t *testing.T, gives []give) func(string) (fs.FileInfo, error) {
	t.Helper()
	pretend := map[string]give{}
	for _, g := range gives {
		if err := os.Lchown(g.path, g.uid, g.gid); err != nil {
			pretend[g.path] = g
		}
	}
	return func(p string) (fs.FileInfo, error) {
		fi, err := os.Lstat(p)
		if g, ok := pretend[p]; ok && err == nil {
			st := *fi.Sys().(*syscall.Stat_t)
			if g.uid >= 0 {
				st.Uid = uint32(g.uid)
			}
			if g.gid >= 0 {
				st.Gid = uint32(g.gid)
			}
			return ownedInfo{fi, &st}, nil
		}
		return fi, err
	}
}

// ownedInfo is a FileInfo with another owner.
type ownedInfo struct {
	fs.FileInfo
	st *syscall.Stat_t
}

func (o ownedInfo) Sys() any { return o.st }

// TestReplaceableWalk: as ssh's StrictModes, the check resolves a plugin
// binary's path one component at a time and refuses it if anyone but
// root and the running user could change a step: an ancestor directory
// others may write (campaign 7 A15), a plugin directory or binary of
// another user (A16, A16b), a link in a directory others may write
// (A18, and A20 for a --plugins directory that is a link), a link of
// another user in a sticky directory, a directory writable by another
// group; and, for a script, the same of its interpreter, and of every
// directory of PATH where env looks for one, after the match too
// (campaign 10 P05, P05c: execvp goes on past a match that cannot
// start). Sticky
// directories (as /tmp) with entries of the user, link chains that stay
// safe, bench's own group, ".." and #!/usr/bin/env pass.
func TestReplaceableWalk(t *testing.T) {
	const other = 12345
	const emptyPATH = "(empty)" // pathEnv: PATH set to ""
	const tail = ", or move the plugin to a directory that only you and root can write"
	bin := "bench-plugin-x"
	mk := func(t *testing.T, root string, dirs map[string]os.FileMode, files []string, fmode os.FileMode, shebang, loader string, links map[string]string) {
		t.Helper()
		for _, d := range sortedKeys(dirs) {
			if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if shebang == "" {
			shebang = "/bin/sh"
		}
		for i, f := range files {
			text := "#!" + strings.ReplaceAll(shebang, "{ROOT}", root) + "\n"
			if i > 0 {
				text = "\x7fELF" // the interpreter: a binary
			} else if loader != "" {
				text = string(elfNaming(t, strings.ReplaceAll(loader, "{ROOT}", root)))
			}
			if err := os.WriteFile(filepath.Join(root, f), []byte(text), 0o755); err != nil {
				t.Fatal(err)
			}
			if fmode != 0 {
				chmod(t, filepath.Join(root, f), fmode)
			}
		}
		for l, dest := range links {
			if err := os.Symlink(strings.ReplaceAll(dest, "{ROOT}", root), filepath.Join(root, l)); err != nil {
				t.Fatal(err)
			}
		}
		for d, m := range dirs {
			chmod(t, filepath.Join(root, d), m)
		}
	}
	cases := []struct {
		name  string
		dirs  map[string]os.FileMode
		files []string
		fmode os.FileMode // of the files, 0755 if 0
		// shebang is the interpreter (and arguments) of the first file,
		// a script; /bin/sh if empty; the other files are binaries.
		shebang string
		// loader makes the first file an ELF binary whose dynamic
		// loader (PT_INTERP) it names.
		loader string
		// chdir: the check runs in root, for relative interpreters.
		chdir bool
		// pathEnv, when set, is PATH during the check.
		pathEnv string
		noexec  []string // files made 0644 after the set-up
		// scripts and elves rewrite files after the set-up: a script
		// with the #! line given, an ELF binary naming the dynamic
		// loader given ({ROOT} the root in both).
		scripts map[string]string
		elves   map[string]string
		links   map[string]string
		path    string
		gives   []string // paths given to uid other
		group   []string // paths given to group other
		want    string
	}{
		{name: "ancestor 0777 without the sticky bit (A15)",
			dirs: map[string]os.FileMode{"ww": 0o777, "ww/pd": 0o755}, files: []string{"ww/pd/" + bin}, path: "ww/pd/" + bin,
			want: "the directory {ROOT}/ww, on the way to {ROOT}/ww/pd/bench-plugin-x, is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace pd; chmod o-w {ROOT}/ww" + tail},
		{name: "ancestor 1777 with the sticky bit",
			dirs: map[string]os.FileMode{"st": 0o777 | os.ModeSticky, "st/pd": 0o755}, files: []string{"st/pd/" + bin}, path: "st/pd/" + bin},
		{name: "plugin directory of another user in a sticky directory",
			dirs: map[string]os.FileMode{"st": 0o777 | os.ModeSticky, "st/pd": 0o755}, files: []string{"st/pd/" + bin}, path: "st/pd/" + bin, gives: []string{"st/pd"},
			want: "the plugin directory {ROOT}/st/pd is owned by {OTHER}, not by root or you ({ME}): its owner could replace bench-plugin-x in it; chown {MEC} {ROOT}/st/pd" + tail},
		{name: "plugin directory of another user (A16)",
			dirs: map[string]os.FileMode{"pd": 0o755}, files: []string{"pd/" + bin}, path: "pd/" + bin, gives: []string{"pd"},
			want: "the plugin directory {ROOT}/pd is owned by {OTHER}, not by root or you ({ME}): its owner could replace bench-plugin-x in it; chown {MEC} {ROOT}/pd" + tail},
		{name: "binary of another user (A16b)",
			dirs: map[string]os.FileMode{"pd": 0o755}, files: []string{"pd/" + bin}, path: "pd/" + bin, gives: []string{"pd/" + bin},
			want: "{ROOT}/pd/bench-plugin-x is owned by {OTHER}, not by root or you ({ME}): its owner could change the program bench runs; chown {MEC} {ROOT}/pd/bench-plugin-x" + tail},
		{name: "link in a 0777 directory on the way (A18)",
			dirs:  map[string]os.FileMode{"pd": 0o755, "ww": 0o777, "real": 0o755},
			files: []string{"real/" + bin}, links: map[string]string{"pd/" + bin: "../ww/mid", "ww/mid": "../real/" + bin}, path: "pd/" + bin,
			want: "the directory {ROOT}/ww, on the way to {ROOT}/pd/bench-plugin-x, is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace mid; chmod o-w {ROOT}/ww" + tail},
		{name: "--plugins directory a link in a 0777 directory (A20)",
			dirs:  map[string]os.FileMode{"pd": 0o755, "ww": 0o777},
			files: []string{"pd/" + bin}, links: map[string]string{"ww/pdl": "../pd"}, path: "ww/pdl/" + bin,
			want: "the directory {ROOT}/ww, on the way to {ROOT}/ww/pdl/bench-plugin-x, is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace pdl; chmod o-w {ROOT}/ww" + tail},
		{name: "chain of two links, absolute then relative, all safe",
			dirs:  map[string]os.FileMode{"pd": 0o755, "l2": 0o755, "real": 0o755},
			files: []string{"real/" + bin}, links: map[string]string{"pd/" + bin: "{ROOT}/l2/mid", "l2/mid": "../real/" + bin}, path: "pd/" + bin},
		{name: "chain of two links to a binary in a 0777 directory",
			dirs:  map[string]os.FileMode{"pd": 0o755, "l2": 0o755, "open": 0o777},
			files: []string{"open/" + bin}, links: map[string]string{"pd/" + bin: "../l2/mid", "l2/mid": "../open/" + bin}, path: "pd/" + bin,
			want: "the plugin directory {ROOT}/open is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace bench-plugin-x; chmod o-w {ROOT}/open" + tail},
		{name: "link of another user in a sticky directory",
			dirs:  map[string]os.FileMode{"pd": 0o755, "st": 0o777 | os.ModeSticky},
			files: []string{"pd/" + bin}, links: map[string]string{"st/lnk": "../pd/" + bin}, path: "st/lnk", gives: []string{"st/lnk"},
			want: "the link {ROOT}/st/lnk is owned by {OTHER}, not by root or you ({ME}): its owner could point it elsewhere; chown -h {MEC} {ROOT}/st/lnk" + tail},
		{name: "link of the user in a sticky directory",
			dirs:  map[string]os.FileMode{"pd": 0o755, "st": 0o777 | os.ModeSticky},
			files: []string{"pd/" + bin}, links: map[string]string{"st/lnk": "../pd/" + bin}, path: "st/lnk"},
		{name: "plugin directory writable by another group",
			dirs: map[string]os.FileMode{"pd": 0o775}, files: []string{"pd/" + bin}, path: "pd/" + bin, group: []string{"pd"},
			want: "the plugin directory {ROOT}/pd is writable by group {GROUP} without the sticky bit (owner {ME}, mode 0775): the members of group {GROUP} could replace bench-plugin-x; chmod g-w {ROOT}/pd" + tail},
		{name: "binary writable by another group",
			dirs: map[string]os.FileMode{"pd": 0o755}, files: []string{"pd/" + bin}, fmode: 0o775, path: "pd/" + bin, group: []string{"pd/" + bin},
			want: "{ROOT}/pd/bench-plugin-x is writable by group {GROUP} (mode 0775): the members of group {GROUP} could change the program bench runs; chmod g-w {ROOT}/pd/bench-plugin-x"},
		{name: "directory writable by bench's own group",
			dirs: map[string]os.FileMode{"pd": 0o775}, files: []string{"pd/" + bin}, path: "pd/" + bin},
		{name: "dot-dot on the way",
			dirs: map[string]os.FileMode{"pd": 0o755, "q": 0o755}, files: []string{"pd/" + bin}, path: "q/../pd/./" + bin},
		{name: "script whose interpreter is in a 0777 directory",
			dirs: map[string]os.FileMode{"pd": 0o755, "ww": 0o777}, files: []string{"pd/" + bin, "ww/python"}, shebang: "{ROOT}/ww/python -u", path: "pd/" + bin,
			want: "the interpreter {ROOT}/ww/python of {ROOT}/pd/bench-plugin-x: the interpreter directory {ROOT}/ww is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace python; chmod o-w {ROOT}/ww" + tail},
		{name: "script whose interpreter is another user's",
			dirs: map[string]os.FileMode{"pd": 0o755, "py": 0o755}, files: []string{"pd/" + bin, "py/python"}, shebang: "{ROOT}/py/python", path: "pd/" + bin, gives: []string{"py/python"},
			want: "the interpreter {ROOT}/py/python of {ROOT}/pd/bench-plugin-x: {ROOT}/py/python is owned by {OTHER}, not by root or you ({ME}): its owner could change the program bench runs; chown {MEC} {ROOT}/py/python" + tail},
		{name: "script whose interpreter is a link in a 0777 directory",
			dirs: map[string]os.FileMode{"pd": 0o755, "ww": 0o777}, files: []string{"pd/" + bin}, shebang: "{ROOT}/ww/py", links: map[string]string{"ww/py": "/bin/sh"}, path: "pd/" + bin,
			want: "the interpreter {ROOT}/ww/py of {ROOT}/pd/bench-plugin-x: the directory {ROOT}/ww, on the way to {ROOT}/ww/py, is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace py; chmod o-w {ROOT}/ww" + tail},
		{name: "script whose interpreter is missing from a 0777 directory",
			dirs: map[string]os.FileMode{"pd": 0o755, "ww": 0o777}, files: []string{"pd/" + bin}, shebang: "{ROOT}/ww/python", path: "pd/" + bin,
			want: "the interpreter {ROOT}/ww/python of {ROOT}/pd/bench-plugin-x: the interpreter directory {ROOT}/ww is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace python; chmod o-w {ROOT}/ww" + tail},
		{name: "script whose interpreter is missing (the start explains it)",
			dirs: map[string]os.FileMode{"pd": 0o755}, files: []string{"pd/" + bin}, shebang: "{ROOT}/pd/python4", path: "pd/" + bin},
		{name: "script run by env",
			dirs: map[string]os.FileMode{"pd": 0o755}, files: []string{"pd/" + bin}, shebang: "/usr/bin/env python3", path: "pd/" + bin},
		{name: "CRLF #! line: the interpreter is named with its CR (campaign 8 A01)",
			dirs: map[string]os.FileMode{"pd": 0o755, "st": 0o777 | os.ModeSticky}, files: []string{"pd/" + bin, "st/py"}, shebang: "{ROOT}/st/py\r", path: "pd/" + bin,
			want: `the interpreter "{ROOT}/st/py\r" of {ROOT}/pd/bench-plugin-x: the interpreter directory {ROOT}/st is writable by every user (owner {ME}, mode 1777) and holds no "py\r": any local user could make it; install it, or name one in a directory that only you and root can write`},
		{name: "no-break space in the #! line is part of the name (A01b)",
			dirs: map[string]os.FileMode{"pd": 0o755, "st": 0o777 | os.ModeSticky}, files: []string{"pd/" + bin, "st/py"}, shebang: "{ROOT}/st/py\u00a0x", path: "pd/" + bin,
			want: `the interpreter "{ROOT}/st/py\u00a0x" of {ROOT}/pd/bench-plugin-x: the interpreter directory {ROOT}/st is writable by every user (owner {ME}, mode 1777) and holds no "py\u00a0x": any local user could make it; install it, or name one in a directory that only you and root can write`},
		{name: "vertical tab in the #! line is part of the name (A01c)",
			dirs: map[string]os.FileMode{"pd": 0o755, "st": 0o777 | os.ModeSticky}, files: []string{"pd/" + bin, "st/py"}, shebang: "{ROOT}/st/py\vx", path: "pd/" + bin,
			want: `the interpreter "{ROOT}/st/py\vx" of {ROOT}/pd/bench-plugin-x: the interpreter directory {ROOT}/st is writable by every user (owner {ME}, mode 1777) and holds no "py\vx": any local user could make it; install it, or name one in a directory that only you and root can write`},
		{name: "tab ends the name, the rest is its argument",
			dirs: map[string]os.FileMode{"pd": 0o755, "st": 0o777 | os.ModeSticky}, files: []string{"pd/" + bin, "st/py"}, shebang: "{ROOT}/st/py\t-u x", path: "pd/" + bin},
		{name: "interpreter missing from a sticky directory (A01)",
			dirs: map[string]os.FileMode{"pd": 0o755, "st": 0o777 | os.ModeSticky}, files: []string{"pd/" + bin}, shebang: "{ROOT}/st/python", path: "pd/" + bin,
			want: `the interpreter {ROOT}/st/python of {ROOT}/pd/bench-plugin-x: the interpreter directory {ROOT}/st is writable by every user (owner {ME}, mode 1777) and holds no "python": any local user could make it; install it, or name one in a directory that only you and root can write`},
		{name: "relative interpreter in a 0777 directory (A02)",
			dirs: map[string]os.FileMode{"pd": 0o755, "ww": 0o777}, files: []string{"pd/" + bin, "ww/interp"}, shebang: "ww/interp", chdir: true, path: "pd/" + bin,
			want: "the interpreter ww/interp of {ROOT}/pd/bench-plugin-x: the interpreter directory {ROOT}/ww is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace interp; chmod o-w {ROOT}/ww" + tail},
		{name: "relative interpreter in a safe directory",
			dirs: map[string]os.FileMode{"pd": 0o755, "py": 0o755}, files: []string{"pd/" + bin, "py/interp"}, shebang: "py/interp", chdir: true, path: "pd/" + bin},
		{name: "env given an absolute program in a 0777 directory (A15)",
			dirs: map[string]os.FileMode{"pd": 0o755, "ww": 0o777}, files: []string{"pd/" + bin, "ww/interp"}, shebang: "/usr/bin/env {ROOT}/ww/interp", path: "pd/" + bin,
			want: "the interpreter {ROOT}/ww/interp (run by /usr/bin/env) of {ROOT}/pd/bench-plugin-x: the interpreter directory {ROOT}/ww is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace interp; chmod o-w {ROOT}/ww" + tail},
		{name: "env -S given an absolute program in a 0777 directory",
			dirs: map[string]os.FileMode{"pd": 0o755, "ww": 0o777}, files: []string{"pd/" + bin, "ww/interp"}, shebang: "/usr/bin/env -S {ROOT}/ww/interp -u", path: "pd/" + bin,
			want: "the interpreter {ROOT}/ww/interp (run by /usr/bin/env) of {ROOT}/pd/bench-plugin-x: the interpreter directory {ROOT}/ww is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace interp; chmod o-w {ROOT}/ww" + tail},
		{name: "env given an absolute program in a safe directory",
			dirs: map[string]os.FileMode{"pd": 0o755, "py": 0o755}, files: []string{"pd/" + bin, "py/interp"}, shebang: "/usr/bin/env {ROOT}/py/interp", path: "pd/" + bin},
		{name: "env finds its program in a 0777 directory on PATH (campaign 8 A08)",
			dirs: map[string]os.FileMode{"pd": 0o755, "ww": 0o777, "py": 0o755}, files: []string{"pd/" + bin, "ww/python3", "py/python3"}, shebang: "/usr/bin/env python3", path: "pd/" + bin,
			pathEnv: "{ROOT}/ww:{ROOT}/py",
			want:    "the interpreter {ROOT}/ww/python3 (found on PATH by /usr/bin/env) of {ROOT}/pd/bench-plugin-x: the interpreter directory {ROOT}/ww is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace python3; chmod o-w {ROOT}/ww" + tail},
		{name: "a 0777 directory ahead on PATH holds no such program: one could be put there",
			dirs: map[string]os.FileMode{"pd": 0o755, "ww": 0o777, "py": 0o755}, files: []string{"pd/" + bin, "py/python3"}, shebang: "/usr/bin/env python3", path: "pd/" + bin,
			pathEnv: "{ROOT}/ww:{ROOT}/py",
			want:    "the interpreter {ROOT}/ww/python3 (found on PATH by /usr/bin/env) of {ROOT}/pd/bench-plugin-x: the interpreter directory {ROOT}/ww is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace python3; chmod o-w {ROOT}/ww" + tail},
		{name: "a 0777 directory after the match is refused (campaign 10 P05)",
			dirs: map[string]os.FileMode{"pd": 0o755, "ww": 0o777, "py": 0o755}, files: []string{"pd/" + bin, "py/python3"}, shebang: "/usr/bin/env python3", path: "pd/" + bin,
			pathEnv: "{ROOT}/py:{ROOT}/ww",
			want:    "the interpreter {ROOT}/ww/python3 (found on PATH by /usr/bin/env) of {ROOT}/pd/bench-plugin-x: the interpreter directory {ROOT}/ww is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace python3; chmod o-w {ROOT}/ww" + tail},
		{name: "the match's #! interpreter is missing: execvp goes on to a 0777 directory after it (P05)",
			dirs: map[string]os.FileMode{"pd": 0o755, "ww": 0o777, "safe": 0o755}, files: []string{"pd/" + bin, "safe/python3", "ww/python3"}, shebang: "/usr/bin/env python3", path: "pd/" + bin,
			pathEnv: "{ROOT}/safe:{ROOT}/ww", scripts: map[string]string{"safe/python3": "{ROOT}/safe/nointerp"},
			want: "the interpreter {ROOT}/ww/python3 (found on PATH by /usr/bin/env) of {ROOT}/pd/bench-plugin-x: the interpreter directory {ROOT}/ww is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace python3; chmod o-w {ROOT}/ww" + tail},
		{name: "the match's dynamic loader is missing: execvp goes on to a 0777 directory after it (P05c)",
			dirs: map[string]os.FileMode{"pd": 0o755, "ww": 0o777, "safe": 0o755}, files: []string{"pd/" + bin, "safe/python3", "ww/python3"}, shebang: "/usr/bin/env python3", path: "pd/" + bin,
			pathEnv: "{ROOT}/safe:{ROOT}/ww", elves: map[string]string{"safe/python3": "/lib/ld-missing.so"},
			want: "the interpreter {ROOT}/ww/python3 (found on PATH by /usr/bin/env) of {ROOT}/pd/bench-plugin-x: the interpreter directory {ROOT}/ww is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace python3; chmod o-w {ROOT}/ww" + tail},
		{name: "a sticky directory after the match could be given the program",
			dirs: map[string]os.FileMode{"pd": 0o755, "st": 0o777 | os.ModeSticky, "py": 0o755}, files: []string{"pd/" + bin, "py/python3"}, shebang: "/usr/bin/env python3", path: "pd/" + bin,
			pathEnv: "{ROOT}/py:{ROOT}/st",
			want:    `the interpreter {ROOT}/st/python3 (found on PATH by /usr/bin/env) of {ROOT}/pd/bench-plugin-x: the interpreter directory {ROOT}/st is writable by every user (owner {ME}, mode 1777) and holds no "python3": any local user could make it; install it, or name one in a directory that only you and root can write`},
		{name: "safe directories after the match, one holding the program too, and one missing",
			dirs: map[string]os.FileMode{"pd": 0o755, "py": 0o755, "py2": 0o755}, files: []string{"pd/" + bin, "py/python3", "py2/python3"}, shebang: "/usr/bin/env python3", path: "pd/" + bin,
			pathEnv: "{ROOT}/py:{ROOT}/py2:{ROOT}/nodir"},
		{name: "only the match's interpreter is followed, not a later program's",
			dirs: map[string]os.FileMode{"pd": 0o755, "py": 0o755, "py2": 0o755, "ww": 0o777}, files: []string{"pd/" + bin, "py/python3", "py2/python3"}, shebang: "/usr/bin/env python3", path: "pd/" + bin,
			pathEnv: "{ROOT}/py:{ROOT}/py2", scripts: map[string]string{"py2/python3": "{ROOT}/ww/interp"}},
		{name: "a file of the name that is not executable is passed over, as execvp does",
			dirs: map[string]os.FileMode{"pd": 0o755, "ww": 0o777, "py": 0o755}, files: []string{"pd/" + bin, "py/python3", "ww/python3"}, shebang: "/usr/bin/env python3", path: "pd/" + bin,
			pathEnv: "{ROOT}/py:{ROOT}/ww", noexec: []string{"py/python3"},
			want: "the interpreter {ROOT}/ww/python3 (found on PATH by /usr/bin/env) of {ROOT}/pd/bench-plugin-x: the interpreter directory {ROOT}/ww is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace python3; chmod o-w {ROOT}/ww" + tail},
		{name: "env -i looks in /bin:/usr/bin, not in PATH",
			dirs: map[string]os.FileMode{"pd": 0o755, "ww": 0o777}, files: []string{"pd/" + bin, "ww/sh"}, shebang: "/usr/bin/env -S -i sh", path: "pd/" + bin,
			pathEnv: "{ROOT}/ww"},
		{name: "env -u PATH looks in /bin:/usr/bin, not in PATH",
			dirs: map[string]os.FileMode{"pd": 0o755, "ww": 0o777}, files: []string{"pd/" + bin, "ww/sh"}, shebang: "/usr/bin/env -S --unset=PATH sh", path: "pd/" + bin,
			pathEnv: "{ROOT}/ww"},
		{name: "env -u of another variable looks in PATH",
			dirs: map[string]os.FileMode{"pd": 0o755, "ww": 0o777}, files: []string{"pd/" + bin, "ww/sh"}, shebang: "/usr/bin/env -S -u HOME sh", path: "pd/" + bin,
			pathEnv: "{ROOT}/ww",
			want:    "the interpreter {ROOT}/ww/sh (found on PATH by /usr/bin/env) of {ROOT}/pd/bench-plugin-x: the interpreter directory {ROOT}/ww is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace sh; chmod o-w {ROOT}/ww" + tail},
		{name: "env given PATH= is refused as unclear",
			dirs: map[string]os.FileMode{"pd": 0o755, "py": 0o755}, files: []string{"pd/" + bin, "py/python3"}, shebang: "/usr/bin/env -S PATH={ROOT}/py python3", path: "pd/" + bin,
			want: `plugin binary {ROOT}/pd/bench-plugin-x: cannot tell which program /usr/bin/env runs from its argument "-S PATH={ROOT}/py python3"; name the interpreter's path on the #! line`},
		{name: "an empty PATH is the working directory, as execvp takes it",
			dirs: map[string]os.FileMode{"pd": 0o755}, files: []string{"pd/" + bin, "python3"}, shebang: "/usr/bin/env python3", path: "pd/" + bin,
			pathEnv: emptyPATH, chdir: true, gives: []string{"python3"},
			want: "the interpreter python3 (found on PATH by /usr/bin/env) of {ROOT}/pd/bench-plugin-x: {ROOT}/python3 is owned by {OTHER}, not by root or you ({ME}): its owner could change the program bench runs; chown {MEC} {ROOT}/python3" + tail},
		{name: "env's program on PATH of another user",
			dirs: map[string]os.FileMode{"pd": 0o755, "py": 0o755}, files: []string{"pd/" + bin, "py/python3"}, shebang: "/usr/bin/env python3", path: "pd/" + bin,
			pathEnv: "{ROOT}/py", gives: []string{"py/python3"},
			want: "the interpreter {ROOT}/py/python3 (found on PATH by /usr/bin/env) of {ROOT}/pd/bench-plugin-x: {ROOT}/py/python3 is owned by {OTHER}, not by root or you ({ME}): its owner could change the program bench runs; chown {MEC} {ROOT}/py/python3" + tail},
		{name: "a PATH entry that is a file is passed over, as execvp does (campaign 10b V01b)",
			dirs: map[string]os.FileMode{"pd": 0o755, "py": 0o755}, files: []string{"pd/" + bin, "afile", "py/python3"}, shebang: "/usr/bin/env python3", path: "pd/" + bin,
			pathEnv: "{ROOT}/afile:{ROOT}/py"},
		{name: "a PATH entry that is another user's file in a sticky directory: its owner could make it a directory (campaign 10c V37r)",
			dirs: map[string]os.FileMode{"pd": 0o755, "st": 0o777 | os.ModeSticky, "py": 0o755}, files: []string{"pd/" + bin, "st/afile", "py/python3"}, shebang: "/usr/bin/env python3", path: "pd/" + bin,
			pathEnv: "{ROOT}/st/afile:{ROOT}/py", gives: []string{"st/afile"},
			want: "the interpreter {ROOT}/st/afile/python3 (found on PATH by /usr/bin/env) of {ROOT}/pd/bench-plugin-x: {ROOT}/st/afile is owned by {OTHER}, not by root or you ({ME}): its owner could replace it with a directory; chown {MEC} {ROOT}/st/afile" + tail},
		{name: "a PATH directory holding a directory of the program's name is passed over, as execvp does (review)",
			dirs: map[string]os.FileMode{"pd": 0o755, "a": 0o755, "a/python3": 0o755, "py": 0o755}, files: []string{"pd/" + bin, "py/python3"}, shebang: "/usr/bin/env python3", path: "pd/" + bin,
			pathEnv: "{ROOT}/a:{ROOT}/py"},
		{name: "env given an option it cannot be told what runs from",
			dirs: map[string]os.FileMode{"pd": 0o755}, files: []string{"pd/" + bin}, shebang: "/usr/bin/env -v python3", path: "pd/" + bin,
			want: `plugin binary {ROOT}/pd/bench-plugin-x: cannot tell which program /usr/bin/env runs from its argument "-v python3"; name the interpreter's path on the #! line`},
		{name: "ELF binary whose dynamic loader is in a 0777 directory (A11)",
			dirs: map[string]os.FileMode{"pd": 0o755, "ww": 0o777}, files: []string{"pd/" + bin, "ww/ld.so"}, loader: "{ROOT}/ww/ld.so", path: "pd/" + bin,
			want: "the dynamic loader {ROOT}/ww/ld.so of {ROOT}/pd/bench-plugin-x: the dynamic loader directory {ROOT}/ww is writable by every user without the sticky bit (owner {ME}, mode 0777): any local user could replace ld.so; chmod o-w {ROOT}/ww" + tail},
		{name: "ELF binary whose dynamic loader is another user's",
			dirs: map[string]os.FileMode{"pd": 0o755, "lib": 0o755}, files: []string{"pd/" + bin, "lib/ld.so"}, loader: "{ROOT}/lib/ld.so", path: "pd/" + bin, gives: []string{"lib/ld.so"},
			want: "the dynamic loader {ROOT}/lib/ld.so of {ROOT}/pd/bench-plugin-x: {ROOT}/lib/ld.so is owned by {OTHER}, not by root or you ({ME}): its owner could change the program bench runs; chown {MEC} {ROOT}/lib/ld.so" + tail},
		{name: "ELF binary whose dynamic loader is safe",
			dirs: map[string]os.FileMode{"pd": 0o755, "lib": 0o755}, files: []string{"pd/" + bin, "lib/ld.so"}, loader: "{ROOT}/lib/ld.so", path: "pd/" + bin},
		{name: "a loop of links",
			dirs: map[string]os.FileMode{"pd": 0o755}, links: map[string]string{"pd/a": "b", "pd/b": "a"}, path: "pd/a",
			want: "plugin binary {ROOT}/pd/a: more than 40 links on the way (a loop?)"},
		{name: "a file on the way",
			dirs: map[string]os.FileMode{"pd": 0o755}, files: []string{"pd/f"}, path: "pd/f/" + bin,
			want: "plugin binary {ROOT}/pd/f/bench-plugin-x: {ROOT}/pd/f is not a directory"},
	}
	me := os.Geteuid()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			chmod(t, root, 0o755)
			mk(t, root, c.dirs, c.files, c.fmode, c.shebang, c.loader, c.links)
			if c.chdir {
				t.Chdir(root)
			}
			for _, f := range c.noexec {
				chmod(t, filepath.Join(root, f), 0o644)
			}
			for f, line := range c.scripts {
				if err := os.WriteFile(filepath.Join(root, f), []byte("#!"+strings.ReplaceAll(line, "{ROOT}", root)+"\n"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for f, loader := range c.elves {
				if err := os.WriteFile(filepath.Join(root, f), elfNaming(t, strings.ReplaceAll(loader, "{ROOT}", root)), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			switch c.pathEnv {
			case "":
			case emptyPATH:
				t.Setenv("PATH", "")
			default:
				t.Setenv("PATH", strings.ReplaceAll(c.pathEnv, "{ROOT}", root))
			}
			var gives []give
			for _, p := range c.gives {
				gives = append(gives, give{filepath.Join(root, p), other, -1})
			}
			for _, p := range c.group {
				gives = append(gives, give{filepath.Join(root, p), -1, other})
			}
			path := filepath.Join(root, c.path)
			if strings.Contains(c.path, "..") || strings.Contains(c.path, "./") {
				path = root + "/" + c.path
			}
			err := runningUser().checkWith(path, path, ownedLstat(t, gives))
			want := strings.NewReplacer("{ROOT}", root, "{ME}", userName(me), "{MEC}", chownTo(me), "{OTHER}", userName(other), "{GROUP}", groupName(other)).Replace(c.want)
			if got := fmt.Sprint(err); (want == "" && err != nil) || (want != "" && got != want) {
				t.Fatalf("got  %v\nwant %s", err, want)
			}
		})
	}
}

// sortedKeys returns the directories of m, parents first.
func sortedKeys(m map[string]os.FileMode) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// elfNaming returns a 64-bit little-endian ELF executable with one program
// header, PT_INTERP, naming loader: enough for debug/elf and the check.
func elfNaming(t *testing.T, loader string) []byte {
	t.Helper()
	var b bytes.Buffer
	const ehsize, phsize = 64, 56
	hdr := elf.Header64{Type: uint16(elf.ET_EXEC), Machine: uint16(elf.EM_X86_64), Version: uint32(elf.EV_CURRENT),
		Phoff: ehsize, Ehsize: ehsize, Phentsize: phsize, Phnum: 1}
	copy(hdr.Ident[:], elf.ELFMAG)
	hdr.Ident[elf.EI_CLASS] = byte(elf.ELFCLASS64)
	hdr.Ident[elf.EI_DATA] = byte(elf.ELFDATA2LSB)
	hdr.Ident[elf.EI_VERSION] = byte(elf.EV_CURRENT)
	name := append([]byte(loader), 0)
	prog := elf.Prog64{Type: uint32(elf.PT_INTERP), Flags: uint32(elf.PF_R), Off: ehsize + phsize,
		Filesz: uint64(len(name)), Memsz: uint64(len(name)), Align: 1}
	for _, v := range []any{hdr, prog} {
		if err := binary.Write(&b, binary.LittleEndian, v); err != nil {
			t.Fatal(err)
		}
	}
	b.Write(name)
	return b.Bytes()
}

// TestRelativePathFromTheRealDirectory: a relative path is checked from
// the working directory's real path, its ".." taken there, as the kernel
// runs it. Working in home/a, which $PWD names through the link home/a ->
// real/a, "../plugins/x" runs real/plugins/x (in a directory every user
// may write): refused, though home/plugins/x, where filepath.Abs would
// put it, is safe.
func TestRelativePathFromTheRealDirectory(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"real/a", "real/plugins", "home/plugins"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"real/plugins", "home/plugins"} {
		if err := os.WriteFile(filepath.Join(root, d, "x"), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	chmod(t, filepath.Join(root, "real/plugins"), 0o777)
	if err := os.Symlink(filepath.Join(root, "real/a"), filepath.Join(root, "home/a")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(root, "home/a"))
	t.Setenv("PWD", filepath.Join(root, "home/a"))
	if wd, _ := os.Getwd(); wd != filepath.Join(root, "home/a") {
		t.Fatalf("the working directory reads %s, not the link's path", wd)
	}
	err = runningUser().check("../plugins/x")
	if want := filepath.Join(root, "real/plugins") + " is writable by every user"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("check(../plugins/x) = %v, want an error saying %q", err, want)
	}
	if err := runningUser().check(filepath.Join(root, "home/plugins/x")); err != nil {
		t.Errorf("the safe binary by its absolute path: %v", err)
	}
}
