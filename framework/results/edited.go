package results

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

// Written is a content bench wrote into a file: its SHA-256 (lower-case
// hex) and its size in bytes (Size < 0: not recorded, as in a manifest of
// a bench from before sizes).
type Written struct {
	SHA256 string `json:"sha256"`
	Size   int64  `json:"bytes"`
}

// Why a file at the place of one bench wrote is not as bench wrote it
// (asWritten).
const (
	// sameAsWritten: the file has one of the contents bench wrote.
	sameAsWritten = iota
	// otherSize: its size is none of the sizes bench wrote; it was not
	// read.
	otherSize
	// otherDigest: its SHA-256 is none of those bench wrote.
	otherDigest
	// tooLargeToRead: its size is not recorded for every content bench
	// wrote, and it is over MaxFileBytes: it was not read.
	tooLargeToRead
)

// asWritten compares the regular file name of root with the contents
// bench wrote there (want, none empty), sizes first: the file is read, and
// hashed, only when its size is one of the recorded sizes, or, when some
// size is not recorded, when it holds no more than MaxFileBytes. A file
// replaced by a huge one (a sparse file of 200 GB) is so told from bench's
// at once, never read whole. It returns the file's content when it was
// read (its SHA-256 and size; its size alone otherwise) and how it compares
// (sameAsWritten, otherSize, otherDigest, tooLargeToRead).
func asWritten(root *os.Root, name string, want []Written) (Written, int, error) {
	fi, err := root.Lstat(name)
	if err != nil {
		return Written{}, 0, err
	}
	size, known, unknown := fi.Size(), false, false
	for _, w := range want {
		if w.Size < 0 {
			unknown = true
		}
		known = known || w.Size == size
	}
	switch {
	case !known && !unknown:
		return Written{Size: size}, otherSize, nil
	case !known && size > MaxFileBytes:
		return Written{Size: size}, tooLargeToRead, nil
	}
	f, err := root.Open(name)
	if err != nil {
		return Written{}, 0, err
	}
	defer f.Close()
	h := sha256.New()
	// No more than the size it had, plus one: a file growing meanwhile is
	// not read without end (and its digest is then none bench wrote).
	n, err := io.Copy(h, io.LimitReader(f, size+1))
	if err != nil {
		return Written{}, 0, err
	}
	have := Written{SHA256: hex.EncodeToString(h.Sum(nil)), Size: n}
	for _, w := range want {
		if w.SHA256 == have.SHA256 && (w.Size < 0 || w.Size == have.Size) {
			return have, sameAsWritten, nil
		}
	}
	return have, otherDigest, nil
}

// editedReason says why a file at the place of one bench wrote is moved
// aside (how, from asWritten, is not sameAsWritten): record names the
// file that records what bench wrote (manifest.json), then what writes
// the file again.
func editedReason(how int, size int64, record, replaces string) string {
	switch how {
	case tooLargeToRead:
		return fmt.Sprintf("it holds %d bytes, more than the %d (256 MiB) bench reads of a results file, and %s records no size for it: taken as changed after bench wrote it, unread, and %s", size, MaxFileBytes, record, replaces)
	default:
		// otherSize: a file of another size has another SHA-256.
		return "it changed after bench wrote it (edited by hand?): its SHA-256 is not the one " + record + " records, and " + replaces
	}
}
