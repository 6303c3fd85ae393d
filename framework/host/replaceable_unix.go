//go:build unix

package host

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/polyclass/polyclass/framework/safetext"
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
	abs, err := physicalAbs(path)
	if err != nil {
		return fmt.Errorf("plugin binary: %w", err)
	}
	return t.checkWith(abs, path, os.Lstat)
}

// walkTo checks the absolute path abs, named path in messages, with
// lstat, and returns the binary's path with its links resolved; kind
// names the binary's directory in messages ("the plugin directory").
func (t trust) walkTo(abs, path, kind string, lstat func(string) (fs.FileInfo, error)) (string, error) {
	return t.newWalk(path, kind, lstat).start(abs)
}

// newWalk returns a walk to a program named path in messages, whose
// directory is the kind directory ("the plugin directory").
func (t trust) newWalk(path, kind string, lstat func(string) (fs.FileInfo, error)) *walk {
	return &walk{trust: t, lstat: lstat, target: path, kind: kind, subject: "plugin binary",
		advice: "move the plugin to a directory that only you and root can write"}
}

// start walks the absolute path abs from /.
func (w *walk) start(abs string) (string, error) {
	w.dir = "/"
	var err error
	if w.dirInfo, err = w.lstat(w.dir); err != nil {
		return "", fmt.Errorf("%s: %w", w.subject, err)
	}
	return w.run(splitPath(abs))
}

// checkTempDir refuses the temporary directory tmp, in which entry is to
// be made, with lstat, if anyone but root and the user could replace it
// or rename entry out of it: the walk of check, to tmp, and tmp held to
// the rule of the directories on the way (owned by root or the user,
// writable by others only with the sticky bit).
func (t trust) checkTempDir(tmp, entry string, lstat func(string) (fs.FileInfo, error)) error {
	abs, err := physicalAbs(tmp)
	if err != nil {
		return fmt.Errorf("temporary directory: %w", err)
	}
	w := t.newWalk(tmp, "temporary", lstat)
	w.subject, w.wantDir, w.entry = "temporary directory", true, entry
	w.advice = "set TMPDIR to a directory that only you can write"
	_, err = w.start(abs)
	return err
}

// checkLibraryDir refuses the directory abs, named path in messages, in
// which the dynamic loader looks for a plugin's libraries, if anyone but
// root and the user could put a library in it: the walk to it as to any
// directory, and the directory itself writable by no one else, sticky or
// not (anyone may make a new name in /tmp). A directory that does not
// exist is passed over, as the loader passes it over, where no one else
// may make it.
func (t trust) checkLibraryDir(abs, path string, lstat func(string) (fs.FileInfo, error)) error {
	w := t.newWalk(path, "library", lstat)
	w.subject, w.wantDir, w.entry = "library directory", true, "a library"
	w.advice = "drop the directory from the binary's RUNPATH"
	if _, err := w.start(abs); err != nil {
		return err
	}
	fix, who := w.writers(w.dirInfo)
	if who == "" {
		return nil
	}
	return fmt.Errorf("%s is writable by %s (owner %s, mode %s): %s could put a library in it that the plugin would load; chmod %s %s, or %s",
		showPath(w.dir), who, w.ownerName(w.dirInfo), mode(w.dirInfo.Mode()), subject(who), fix, showPath(w.dir), w.advice)
}

// errNotDir marks a walk that met a file where its path goes on: the
// entry a search (PATH, RUNPATH) skips, as execvp and the dynamic loader
// do (ENOTDIR). Its text is empty: the message says it already.
var errNotDir = errnoMark{syscall.ENOTDIR}

// errNotRegular marks a walk whose target is no regular file (a
// directory, a FIFO): the entry execvp passes over in a PATH search
// (EACCES). Its text is empty: the message says it already.
var errNotRegular = errnoMark{syscall.EACCES}

// errnoMark is an error with an empty text that is its errno to
// errors.Is: a mark added with %w to a message that says it already.
type errnoMark struct{ errno syscall.Errno }

func (errnoMark) Error() string { return "" }

// Is reports whether target is the mark's errno.
func (m errnoMark) Is(target error) bool { return target == m.errno }

