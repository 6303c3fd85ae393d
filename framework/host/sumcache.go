package host

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
)

// sumCache remembers the SHA-256 digests of plugin binaries from one run
// to the next, so that starting a plugin reads its binary once (go-plugin's
// SecureConfig check) rather than twice (the host's digest, then the
// check): on a small experiment the two reads of two 20 MB binaries are
// about a third of the run.
//
// An entry is keyed by what the file system says of the file: its path,
// device, inode, size and modification and change times (fileKey). Any
// write to the binary, a rebuild or a copy over it changes the change
// time, so a new binary misses the cache and is read again. A cached
// digest never decides what runs: SecureConfig still hashes the binary
// before it starts, and a cached digest that fails that check is dropped
// and the binary hashed afresh (Host.start).
//
// Entries are files named by the SHA-256 of the binary's absolute path,
// one a binary, so that a rebuild replaces the entry of the build before
// it instead of adding one; each holds the SHA-256 of the key and the
// binary's digest, in hex. They are written to a temporary file and
// renamed, so that runs sharing the cache (several shards on one node)
// see whole entries. A cache that cannot be read or written is no cache:
// the binary is hashed as if the entry were missing. The zero value (no
// directory) is a cache that holds nothing.
type sumCache struct {
	dir string
}

// entry returns the path of path's entry, named by the SHA-256 of the
// absolute path, and the hex SHA-256 of the file's key, or ok false when
// the key cannot be told (no cache, a file that cannot be stat-ed, a
// system without fileKey).
func (c sumCache) entry(path string) (file, key string, ok bool) {
	if c.dir == "" {
		return "", "", false
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", "", false
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", "", false
	}
	k, ok := fileKey(abs, fi)
	if !ok {
		return "", "", false
	}
	return filepath.Join(c.dir, hexSHA256(abs)), hexSHA256(k), true
}

// hexSHA256 returns the SHA-256 of s in lower-case hex.
func hexSHA256(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// lookup returns the cached digest of the binary at path: its entry's,
// when the entry was written for the file's present key.
func (c sumCache) lookup(path string) (string, bool) {
	file, key, ok := c.entry(path)
	if !ok {
		return "", false
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", false
	}
	k, sum, ok := parseEntry(b)
	if !ok || k != key {
		return "", false
	}
	return sum, true
}

// parseEntry returns the key and digest an entry holds: two runs of 64
// lower-case hex digits separated by a space, optionally followed by a
// newline; anything else is no entry.
func parseEntry(b []byte) (key, sum string, ok bool) {
	s := string(b)
	if len(s) == 130 && s[129] == '\n' {
		s = s[:129]
	}
	if len(s) != 129 || s[64] != ' ' {
		return "", "", false
	}
	key, sum = s[:64], s[65:]
	if !isHex64(key) || !isHex64(sum) {
		return "", "", false
	}
	return key, sum, true
}

// isHex64 reports whether s is 64 lower-case hex digits.
func isHex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, r := range s {
		if (r < '0' || r > '9') && (r < 'a' || r > 'f') {
			return false
		}
	}
	return true
}

// hash returns the digest of the binary at path, read with read, and
// remembers it unless the file changed while it was read (its key differs
// before and after).
func (c sumCache) hash(path string, read func(string) (string, error)) (string, error) {
	file, key, ok := c.entry(path)
	sum, err := read(path)
	if err != nil || !ok {
		return sum, err
	}
	if _, after, ok := c.entry(path); ok && after == key {
		c.store(file, key, sum)
	}
	return sum, nil
}

// store writes the entry of key and sum to file, replacing the one there;
// a failure leaves the cache without it.
func (c sumCache) store(file, key, sum string) {
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(c.dir, ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.WriteString(key + " " + sum + "\n")
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), file) != nil {
		os.Remove(tmp.Name())
	}
}

// drop removes path's entry.
func (c sumCache) drop(path string) {
	if file, _, ok := c.entry(path); ok {
		os.Remove(file)
	}
}
