//go:build unix

package host

import (
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// maxInterpreters bounds the interpreters checked after a script: a
// script's interpreter may be a script itself (Linux runs 4 levels).
const maxInterpreters = 4

// checkWith checks the absolute path abs, named path in messages, with
// lstat; then the programs the kernel runs to run it, checked the same
// way: a script's interpreter (#!), an ELF binary's dynamic loader
// (PT_INTERP), and the program that #!/usr/bin/env runs when it is named
// by a path; a Python plugin's python in a directory others may write is
// as replaceable as the plugin. What the dynamic loader loads for an ELF
// one (its library directories and libraries) is checked too
// (checkLibraries). A relative one is taken from the working
// directory, as the kernel takes it (the plugin's is bench's). A program
// that env finds on PATH (#!/usr/bin/env python3) is looked for as env
// looks for it, and every directory of PATH, before the one holding it
// or after, is held to the interpreter directory's rule: one that others
// may write is refused whether it holds the program or not (a program
// put there later would run instead: one ahead of the one found, or one
// after it when the one found cannot start and execvp goes on).
func (t trust) checkWith(abs, path string, lstat func(string) (fs.FileInfo, error)) error {
	real, err := t.walkTo(abs, path, "plugin", lstat)
	if err != nil {
		return err
	}
	return t.checkRunners(real, path, 0, lstat)
}

// runner is a program the kernel (or env) runs to run a file.
type runner struct {
	path string // as named: on the #! line, in PT_INTERP, to env
	what string // for messages: "interpreter", "dynamic loader"
	via  string // the env that runs it, for messages; "" for the kernel
	// follow: what runs it is checked in turn (not for a dynamic
	// loader, whose own PT_INTERP the kernel ignores).
	follow bool
	// search, when set, is the PATH in which env looks for path, a
	// name without a slash; onPath marks the path found there.
	search string
	onPath bool
	// dir: a directory in which the dynamic loader looks for libraries
	// (DT_RPATH, DT_RUNPATH), not a program.
	dir bool
	// note, when set, says more of path in messages: "an empty
	// DT_RUNPATH entry: the working directory".
	note string
}

// checkRunners checks what the dynamic loader loads for prog, an ELF
// binary (checkLibraries), and the programs that run prog (runners), and
// theirs, depth scripts deep; path names the plugin in messages.
func (t trust) checkRunners(prog, path string, depth int, lstat func(string) (fs.FileInfo, error)) error {
	rs, script, err := runners(prog)
	if err != nil {
		return fmt.Errorf("plugin binary %s: %w", showPath(prog), err)
	}
	if script && depth == maxInterpreters {
		return fmt.Errorf("plugin binary %s: more than %d interpreters of scripts", path, maxInterpreters)
	}
	if err := t.checkLibraries(prog, lstat); err != nil {
		return err
	}
	for _, r := range rs {
		r, next, err := t.findRunner(r, lstat)
		if errors.Is(err, fs.ErrNotExist) {
			continue // where no one else may make it: the start says it is missing
		}
		if err != nil {
			return fmt.Errorf("%s of %s: %w", r, showPath(prog), err)
		}
		if r.follow {
			if err := t.checkRunners(next, path, depth+1, lstat); err != nil {
				return err
			}
		}
	}
	return nil
}

// findRunner checks the runner r and returns it, with its path with its
// links resolved; one that env looks for on PATH is looked for there as
// execvp does (the first directory holding an executable of its name,
// an empty entry the working directory), and returned with its path in
// it. Every directory of that PATH is checked, those after the one
// holding it too, each for its entry of that name (refused when others
// may write the directory, whether it holds the name or not): glibc's
// execvp goes on to the next directory when the program found cannot
// start (its #! interpreter or its dynamic loader missing: ENOENT; also
// EACCES, ENOTDIR, ESTALE, ENODEV, ETIMEDOUT), so a program put in a
// later one would run instead.
func (t trust) findRunner(r runner, lstat func(string) (fs.FileInfo, error)) (runner, string, error) {
	if r.search == "" {
		next, err := t.walkRunner(r, lstat)
		return r, next, err
	}
	found, foundPath := r, ""
	for _, dir := range filepath.SplitList(r.search) {
		if dir == "" {
			dir = "."
		}
		c := r
		c.path, c.search, c.onPath = filepath.Join(dir, r.path), "", true
		next, err := t.walkRunner(c, lstat)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.EACCES) {
			continue // as execvp, which passes over a PATH entry that is a file, or an entry of the name that is a directory
		}
		if err != nil {
			return c, "", err
		}
		if foundPath == "" && executable(next) {
			found, foundPath = c, next
		}
	}
	if foundPath == "" {
		return r, "", fs.ErrNotExist
	}
	return found, foundPath, nil
}