// walk is the state of one check: the directory reached (a real path,
// no link in it) and the components still to take from it.
type walk struct {
	trust
	lstat   func(string) (fs.FileInfo, error)
	target  string // the path the check was asked about, for messages
	kind    string // "plugin" or "interpreter", for messages
	subject string // what target is, for messages: "plugin binary"
	advice  string // the other fix, for messages: "move the plugin …"
	// wantDir: the target is a directory, in which entry is to be made
	// (checkTempDir), not a program.
	wantDir bool
	entry   string
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
			// Missing: no one else may make it when no one else may
			// write its directory, sticky or not.
			if err := w.checkMissing(c, len(todo) == 0); err != nil {
				return "", err
			}
		}
		if err != nil {
			return "", fmt.Errorf("%s: %w", w.subject, err)
		}
		isLink := fi.Mode()&fs.ModeSymlink != 0
		last := len(todo) == 0 && !isLink && !w.wantDir
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
			// A search passes a file over (errNotDir), unless someone
			// but root and the user could make a directory of its name:
			// in a directory others may write (with the sticky bit, or
			// checkDir refused it), the file's owner may remove it
			// (campaign 10c V37r: another user's file in /tmp, swapped
			// for a directory holding python3 between the check and the
			// start).
			if _, byOthers := w.writers(w.dirInfo); byOthers != "" {
				if err := w.checkOwner(next, fi, next, "replace it with a directory"); err != nil {
					return "", err
				}
			}
			return "", fmt.Errorf("%s %s: %s is not a directory%w", w.subject, w.target, next, errNotDir)
		}
		w.dir, w.dirInfo = next, fi
	}
	if w.wantDir {
		return w.dir, w.checkDir(w.entry, true)
	}
	return "", fmt.Errorf("%s %s: names a directory, not a program", w.subject, w.target)
}

// enter makes dir (a real path) the directory reached.
func (w *walk) enter(dir string) error {
	fi, err := w.lstat(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", w.subject, err)
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
		return nil, fmt.Errorf("%s %s: more than %d links on the way (a loop?)", w.subject, w.target, maxLinks)
	}
	if _, byOthers := w.writers(w.dirInfo); byOthers != "" {
		if err := w.checkOwner(p, fi, "the link "+p, "point it elsewhere"); err != nil {
			return nil, err
		}
	}
	dest, err := os.Readlink(p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", w.subject, err)
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
	what := w.where(last)
	if err := w.checkOwner(w.dir, w.dirInfo, what, "replace "+name+" in it"); err != nil {
		return err
	}
	fix, who := w.writers(w.dirInfo)
	if who == "" || w.dirInfo.Mode()&fs.ModeSticky != 0 {
		return nil
	}
	return fmt.Errorf("%s is writable by %s without the sticky bit (owner %s, mode %s): %s could replace %s; chmod %s %s, or %s",
		what, who, w.ownerName(w.dirInfo), mode(w.dirInfo.Mode()), subject(who), name, fix, showPath(w.dir), w.advice)
}

// checkMissing refuses the directory reached, which holds no entry name,
// if anyone but root and the user could make name in it: as checkDir,
// and those who may write it even with the sticky bit (anyone may make a
// new name in /tmp).
func (w *walk) checkMissing(name string, last bool) error {
	if err := w.checkDir(name, last); err != nil {
		return err
	}
	what := w.where(last)
	_, who := w.writers(w.dirInfo)
	if who == "" {
		return nil
	}
	return fmt.Errorf("%s is writable by %s (owner %s, mode %s) and holds no %s: %s could make it; install it, or name one in a directory that only you and root can write",
		what, who, w.ownerName(w.dirInfo), mode(w.dirInfo.Mode()), safetext.Show(name), subject(who))
}

// where describes the directory reached for a message about its entry:
// "the plugin directory D" for the last one, else "the directory D, on
// the way to T,".
func (w *walk) where(last bool) string {
	if last {
		return "the " + w.kind + " directory " + showPath(w.dir)
	}
	return fmt.Sprintf("the directory %s, on the way to %s,", showPath(w.dir), showPath(w.target))
}

// checkBinary refuses the binary p unless it is a regular file of root's
// or the user's that no one else may write.
func (w *walk) checkBinary(p string, fi fs.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (%s)%w", p, fileKind(fi.Mode()), errNotRegular)
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
	return fmt.Errorf("%s is owned by %s, not by root or you (%s): its owner could %s; %s %s %s, or %s",
		what, userName(uid), userName(w.uid), could, chown, chownTo(w.uid), showPath(p), w.advice)
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

// physicalAbs returns path from / as the kernel resolves it: an absolute
// path as it is, a relative one after the working directory's real path
// (its links resolved), with its ".." left for the walk to take from the
// directory it reaches. filepath.Abs starts from $PWD, which may run
// through a link, and drops ".." as text: the path checked would not be
// the path run.
func physicalAbs(path string) (string, error) {
	if filepath.IsAbs(path) {
		return path, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(wd)
	if err != nil {
		return "", err
	}
	return real + "/" + path, nil
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
