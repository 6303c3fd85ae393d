package results

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// killedRun is the panic value of versionRender's output killAt: Finish
// stops there, as a run killed while it writes its outputs, having
// written the outputs before killAt and not its final manifest.
type killedRun struct{}

// versionRender is fakeRender with a last line "version v" in every
// output, so that each version writes other bytes; writing output killAt
// panics with killedRun.
func versionRender(v, killAt string) Renderer {
	return func(m *Manifest, cells []*Cell) ([]Output, error) {
		outs, err := fakeRender(m, cells)
		for k, o := range outs {
			name, write := o.Name, o.Write
			outs[k].Write = func(w io.Writer) error {
				if name == killAt {
					panic(killedRun{})
				}
				if err := write(w); err != nil {
					return err
				}
				_, err := fmt.Fprintf(w, "version %s\n", v)
				return err
			}
		}
		return outs, err
	}
}

// runVersion runs the 2-cell experiment into dir with the outputs of
// version v, killed at output killAt ("": not killed), and returns its
// notes.
func runVersion(t *testing.T, dir, v, killAt string) string {
	t.Helper()
	var notes strings.Builder
	r := begin(t, dir, "exp", 2, Options{Render: versionRender(v, killAt), Notes: &notes})
	finishCells(t, r, 0, 1)
	func() {
		defer func() {
			if p := recover(); p != nil && p != (killedRun{}) {
				panic(p)
			}
		}()
		if _, err := r.Finish(StatusComplete, 0); err != nil {
			t.Fatal(err)
		}
		if killAt != "" {
			t.Fatalf("version %s: not killed at %s", v, killAt)
		}
	}()
	return notes.String()
}

// versionOf returns the version whose bytes the output name in dir holds.
func versionOf(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.TrimPrefix(lines[len(lines)-1], "version ")
}

// TestKilledBeforeManifest: a run killed after it wrote some outputs
// (exp.md, summary.csv, folds.csv of version 2) and before its final
// manifest (which still records version 1's digests): the next run, or
// bench table, writes them again without moving them aside and says
// nothing of edits, since the manifest recorded the digests they were
// about to get before they were written; twice killed, the same; an
// output edited by hand after the kill, one written by the killed run or
// one it did not reach (exp.json), is still moved aside, with the
// user's bytes. Before, the killed run's own outputs were moved aside
// "edited by hand?".
func TestKilledBeforeManifest(t *testing.T) {
	const notes = "MY NOTES\n"
	outputs := []string{"exp.json", "exp.md", "folds.csv", "summary.csv"}
	for _, tc := range []struct {
		name string
		// killed are the versions killed at exp.json, after version 1's
		// complete run; edit are the outputs edited by hand after them.
		killed []string
		edit   []string
		// table writes the last version with bench table instead of a
		// run.
		table bool
		// recordOnly, after the kills, records version 8's digests as
		// writeOutputs does before it writes each output, and writes
		// none: a run killed between the record and the file.
		recordOnly bool
	}{
		{"killed once", []string{"2"}, nil, false, false},
		{"killed twice", []string{"2", "3"}, nil, false, false},
		{"killed, then bench table", []string{"2"}, nil, true, false},
		{"killed, then edited", []string{"2"}, []string{"exp.json", "exp.md"}, false, false},
		{"killed twice, then edited", []string{"2", "3"}, []string{"summary.csv"}, false, false},
		{"killed, then killed before writing", []string{"2"}, nil, false, true},
		{"killed, then killed before writing, then edited", []string{"2"}, []string{"exp.md"}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			runVersion(t, dir, "1", "")
			for _, v := range tc.killed {
				runVersion(t, dir, v, "exp.json")
			}
			last := tc.killed[len(tc.killed)-1]
			for _, name := range outputs {
				want := last
				if name == "exp.json" {
					want = "1"
				}
				if got := versionOf(t, dir, name); got != want {
					t.Fatalf("after the kills, %s is of version %s, want %s", name, got, want)
				}
			}
			if tc.recordOnly {
				recordVersion(t, dir, "8", outputs)
			}
			edited := map[string]string{}
			for _, name := range tc.edit {
				appendFile(t, filepath.Join(dir, name), notes)
				b, _ := os.ReadFile(filepath.Join(dir, name))
				edited[name] = string(b)
			}
			var said string
			if tc.table {
				var w strings.Builder
				if _, _, err := Render(dir, versionRender("9", ""), &w); err != nil {
					t.Fatal(err)
				}
				said = w.String()
			} else {
				said = runVersion(t, dir, "9", "")
			}
			for name, text := range checkOutputSums(t, dir) {
				if !strings.HasSuffix(text, "version 9\n") {
					t.Errorf("%s:\n%s\nwant version 9", name, text)
				}
			}
			if m, err := ReadManifest(dir); err != nil || len(m.OutputPendingSHA256) != 0 {
				t.Errorf("final manifest: pending digests %v (%v), want none", m.OutputPendingSHA256, err)
			}
			moved, _ := filepath.Glob(filepath.Join(dir, SupersededDir, "*", "*"))
			var got []string
			for _, p := range moved {
				b, _ := os.ReadFile(p)
				got = append(got, filepath.Base(p)+" "+string(b))
			}
			var want []string
			for _, name := range tc.edit {
				want = append(want, name+" "+edited[name])
			}
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("moved aside (name, bytes):\n%q\nwant\n%q", got, want)
			}
			if n := strings.Count(said, "(edited by hand?)"); n != len(tc.edit) {
				t.Errorf("notes:\n%s\nwant %d outputs said edited", said, len(tc.edit))
			}
		})
	}
}

// recordVersion records in dir's manifest the digests of version v of
// outputs, each as writeOutputs does before it writes the output
// (keepEdited, then pend), and writes none of them.
func recordVersion(t *testing.T, dir, v string, outputs []string) {
	t.Helper()
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	disk, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	files, err := versionRender(v, "")(disk, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !slices.Contains(outputs, f.Name) {
			continue
		}
		recorded := Written{SHA256: disk.OutputSHA256[f.Name], Size: disk.OutputBytes[f.Name]}
		have, err := keepEdited(root, f.Name, filepath.Join(dir, f.Name), recorded, disk.OutputPendingSHA256[f.Name], newSetup(dir, clock(), nil))
		if err != nil || have.SHA256 == "" {
			t.Fatalf("%s: kept %+v, %v", f.Name, have, err)
		}
		_, sum, err := renderOutput(dir, f)
		if err != nil {
			t.Fatal(err)
		}
		if err := pend(root, dir, disk, f.Name, have, sum); err != nil {
			t.Fatal(err)
		}
	}
	m, err := ReadManifest(dir)
	if err != nil || len(m.OutputPendingSHA256) != len(outputs) {
		t.Fatalf("pending digests recorded: %v (%v), want %d", m.OutputPendingSHA256, err, len(outputs))
	}
}