// executable reports whether path is a file execvp would run: a regular
// file with an execute bit.
func executable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// walkRunner checks the runner r, a relative one from the working
// directory, and returns its path with its links resolved.
func (t trust) walkRunner(r runner, lstat func(string) (fs.FileInfo, error)) (string, error) {
	abs, err := physicalAbs(r.path)
	if err != nil {
		return "", err
	}
	if r.dir {
		return "", t.checkLibraryDir(abs, r.path, lstat)
	}
	return t.walkTo(abs, r.path, r.what, lstat)
}

// String names r in messages: "the interpreter /usr/bin/python3 (run by
// /usr/bin/env)".
func (r runner) String() string {
	s := "the " + r.what + " " + showPath(r.path)
	switch {
	case r.via != "" && r.onPath:
		s += " (found on PATH by " + showPath(r.via) + ")"
	case r.via != "":
		s += " (run by " + showPath(r.via) + ")"
	case r.note != "":
		s += " (" + r.note + ")"
	}
	return s
}

// runners returns the programs the kernel runs to run the file at path:
// a script's interpreter (script true), followed by the program env runs
// when the interpreter is env; an ELF binary's dynamic loader (its
// libraries are checkLibraries'); none for a file that is neither, or
// cannot be read (the start says why).
func runners(path string) (rs []runner, script bool, err error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, false, nil
	}
	defer f.Close()
	head := make([]byte, binprmBuf)
	n, _ := io.ReadFull(f, head)
	if bytes.HasPrefix(head[:n], []byte(elf.ELFMAG)) {
		if loader := elfInterp(f); loader != "" {
			rs = append(rs, runner{path: loader, what: "dynamic loader"})
		}
		return rs, false, nil
	}
	name, arg, ok := parseShebang(head[:n])
	if !ok {
		return nil, false, nil
	}
	rs = []runner{{path: name, what: "interpreter", follow: true}}
	if filepath.Base(name) != "env" {
		return rs, true, nil
	}
	benchPath, set := os.LookupEnv("PATH")
	env := envProgram(arg, benchPath, set)
	if !env.known {
		return nil, true, fmt.Errorf("cannot tell which program %s runs from its argument %q; name the interpreter's path on the #! line", showPath(name), arg)
	}
	switch {
	case strings.Contains(env.prog, "/"):
		// Named by a path: env runs it, without looking in PATH.
		rs = append(rs, runner{path: env.prog, what: "interpreter", via: name, follow: true})
	case env.prog != "":
		rs = append(rs, runner{path: env.prog, what: "interpreter", via: name, follow: true, search: orDot(env.search)})
	}
	return rs, true, nil
}

// orDot returns search, or "." for an empty one: glibc's execvp takes an
// empty PATH, as an empty entry, for the working directory (and
// findRunner takes an empty search for none).
func orDot(search string) string {
	if search == "" {
		return "."
	}
	return search
}

// elfInterp returns the dynamic loader that the ELF binary f names
// (PT_INTERP), "" for none or a binary debug/elf cannot read.
func elfInterp(f *os.File) string {
	e, err := elf.NewFile(f)
	if err != nil {
		return ""
	}
	for _, p := range e.Progs {
		if p.Type != elf.PT_INTERP {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(p.Open(), 4096))
		if err != nil {
			return ""
		}
		name, _, _ := bytes.Cut(b, []byte{0})
		return string(name)
	}
	return ""
}
