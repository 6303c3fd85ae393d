package results

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFolderKeepsEditedFiles: a file of a Folder (a batch script of
// slurm/) that holds none of the contents WrittenFile records for it, or,
// with none recorded, not the bytes written now, is moved to
// superseded/TIME/ with its bytes before it is written again, the move
// said in one line; a file as bench wrote it is written again in silence,
// whatever the new bytes. WrittenFile records the SHA-256 and size of
// each file as written last.
func TestFolderKeepsEditedFiles(t *testing.T) {
	const first, second = "#!/bin/sh\necho one\n", "#!/bin/sh\necho two\n"
	const edit = "#!/bin/sh\n#SBATCH --account=proj42\necho one\n"
	const recordLine = "moved slurm/array.sbatch aside to superseded/"
	tests := []struct {
		name string
		// change is done to the folder between the two writes.
		change func(t *testing.T, dir string)
		again  string // what the second write writes
		moved  string // the bytes moved aside ("": nothing moved)
		reason string // the end of the note of the move
	}{
		{"same bytes again", nil, first, "", ""},
		{"new bytes, file as written", nil, second, "", ""},
		{"edited, same bytes again", func(t *testing.T, dir string) { write(t, dir, "slurm/array.sbatch", edit) }, first, edit,
			": it changed after bench wrote it (edited by hand?): its SHA-256 is not the one slurm/.bench-written records, and bench writes it again"},
		{"edited, new bytes", func(t *testing.T, dir string) { write(t, dir, "slurm/array.sbatch", edit) }, second, edit,
			": it changed after bench wrote it (edited by hand?): its SHA-256 is not the one slurm/.bench-written records, and bench writes it again"},
		{"edited, same size", func(t *testing.T, dir string) {
			write(t, dir, "slurm/array.sbatch", strings.Replace(first, "one", "uno", 1))
		}, first,
			strings.Replace(first, "one", "uno", 1),
			": it changed after bench wrote it (edited by hand?): its SHA-256 is not the one slurm/.bench-written records, and bench writes it again"},
		{"no record, same bytes", func(t *testing.T, dir string) { remove(t, dir, "slurm/"+WrittenFile) }, first, "", ""},
		{"no record, other bytes", func(t *testing.T, dir string) { remove(t, dir, "slurm/"+WrittenFile) }, second, first,
			": bench has no record of writing it (slurm/.bench-written records none), and it is not what bench writes there now (edited by hand?): bench writes it again"},
		{"record unreadable, edited", func(t *testing.T, dir string) {
			write(t, dir, "slurm/"+WrittenFile, "{not json")
			write(t, dir, "slurm/array.sbatch", edit)
		}, first, edit, ": bench has no record of writing it (slurm/.bench-written records none), and it is not what bench writes there now (edited by hand?): bench writes it again"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFolder(t, dir, first, nil)
			if tt.change != nil {
				tt.change(t, dir)
			}
			var notes strings.Builder
			writeFolder(t, dir, tt.again, &notes)
			if got := readText(t, filepath.Join(dir, "slurm", "array.sbatch")); got != tt.again {
				t.Errorf("array.sbatch %q, want %q", got, tt.again)
			}
			moved, _ := filepath.Glob(filepath.Join(dir, SupersededDir, "*", "slurm", "*"))
			switch {
			case tt.moved == "" && (len(moved) != 0 || notes.Len() != 0):
				t.Errorf("moved %v, notes %q; want nothing moved, nothing said", moved, notes.String())
			case tt.moved != "":
				if len(moved) != 1 || filepath.Base(moved[0]) != "array.sbatch" || readText(t, moved[0]) != tt.moved {
					t.Fatalf("moved %v, want array.sbatch with the bytes %q", moved, tt.moved)
				}
				line := strings.TrimSuffix(notes.String(), "\n")
				if strings.Count(notes.String(), "\n") != 1 || !strings.HasPrefix(line, recordLine) || !strings.HasSuffix(line, tt.reason) {
					t.Errorf("notes %q, want one line %q…%q", notes.String(), recordLine, tt.reason)
				}
			}
			checkRecord(t, dir, tt.again)
		})
	}
}

// TestFolderMovesAHugeFileUnread: a file put at the place of one bench
// wrote, of another size than the one recorded (a sparse file of 200 GB),
// is moved aside at once, unread, with its recorded digest the reason; so
// is one over MaxFileBytes when no record holds it.
func TestFolderMovesAHugeFileUnread(t *testing.T) {
	for _, record := range []bool{true, false} {
		dir := t.TempDir()
		writeFolder(t, dir, "#!/bin/sh\n", nil)
		if !record {
			remove(t, dir, "slurm/"+WrittenFile)
		}
		if err := os.Truncate(filepath.Join(dir, "slurm", "array.sbatch"), 200<<30); err != nil {
			t.Skipf("no sparse file of 200 GB here: %v", err)
		}
		var notes strings.Builder
		start := time.Now()
		writeFolder(t, dir, "#!/bin/sh\n", &notes)
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("record %v: took %v, want at once (the file unread)", record, took)
		}
		moved, _ := filepath.Glob(filepath.Join(dir, SupersededDir, "*", "slurm", "array.sbatch"))
		if len(moved) != 1 {
			t.Fatalf("record %v: moved %v, want array.sbatch", record, moved)
		}
		if fi, err := os.Stat(moved[0]); err != nil || fi.Size() != 200<<30 {
			t.Errorf("record %v: moved %v (%v), want the 200 GB file", record, moved, err)
		}
		if !strings.HasPrefix(notes.String(), "moved slurm/array.sbatch aside") {
			t.Errorf("record %v: notes %q", record, notes.String())
		}
		checkRecord(t, dir, "#!/bin/sh\n")
	}
}

// writeFolder writes text to slurm/array.sbatch of the results directory
// dir through a Folder, the moves said on notes.
func writeFolder(t *testing.T, dir, text string, notes *strings.Builder) {
	t.Helper()
	var f *Folder
	var err error
	if notes == nil {
		f, err = OpenFolder(dir, SlurmDir, nil)
	} else {
		f, err = OpenFolder(dir, SlurmDir, notes)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.WriteFile("array.sbatch", []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
}

// checkRecord checks that slurm/.bench-written records text, alone, as
// the content of array.sbatch.
func checkRecord(t *testing.T, dir, text string) {
	t.Helper()
	var rec struct {
		Schema int
		Files  map[string][]Written
	}
	if err := json.Unmarshal([]byte(readText(t, filepath.Join(dir, "slurm", WrittenFile))), &rec); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(text))
	want := Written{SHA256: hex.EncodeToString(sum[:]), Size: int64(len(text))}
	if got := rec.Files["array.sbatch"]; rec.Schema != 1 || len(rec.Files) != 1 || len(got) != 1 || got[0] != want {
		t.Errorf("record %+v, want schema 1 and array.sbatch %+v alone", rec, want)
	}
}

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func remove(t *testing.T, dir, name string) {
	t.Helper()
	if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
		t.Fatal(err)
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
