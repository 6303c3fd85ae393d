package results

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/polyclass/polyclass/internal/regfile"
)

// A command that writes into a results directory opens it once, as an
// os.Root, and makes every folder, file and rename inside it through that
// Root: a symbolic link put in place of cells/ or plots/ while the command
// runs is then never followed out of the directory (the Root refuses it),
// and a directory removed meanwhile is never made again (the Root holds
// the removed one, where nothing can be made).

// openRoot opens dir, which must exist, as the Root a command writes
// through.
func openRoot(dir string) (*os.Root, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("results directory: %w", err)
	}
	return root, nil
}

// openRunDir makes the results directory dir, when absent, and opens it
// as the Root a run writes through. With within set, dir must be an entry
// of the results directory within (a rerun's DIR/rerun): it is made and
// opened through within's Root, and a symbolic link there is refused.
func openRunDir(dir, within string) (*os.Root, error) {
	if within == "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("results directory: %w", err)
		}
		return openRoot(dir)
	}
	rel, err := filepath.Rel(within, dir)
	if err != nil || !filepath.IsLocal(rel) {
		return nil, fmt.Errorf("results directory %s is not inside %s", dir, within)
	}
	name := filepath.ToSlash(rel)
	parent, err := openRoot(within)
	if err != nil {
		return nil, err
	}
	defer parent.Close()
	fail := func(err error) error {
		if lerr := linkError(parent, within, name+"/"+ManifestFile, err); lerr != err {
			return lerr
		}
		return fmt.Errorf("results directory %s: %w", dir, err)
	}
	if err := mkdirsAt(parent, name); err != nil {
		return nil, fail(err)
	}
	if fi, err := parent.Lstat(name); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, fail(errLink)
	}
	root, err := parent.OpenRoot(name)
	if err != nil {
		return nil, fail(err)
	}
	return root, nil
}

// writeAt writes b to name (slash-separated, inside root, whose directory
// is dir) through a temporary file in the same folder, synced and renamed
// over name, giving it mode perm; it makes the folders of name below root
// (never root itself). A symbolic link among name's folders that leads
// out of dir is an error that names it (linkError).
func writeAt(root *os.Root, dir, name string, b []byte, perm os.FileMode) error {
	full := filepath.Join(dir, filepath.FromSlash(name))
	fail := func(err error) error {
		return fmt.Errorf("writing %s: %w", full, linkError(root, dir, name, err))
	}
	if err := mkdirsAt(root, path.Dir(name)); err != nil {
		return fail(err)
	}
	tmp, f, err := createTemp(root, name)
	if err != nil {
		return fail(err)
	}
	drop := func(err error) error {
		f.Close()
		root.Remove(tmp)
		return fail(err)
	}
	if _, err := f.Write(b); err != nil {
		return drop(err)
	}
	if err := f.Sync(); err != nil {
		return drop(err)
	}
	if err := f.Chmod(perm); err != nil {
		return drop(err)
	}
	if err := f.Close(); err != nil {
		root.Remove(tmp)
		return fail(err)
	}
	if err := root.Rename(tmp, name); err != nil {
		root.Remove(tmp)
		return fail(err)
	}
	return nil
}

// appendAt opens name (slash-separated, inside root, whose directory is
// dir), a run log, for appending, creating it: through root, so never
// outside dir, never through a symbolic link (openIn's rule), and never
// into a file with another name (a hard link to a file outside dir would
// take the log's lines).
func appendAt(root *os.Root, dir, name string) (*os.File, error) {
	full := filepath.Join(dir, filepath.FromSlash(name))
	if fi, err := root.Lstat(name); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, &fs.PathError{Op: "open", Path: full, Err: errLink}
	}
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND|noFollow|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", full, linkError(root, dir, name, err))
	}
	fi, err := f.Stat()
	if err == nil {
		err = regfile.Check(full, fi.Mode())
	}
	if err == nil && links(fi) > 1 {
		err = hardLinkError(full, links(fi), "bench appends only to a run log of its own", "bench starts a new one")
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// hardLinkError is the error of full, a file of a results directory that
// bench writes or appends to, found with n names (hard links): why says
// why bench does not take it, again what it does once full is removed.
func hardLinkError(full string, n uint64, why, again string) error {
	return fmt.Errorf("%s has %d names (hard links): another, outside the results directory, may be a file of yours, and %s; remove %s (%s) or choose another results directory", full, n, why, full, again)
}

// oneName is a file of a results directory that a command writes or
// appends to (see checkOneNames): its name, slash-separated inside the
// directory, why bench does not take it when it has other names, and what
// bench does once it is removed.
type oneName struct{ name, why, again string }

// checkOneNames refuses the first of names (inside root, whose directory
// is dir) that exists with more than one name (a hard link): a command
// checks them before it moves or writes anything, so that a run refused
// for its log or its record has moved no cell aside. appendAt checks a run
// log again as it opens it (a link made meanwhile); a record is replaced
// by a rename, which never writes into the other name's file, and is
// refused all the same: bench writes its files under one name.
func checkOneNames(root *os.Root, dir string, names ...oneName) error {
	for _, n := range names {
		fi, err := root.Lstat(n.name)
		if err != nil || !fi.Mode().IsRegular() || links(fi) <= 1 {
			continue
		}
		return hardLinkError(filepath.Join(dir, filepath.FromSlash(n.name)), links(fi), n.why, n.again)
	}
	return nil
}

// createTemp creates, exclusively, a temporary file beside name in root
// (tempName, so that a killed command's leftovers are recognised).
func createTemp(root *os.Root, name string) (string, *os.File, error) {
	for range 100 {
		tmp := path.Join(path.Dir(name), tempName(path.Base(name)))
		f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return tmp, f, err
	}
	return "", nil, fmt.Errorf("no free temporary name beside %s", name)
}

// mkdirsAt makes the folders of sub (slash-separated) below root, one by
// one.
func mkdirsAt(root *os.Root, sub string) error {
	if sub == "." || sub == "" {
		return nil
	}
	at := ""
	for _, part := range strings.Split(sub, "/") {
		at = path.Join(at, part)
		if err := root.Mkdir(at, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	return nil
}

// linkError is err, from writing name through root, with the first
// folder of name that is a symbolic link named (and where it leads): such
// a link was put there after the command's start, since the layout was
// checked then.
func linkError(root *os.Root, dir, name string, err error) error {
	at := ""
	parts := strings.Split(path.Dir(name), "/")
	for _, part := range parts {
		if part == "." {
			break
		}
		at = path.Join(at, part)
		fi, lerr := root.Lstat(at)
		if lerr != nil {
			break
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			to, _ := root.Readlink(at)
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err // its path names a temporary file
			}
			return fmt.Errorf("results directory %s: %s is a symbolic link (to %s), put there while bench was writing; bench follows no symbolic link inside a results directory and wrote nothing through it: move it away and run again (%w)", dir, at, to, err)
		}
	}
	return err
}

// dirGone returns nil while dir is the directory root was opened on;
// otherwise, dir removed or replaced during the command (what: "merge"),
// an error wrapping ErrDirGone that says so.
func dirGone(root *os.Root, dir, what string) error {
	held, err := root.Stat(".")
	if err != nil {
		return fmt.Errorf("results directory %s: %w", dir, err)
	}
	now, err := os.Stat(dir)
	if err == nil && os.SameFile(held, now) {
		return nil
	}
	return goneError(fmt.Sprintf("results directory %s was removed or replaced during the %s: bench does not make it again and wrote nothing more there; run the %s again", dir, what, what))
}
