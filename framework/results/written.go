package results

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"slices"
)

// WrittenFile is the file of a Folder (slurm/.bench-written,
// k8s/.bench-written) that records the content of every file bench wrote
// into the folder: a JSON object whose "files" gives, by file name, its
// SHA-256 and size. A folder has it, not the manifest: bench submit
// writes its scripts before any run has made a manifest (and again while
// the shards and the merge rewrite theirs), and the folder is written by
// submit alone. No extension: kubectl apply -f k8s/ reads the .json
// files of the folder, and this is none of its manifests.
const WrittenFile = ".bench-written"

// writtenSchema is the version of WrittenFile's format.
const writtenSchema = 1

// writtenRecord is the content of a WrittenFile.
type writtenRecord struct {
	Schema int `json:"schema"`
	// Files are, by file name, the contents the file may have as bench
	// wrote it: one, or two while a file is written (the one it had and
	// the one it is about to get, so that a command killed in between
	// leaves a file taken as bench's either way).
	Files map[string][]Written `json:"files"`
}

// record reads f's WrittenFile. One absent, unreadable or of another
// schema records nothing: each file is then bench's only when it already
// holds what bench writes there.
func (f *Folder) record() writtenRecord {
	rec := writtenRecord{Schema: writtenSchema, Files: map[string][]Written{}}
	b, err := readIn(f.Path(WrittenFile))
	if err != nil {
		return rec
	}
	var read writtenRecord
	if json.Unmarshal(b, &read) != nil || read.Schema != writtenSchema || read.Files == nil {
		return rec
	}
	return read
}

// writeRecord writes rec to f's WrittenFile.
func (f *Folder) writeRecord(rec writtenRecord) error {
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return fmt.Errorf("%s: %w", f.Path(WrittenFile), err)
	}
	return writeAt(f.root, f.dir, f.name+"/"+WrittenFile, append(b, '\n'), 0o644)
}

// WriteFile writes b to the file name (slash-separated) of f through a
// temporary file renamed over it (a link at its place is replaced, not
// followed), with mode perm, and records its SHA-256 and size in f's
// WrittenFile. A regular file already there that holds none of the
// contents recorded for it (edited by hand: an account added to a batch
// script), or, with none recorded, not b, is first moved to
// superseded/TIME/, with its bytes, and the move said in one line on the
// Folder's notes; sizes are compared first, so that a huge file put there
// is moved unread (asWritten). A file as bench wrote it is written again
// in silence.
func (f *Folder) WriteFile(name string, b []byte, perm os.FileMode) error {
	rel := f.name + "/" + name
	sum := sha256.Sum256(b)
	now := Written{SHA256: hex.EncodeToString(sum[:]), Size: int64(len(b))}
	rec := f.record()
	var pending []Written
	if plainFile(f.root, rel) {
		want, why := rec.Files[name], ""
		if len(want) == 0 {
			want = []Written{now}
			why = fmt.Sprintf("bench has no record of writing it (%s records none), and it is not what bench writes there now (edited by hand?): bench writes it again", path.Join(f.name, WrittenFile))
		}
		have, how, err := asWritten(f.root, rel, want)
		if err != nil {
			return fmt.Errorf("reading %s before writing it again: %w", f.Path(name), err)
		}
		switch {
		case how == sameAsWritten:
			pending = append(pending, have)
		case why == "":
			why = editedReason(how, have.Size, path.Join(f.name, WrittenFile), "bench writes it again")
			fallthrough
		default:
			if err := f.aside.moveAside(f.Path(name), why); err != nil {
				return err
			}
		}
	}
	if !slices.Contains(pending, now) {
		pending = append(pending, now)
	}
	if len(pending) > 1 {
		// Both contents recorded before the file changes: a command killed
		// at any point leaves a file recorded as bench's.
		rec.Files[name] = pending
		if err := f.writeRecord(rec); err != nil {
			return err
		}
	}
	if err := writeAt(f.root, f.dir, rel, b, perm); err != nil {
		return err
	}
	if slices.Equal(rec.Files[name], []Written{now}) {
		return nil // as recorded: the same bytes written again
	}
	rec.Files[name] = []Written{now}
	return f.writeRecord(rec)
}
