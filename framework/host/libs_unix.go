//go:build unix

package host

import (
	"debug/elf"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// maxLibraries bounds the libraries followed from one program and
// checked: libraries may need each other (the visited set stops a
// loop), but a program needs this many only when something is amiss.
const maxLibraries = 256

// checkLibraries checks what the dynamic loader loads for the ELF binary
// at prog (its path, its links resolved): the directories it names for
// its libraries (DT_RUNPATH, DT_RPATH: $ORIGIN its directory, an empty
// entry the working directory; another $ token, $LIB or $PLATFORM,
// refused, as no one can tell which directory it names) held to
// checkLibraryDir's rule; a library it needs by a path (a DT_NEEDED entry
// with a slash, taken from the working directory) walked as an
// interpreter is; and each library it needs by name that is found in one
// of those directories, checked in turn the same way, with its own
// directories, up to maxLibraries objects. A library found only in the
// system's directories (ld.so.cache, /lib, /usr/lib), which no
// DT_RUNPATH or DT_RPATH names, is not followed: they are root's. nil
// for a file that is not ELF, or that debug/elf cannot read (the start
// says why).
func (t trust) checkLibraries(prog string, lstat func(string) (fs.FileInfo, error)) error {
	c := libCheck{trust: t, lstat: lstat, seen: map[string]bool{}}
	return c.object("plugin binary", prog, prog, nil)
}

// libCheck is the state of one checkLibraries: the objects seen, by
// their real paths.
type libCheck struct {
	trust
	lstat func(string) (fs.FileInfo, error)
	seen  map[string]bool
}

// object checks the ELF object opened as named, at real (its links
// resolved), described as what ("plugin binary", "library") in
// messages; inherited are the library directories of the objects that
// load it, in which glibc looks too for an object without DT_RUNPATH
// (DT_RPATH is inherited): its libraries are looked for there as well,
// and in its own directories.
func (c *libCheck) object(what, named, real string, inherited []string) error {
	if c.seen[real] {
		return nil
	}
	c.seen[real] = true
	if len(c.seen)-1 > maxLibraries { // the program is no library
		return fmt.Errorf("%s %s: more than %d libraries to check, in directories that the plugin and its libraries name; the host follows no more", what, showPath(named), maxLibraries)
	}
	dirs, needed, err := elfDeps(real, origins(named, real))
	if err != nil {
		return fmt.Errorf("%s %s: %w", what, showPath(named), err)
	}
	search := append([]string(nil), inherited...)
	for _, r := range dirs {
		if _, err := c.walkRunner(r, c.lstat); errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			continue // where no one else may make it, or a file: the loader passes it over
		} else if err != nil {
			return fmt.Errorf("%s of %s: %w", r, showPath(named), err)
		}
		search = append(search, r.path)
	}
	for _, name := range needed {
		paths := []string{name}
		if !strings.Contains(name, "/") {
			paths = paths[:0]
			for _, d := range search {
				paths = append(paths, strings.TrimSuffix(d, "/")+"/"+name)
			}
		}
		for _, p := range paths {
			r := runner{path: p, what: "library"}
			next, err := c.walkRunner(r, c.lstat)
			if errors.Is(err, fs.ErrNotExist) {
				continue // where no one else may make it: not loaded from there
			}
			if err != nil {
				return fmt.Errorf("%s of %s: %w", r, showPath(named), err)
			}
			if err := c.object("library", p, next, search); err != nil {
				return err
			}
		}
	}
	return nil
}

// origins returns the directories that $ORIGIN may name for an object
// opened as named, at real: glibc takes a program's from its real path
// (/proc/self/exe), a library's from the path it opened; both are
// checked when they differ.
func origins(named, real string) []string {
	out := []string{filepath.Dir(real)}
	if abs, err := physicalAbs(named); err == nil && filepath.Dir(abs) != out[0] {
		out = append(out, filepath.Dir(abs))
	}
	return out
}

// elfDeps returns what the ELF object at path names for the dynamic
// loader: the directories in which it looks for its libraries (DT_RPATH,
// DT_RUNPATH; each $ORIGIN or ${ORIGIN} replaced by each of origins, an
// empty entry the working directory, "."), as library directory
// runners, and the libraries it needs (DT_NEEDED); none for a file that
// is not ELF or that debug/elf cannot read. An entry that holds another
// $ token ($LIB, $PLATFORM, ${PLATFORM}) is an error: the loader
// replaces it by a directory of its own choosing.
func elfDeps(path string, origins []string) (dirs []runner, needed []string, err error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, nil
	}
	defer f.Close()
	e, err := elf.NewFile(f)
	if err != nil {
		return nil, nil, nil
	}
	for _, tag := range []elf.DynTag{elf.DT_RPATH, elf.DT_RUNPATH} {
		vals, err := e.DynString(tag)
		if err != nil {
			continue
		}
		for _, v := range vals {
			for _, d := range strings.Split(v, ":") {
				if d == "" {
					dirs = append(dirs, runner{path: ".", what: "library directory", dir: true,
						note: "an empty " + tag.String() + " entry: the working directory"})
					continue
				}
				expanded, bad := expandOrigin(d, origins)
				if bad != "" {
					return nil, nil, fmt.Errorf("cannot tell which directory the dynamic loader looks in: %s entry %s holds %s; name the directory itself in the binary's %s ($ORIGIN is understood)",
						tag, showPath(d), showPath(bad), strings.TrimPrefix(tag.String(), "DT_"))
				}
				for _, x := range expanded {
					dirs = append(dirs, runner{path: x, what: "library directory", dir: true})
				}
			}
		}
	}
	needed, _ = e.DynString(elf.DT_NEEDED)
	return dirs, needed, nil
}

// expandOrigin returns the directory entry d of a DT_RUNPATH or DT_RPATH
// with its $ORIGIN and ${ORIGIN} replaced by each of origins (d alone
// when it holds none); bad is the first other $ token it holds ("$LIB",
// "${PLATFORM}", "$ORIGINX", a lone "$"), "" for none.
func expandOrigin(d string, origins []string) (expanded []string, bad string) {
	var pieces []string // the text between the $ORIGIN tokens
	var lit strings.Builder
	for i := 0; i < len(d); {
		if d[i] != '$' {
			lit.WriteByte(d[i])
			i++
			continue
		}
		tok := dstToken(d[i:])
		if tok != "$ORIGIN" && tok != "${ORIGIN}" {
			return nil, tok
		}
		pieces = append(pieces, lit.String())
		lit.Reset()
		i += len(tok)
	}
	if len(pieces) == 0 {
		return []string{d}, ""
	}
	pieces = append(pieces, lit.String())
	for _, o := range origins {
		expanded = append(expanded, strings.Join(pieces, o))
	}
	return expanded, ""
}

// dstToken returns the dynamic string token at the head of s, which
// starts with "$", as glibc's loader reads it: "${NAME}" (to the end of
// s when no "}" closes it), or "$NAME" with every letter, digit and
// underscore that follows ("$ORIGINX" is not $ORIGIN).
func dstToken(s string) string {
	if strings.HasPrefix(s, "${") {
		if end := strings.IndexByte(s, '}'); end >= 0 {
			return s[:end+1]
		}
		return s
	}
	n := 1
	for n < len(s) && (s[n] == '_' || 'a' <= s[n] && s[n] <= 'z' || 'A' <= s[n] && s[n] <= 'Z' || '0' <= s[n] && s[n] <= '9') {
		n++
	}
	return s[:n]
}
