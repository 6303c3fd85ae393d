//go:build unix

package host

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// maxLinks bounds the links followed on the way to a plugin binary, as
// Linux's MAXSYMLINKS bounds a path lookup.
const maxLinks = 40

// replaceable refuses, as ssh's StrictModes refuses a key file, a plugin
// binary that another local user could change or replace (trust.check),
// for the user bench runs as.
func replaceable(path string) error {
	return runningUser().check(path)
}

// trust names who may change what bench runs: root, the user bench runs
// as (uid), and the members of bench's own group (gid, -1 for none).
type trust struct {
	uid, gid int
}

// runningUser trusts root, bench's effective user and its effective
// group (on most systems a group of that user alone).
func runningUser() trust {
	return trust{uid: os.Geteuid(), gid: os.Getegid()}
}

// check resolves path one component at a time, from / (or the working
// directory) down, following each link from the directory it is in, and
// refuses the binary if anyone but root and the running user could
// change any step of the way: every directory on the way (a link's
// directory included) and the binary must be owned by root or the user
// and writable by no one else (by bench's own group at most); a
// directory others may write is accepted with the sticky bit (as /tmp),
// which keeps them from renaming what they do not own, when the entry
// taken in it is owned by root or the user.
func (t trust) check(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("plugin binary: %w", err)
	}
	return t.checkWith(abs, path, os.Lstat)
}

// maxInterpreters bounds the interpreters checked after a script: a
// script's interpreter may be a script itself (Linux runs 4 levels).
const maxInterpreters = 4

// checkWith checks the absolute path abs, named path in messages, with
// lstat; then, when the binary is a script (#!), its interpreter, the
// program the kernel runs: a Python plugin's python in a directory
// others may write is as replaceable as the plugin. An interpreter found
// on PATH (#!/usr/bin/env python3) is checked as env only.
func (t trust) checkWith(abs, path string, lstat func(string) (fs.FileInfo, error)) error {
	real, err := t.walkTo(abs, path, "plugin", lstat)
	for range maxInterpreters {
		if err != nil {
			return err
		}
		interp := interpreter(real)
		if interp == "" {
			return nil
		}
		var next string
		next, err = t.walkTo(interp, interp, "interpreter", lstat)
		if errors.Is(err, fs.ErrNotExist) {
			return nil // where no one else may make it: the start says it is missing
		}
		if err != nil {
			err = fmt.Errorf("the interpreter %s of %s: %w", interp, real, err)
		}
		real = next
	}
	if err == nil && interpreter(real) != "" {
		err = fmt.Errorf("plugin binary %s: more than %d interpreters of scripts", path, maxInterpreters)
	}
	return err
}

// walkTo checks the absolute path abs, named path in messages, with
// lstat, and returns the binary's path with its links resolved; kind
// names the binary's directory in messages ("the plugin directory").
func (t trust) walkTo(abs, path, kind string, lstat func(string) (fs.FileInfo, error)) (string, error) {
	w := walk{trust: t, lstat: lstat, target: path, kind: kind, dir: "/"}
	var err error
	if w.dirInfo, err = lstat(w.dir); err != nil {
		return "", fmt.Errorf("plugin binary: %w", err)
	}
	return w.run(splitPath(abs))
}

// interpreter returns the interpreter a script at path names on its #!
// line, "" for none (a binary, a file that cannot be read, a relative
// interpreter, which the kernel resolves from the working directory).
func interpreter(path string) string {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	line, _, _ := strings.Cut(string(head[:n]), "\n")
	rest, ok := strings.CutPrefix(line, "#!")
	if !ok {
		return ""
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 || !filepath.IsAbs(fields[0]) {
		return ""
	}
	return fields[0]
}

// walk is the state of one check: the directory reached (a real path,
// no link in it) and the components still to take from it.
type walk struct {
	trust
	lstat   func(string) (fs.FileInfo, error)
	target  string      // the path the check was asked about, for messages
	kind    string      // "plugin" or "interpreter", for messages
	dir     string      // the directory reached
	dirInfo fs.FileInfo // its Lstat
	links   int         // links followed so far
}

// run takes the components todo one at a time from w.dir, and returns
// the binary's path, its links resolved.
func (w *walk) run(todo []string) (string, error) {
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		if c == ".." {
			if err := w.enter(filepath.Dir(w.dir)); err != nil {
				return "", err
			}
			continue
		}
		next := filepath.Join(w.dir, c)
		fi, err := w.lstat(next)
		if errors.Is(err, fs.ErrNotExist) {
			// Missing: no one else may make it when its directory is safe.
			if err := w.checkDir(c, len(todo) == 0); err != nil {
				return "", err
			}
		}
		if err != nil {
			return "", fmt.Errorf("plugin binary: %w", err)
		}
		isLink := fi.Mode()&fs.ModeSymlink != 0
		last := len(todo) == 0 && !isLink
		if err := w.checkDir(c, last); err != nil {
			return "", err
		}
		if isLink {
			more, err := w.follow(next, fi)
			if err != nil {
				return "", err
			}
			todo = append(more, todo...)
			continue
		}
		if last {
			return next, w.checkBinary(next, fi)
		}
		if !fi.IsDir() {
			return "", fmt.Errorf("plugin binary %s: %s is not a directory", w.target, next)
		}
		w.dir, w.dirInfo = next, fi
	}
	return "", fmt.Errorf("plugin binary %s: names a directory, not a program", w.target)
}

// enter makes dir (a real path) the directory reached.
func (w *walk) enter(dir string) error {
	fi, err := w.lstat(dir)
	if err != nil {
		return fmt.Errorf("plugin binary: %w", err)
	}
	w.dir, w.dirInfo = dir, fi
	return nil
}

