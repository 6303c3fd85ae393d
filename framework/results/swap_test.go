package results

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSwappedLinkNeverFollowed: a folder of bench's own (slurm/, k8s/,
// rerun/) or the results directory itself swapped for a symbolic link to
// a directory outside, after the command checked it and before it
// writes, is refused: nothing is written outside. On the code before,
// bench submit wrote its scripts and manifests by path (results.WriteFile
// after Subdir's check), a rerun's Begin made DIR/rerun/cells and its
// lock by path, and the run log was opened by path: each followed the
// link.
func TestSwappedLinkNeverFollowed(t *testing.T) {
	tests := []struct {
		name string
		// write checks out's entry, calls swap, then writes; it returns
		// the error of the write.
		write func(t *testing.T, out string, swap func(entry string)) error
		want  string
	}{
		{"slurm/ before the scripts", func(t *testing.T, out string, swap func(string)) error {
			return folderWrite(t, out, "slurm", "array.sbatch", swap)
		}, "writing $OUT/slurm/array.sbatch: results directory $OUT: slurm is a symbolic link (to $ELSE), put there while bench was writing; bench follows no symbolic link inside a results directory and wrote nothing through it: move it away and run again (path escapes from parent)"},
		{"k8s/ before the manifests", func(t *testing.T, out string, swap func(string)) error {
			return folderWrite(t, out, "k8s", "shards.json", swap)
		}, "writing $OUT/k8s/shards.json: results directory $OUT: k8s is a symbolic link (to $ELSE), put there while bench was writing; bench follows no symbolic link inside a results directory and wrote nothing through it: move it away and run again (path escapes from parent)"},
		{"slurm/ before logs/", func(t *testing.T, out string, swap func(string)) error {
			f, err := OpenFolder(out, "slurm", nil)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			swap("slurm")
			return f.Mkdir("logs")
		}, "making $OUT/slurm/logs: results directory $OUT: slurm is a symbolic link (to $ELSE), put there while bench was writing; bench follows no symbolic link inside a results directory and wrote nothing through it: move it away and run again (path escapes from parent)"},
		{"rerun/ before the rerun begins", func(t *testing.T, out string, swap func(string)) error {
			rerun, err := Subdir(out, RerunDir)
			if err != nil {
				t.Fatal(err)
			}
			swap(RerunDir)
			r, err := Begin(rerun, manifest("exp"), digests(2), Options{Now: clock(), Within: out})
			if err == nil {
				r.close()
			}
			return err
		}, "results directory $OUT: rerun is a symbolic link (to $ELSE), put there while bench was writing; bench follows no symbolic link inside a results directory and wrote nothing through it: move it away and run again (a symbolic link, which bench does not follow inside a results directory)"},
		{"the directory before run.log", func(t *testing.T, out string, swap func(string)) error {
			r := begin(t, out, "exp", 2, Options{})
			finishCells(t, r, 0, 1)
			if _, err := r.Finish(StatusComplete, 0); err != nil {
				t.Fatal(err)
			}
			// Resuming notes "resuming: …" once the directory is checked and
			// opened, before the run log is.
			notes := swapOnWrite{swap: func() { swap(".") }}
			r, err := Begin(out, manifest("exp"), digests(2), Options{Now: clock(), Notes: &notes})
			if err == nil {
				r.close()
			}
			return err
		}, "results directory $OUT was removed or replaced during the run: another directory is there now, and bench writes nothing into it; the cells not yet written are lost: run again to compute them"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			top := t.TempDir()
			out, elsewhere := filepath.Join(top, "out"), filepath.Join(top, "elsewhere")
			if err := os.Mkdir(elsewhere, 0o755); err != nil {
				t.Fatal(err)
			}
			swap := func(entry string) {
				at := filepath.Join(out, entry)
				if err := os.Rename(at, at+".moved"); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(elsewhere, filepath.Clean(at)); err != nil {
					t.Fatal(err)
				}
			}
			err := tt.write(t, out, swap)
			want := strings.NewReplacer("$OUT", out, "$ELSE", elsewhere).Replace(tt.want)
			if err == nil || err.Error() != want {
				t.Errorf("got  %v\nwant %s", err, want)
			}
			if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
				t.Errorf("bench wrote %d entries outside (%s)", len(entries), entries[0].Name())
			}
		})
	}
}

// folderWrite opens the folder name of out, swaps it, and writes file
// there.
func folderWrite(t *testing.T, out, name, file string, swap func(string)) error {
	f, err := OpenFolder(out, name, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	swap(name)
	return f.WriteFile(file, []byte("x\n"), 0o644)
}

// swapOnWrite calls swap at its first write, then discards.
type swapOnWrite struct {
	swap func()
	done bool
}

func (w *swapOnWrite) Write(b []byte) (int, error) {
	if !w.done {
		w.done = true
		w.swap()
	}
	return io.Discard.Write(b)
}
