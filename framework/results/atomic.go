package results

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
)

// tmpPrefix starts the name of every file bench writes through a
// temporary one (tempName): .tmp-NAME-SUFFIX, NAME the file's own name and
// SUFFIX 12 random hexadecimal digits. Only a name of that exact form,
// whose NAME is a file bench writes in that folder, is an unfinished write
// of bench's (bench was killed): any other name starting with .tmp- is the
// user's, and bench neither takes it for its own nor removes it.
const tmpPrefix = ".tmp-"

// tempForm matches a temporary name of bench's, its target's name in
// group 1: the suffix is 12 hexadecimal digits, or the 1 to 10 decimal
// digits os.CreateTemp gave the temporary files of earlier versions.
var tempForm = regexp.MustCompile(`^\.tmp-(.+)-([0-9a-f]{12}|[0-9]{1,10})$`)

// tempName returns a new temporary name for the file named base.
func tempName(base string) string {
	var r [6]byte
	rand.Read(r[:])
	return tmpPrefix + base + "-" + hex.EncodeToString(r[:])
}

// tempTarget returns the name of the file that the file named name was
// the temporary of (tempName), and whether name is such a temporary name.
func tempTarget(name string) (string, bool) {
	m := tempForm.FindStringSubmatch(name)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// renderOutput returns the bytes of output f, what its Write produces (to
// be written to its name inside the results directory dir), and their
// SHA-256 in hex.
func renderOutput(dir string, f Output) ([]byte, string, error) {
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		return nil, "", fmt.Errorf("writing %s: %w", filepath.Join(dir, filepath.FromSlash(f.Name)), err)
	}
	sum := sha256.Sum256(b.Bytes())
	return b.Bytes(), hex.EncodeToString(sum[:]), nil
}

// writeBytes writes b to path atomically (see writeFileIn), making its
// folders.
func writeBytes(path string, b []byte) error { return writeBytesMode(path, b, 0o644) }

// writeBytesMode is writeBytes giving the file mode perm.
func writeBytesMode(path string, b []byte, perm os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return replaceFile(path, b, perm)
}

// replaceFile is writeBytesMode into a directory that must exist: one
// removed meanwhile is an error, never made again.
func replaceFile(path string, b []byte, perm os.FileMode) error {
	tmp, err := createTempFile(path)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	fail := func(err error) error {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if _, err := tmp.Write(b); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(perm); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// createTempFile creates, exclusively, a temporary file beside path
// (tempName), with mode 0600.
func createTempFile(path string) (*os.File, error) {
	dir, base := filepath.Dir(path), filepath.Base(path)
	for range 100 {
		f, err := os.OpenFile(filepath.Join(dir, tempName(base)), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("no free temporary name beside %s", path)
}

// removeTempsOf removes the unfinished writes a killed command left in
// dir: the regular files of a temporary name of bench's (tempTarget) whose
// target mine accepts (a name bench writes there; a shard accepts its own
// only, since other shards may be writing theirs), unless one is an input
// of inputs (by device and inode). Any other file is left where it is.
func removeTempsOf(dir string, mine func(target string) bool, inputs []Input) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		target, ok := tempTarget(e.Name())
		if !ok || !e.Type().IsRegular() || !mine(target) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if isInput(path, inputs) {
			continue
		}
		os.Remove(path)
	}
}

// inside joins dir and a slash-separated relative name, refusing a name
// that would lead outside dir.
func inside(dir, name string) (string, error) {
	local, err := filepath.Localize(name)
	if err != nil || !filepath.IsLocal(local) {
		return "", fmt.Errorf("output name %q would leave the results directory %s", name, dir)
	}
	return filepath.Join(dir, local), nil
}