// follow reads the link at p and returns the components it leads to,
// starting again from / for an absolute link; a relative one is followed
// from the link's directory. In a directory that others may write (with
// the sticky bit, or checkDir refused it), the link must be root's or
// the user's: its owner could point it elsewhere.
func (w *walk) follow(p string, fi fs.FileInfo) ([]string, error) {
	w.links++
	if w.links > maxLinks {
		return nil, fmt.Errorf("plugin binary %s: more than %d links on the way (a loop?)", w.target, maxLinks)
	}
	if _, byOthers := w.writers(w.dirInfo); byOthers != "" {
		if err := w.checkOwner(p, fi, "the link "+p, "point it elsewhere"); err != nil {
			return nil, err
		}
	}
	dest, err := os.Readlink(p)
	if err != nil {
		return nil, fmt.Errorf("plugin binary: %w", err)
	}
	if filepath.IsAbs(dest) {
		if err := w.enter("/"); err != nil {
			return nil, err
		}
	}
	return splitPath(dest), nil
}

// checkDir refuses the directory reached if anyone but root and the user
// could replace its entry name: its owner, or those who may write it
// without the sticky bit.
func (w *walk) checkDir(name string, last bool) error {
	what := fmt.Sprintf("the directory %s, on the way to %s,", w.dir, w.target)
	if last {
		what = "the " + w.kind + " directory " + w.dir
	}
	if err := w.checkOwner(w.dir, w.dirInfo, what, "replace "+name+" in it"); err != nil {
		return err
	}
	fix, who := w.writers(w.dirInfo)
	if who == "" || w.dirInfo.Mode()&fs.ModeSticky != 0 {
		return nil
	}
	return fmt.Errorf("%s is writable by %s without the sticky bit (owner %s, mode %s): %s could replace %s; chmod %s %s, or move the plugin to a directory that only you and root can write",
		what, who, w.ownerName(w.dirInfo), mode(w.dirInfo.Mode()), subject(who), name, fix, w.dir)
}

// checkBinary refuses the binary p unless it is a regular file of root's
// or the user's that no one else may write.
func (w *walk) checkBinary(p string, fi fs.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (%s)", p, fileKind(fi.Mode()))
	}
	if err := w.checkOwner(p, fi, p, "change the program bench runs"); err != nil {
		return err
	}
	fix, who := w.writers(fi)
	if who == "" {
		return nil
	}
	return fmt.Errorf("%s is writable by %s (mode %s): %s could change the program bench runs; chmod %s %s", p, who, mode(fi.Mode()), subject(who), fix, p)
}

// checkOwner refuses p, described as what, unless root or the user owns
// it: its owner could do what the owner could do.
func (w *walk) checkOwner(p string, fi fs.FileInfo, what, could string) error {
	uid, _, ok := fileOwner(fi)
	if !ok || uid == 0 || uid == w.uid {
		return nil
	}
	chown := "chown"
	if fi.Mode()&fs.ModeSymlink != 0 {
		chown = "chown -h"
	}
	return fmt.Errorf("%s is owned by %s, not by root or you (%s): its owner could %s; %s %s %s, or move the plugin to a directory that only you and root can write",
		what, userName(uid), userName(w.uid), could, chown, chownTo(w.uid), p)
}

// writers says who besides root and the user may write a file of mode
// fi: "" for no one, else "every user" (o+w) or "group NAME" (g+w of a
// group other than bench's), with the chmod argument that stops them.
func (w *walk) writers(fi fs.FileInfo) (fix, who string) {
	perm := fi.Mode().Perm()
	if perm&0o002 != 0 {
		return "o-w", "every user"
	}
	if _, gid, ok := fileOwner(fi); ok && perm&0o020 != 0 && gid != w.gid {
		return "g-w", "group " + groupName(gid)
	}
	return "", ""
}

// subject turns who into the subject of "could": "any local user"
// for every user, "its members" for a group.
func subject(who string) string {
	if who == "every user" {
		return "any local user"
	}
	return "the members of " + who
}

// splitPath returns the components of p, without empty ones and ".":
// the walk starts an absolute p from /.
func splitPath(p string) []string {
	var out []string
	for _, c := range strings.Split(p, "/") {
		if c != "" && c != "." {
			out = append(out, c)
		}
	}
	return out
}

// fileOwner returns the owner and group of fi.
func fileOwner(fi fs.FileInfo) (uid, gid int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return int(st.Uid), int(st.Gid), true
}

// userName writes uid as "name (uid N)", or "uid N" for a uid without a
// name.
func userName(uid int) string {
	id := strconv.Itoa(uid)
	if u, err := user.LookupId(id); err == nil {
		return u.Username + " (uid " + id + ")"
	}
	return "uid " + id
}

// chownTo is the chown argument that gives a file to uid: its name, or
// the number.
func chownTo(uid int) string {
	id := strconv.Itoa(uid)
	if u, err := user.LookupId(id); err == nil {
		return u.Username
	}
	return id
}

// groupName writes gid as its name, or "gid N".
func groupName(gid int) string {
	id := strconv.Itoa(gid)
	if g, err := user.LookupGroupId(id); err == nil {
		return g.Name
	}
	return "gid " + id
}

// ownerName writes the owner of fi for a message: "root (uid 0)".
func (w *walk) ownerName(fi fs.FileInfo) string {
	uid, _, ok := fileOwner(fi)
	if !ok {
		return "unknown"
	}
	return userName(uid)
}

// mode writes a file mode as chmod takes it: 0755, 1777.
func mode(m fs.FileMode) string {
	n := uint32(m.Perm())
	if m&fs.ModeSticky != 0 {
		n |= 0o1000
	}
	return fmt.Sprintf("%04o", n)
}
