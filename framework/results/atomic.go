package results

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// tmpPrefix starts the name of every file being written; a file so named
// is an unfinished write (bench was killed) and never a result.
const tmpPrefix = ".tmp-"

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
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, tmpPrefix+filepath.Base(path)+"-*")
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

// removeTemps removes the unfinished writes a killed run left in dir.
func removeTemps(dir string) { removeTempsOf(dir, func(string) bool { return true }) }

// removeTempsOf removes the unfinished writes in dir whose name (the
// temporary one) mine accepts: a shard removes its own only, since other
// shards may be writing theirs.
func removeTempsOf(dir string, mine func(name string) bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() && strings.HasPrefix(e.Name(), tmpPrefix) && mine(e.Name()) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
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
