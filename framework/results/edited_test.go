package results

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestEditedOutputsMovedAside: an output the user edited after bench
// wrote it (notes appended to the Markdown report, the summary replaced)
// is moved aside to superseded/TIME/, with the user's bytes, before the
// next write of the outputs (a resumed run, a fresh one, bench table),
// each move said in one line (on the notes and in a run's log); an output
// as written is written again in place, not moved. Each output's SHA-256
// is recorded in the manifest: that of the file as written.
func TestEditedOutputsMovedAside(t *testing.T) {
	const notes = "\nMY NOTES: important\n"
	const summary = "user,edit\n"
	for _, tc := range []struct {
		name  string
		edit  bool
		again func(t *testing.T, dir string, w *strings.Builder)
	}{
		{"resume", true, func(t *testing.T, dir string, w *strings.Builder) {
			r := begin(t, dir, "exp", 2, Options{Render: fakeRender, Notes: w})
			if _, err := r.Finish(StatusComplete, 0); err != nil {
				t.Fatal(err)
			}
		}},
		{"fresh", true, func(t *testing.T, dir string, w *strings.Builder) {
			r := begin(t, dir, "exp", 2, Options{Render: fakeRender, Notes: w, Fresh: true})
			r.CellFinished(cell(0))
			r.CellFinished(cell(1))
			if _, err := r.Finish(StatusComplete, 0); err != nil {
				t.Fatal(err)
			}
		}},
		{"table", true, func(t *testing.T, dir string, w *strings.Builder) {
			if _, _, err := Render(dir, fakeRender, w); err != nil {
				t.Fatal(err)
			}
		}},
		{"resume, nothing edited", false, func(t *testing.T, dir string, w *strings.Builder) {
			r := begin(t, dir, "exp", 2, Options{Render: fakeRender, Notes: w})
			if _, err := r.Finish(StatusComplete, 0); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			r := begin(t, dir, "exp", 2, Options{Render: fakeRender})
			r.CellFinished(cell(0))
			r.CellFinished(cell(1))
			if _, err := r.Finish(StatusComplete, 0); err != nil {
				t.Fatal(err)
			}
			written := checkOutputSums(t, dir)
			if tc.edit {
				appendFile(t, filepath.Join(dir, "exp.md"), notes)
				if err := os.WriteFile(filepath.Join(dir, "summary.csv"), []byte(summary), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var w strings.Builder
			tc.again(t, dir, &w)
			after := checkOutputSums(t, dir)
			for name, b := range written {
				if after[name] != b {
					t.Errorf("%s written again:\n%s\nwant the same bytes as the first time:\n%s", name, after[name], b)
				}
			}
			moved, _ := filepath.Glob(filepath.Join(dir, SupersededDir, "*", "*.*"))
			var got []string
			for _, p := range moved {
				if name := filepath.Base(p); name != ManifestFile {
					b, _ := os.ReadFile(p)
					got = append(got, name+" "+string(b))
				}
			}
			var want []string
			var lines []string
			if tc.edit {
				want = []string{"exp.md " + written["exp.md"] + notes, "summary.csv " + summary}
				for _, name := range []string{"exp.md", "summary.csv"} {
					lines = append(lines, "moved "+name+" aside to superseded/")
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("moved aside (name, bytes):\n%q\nwant\n%q", got, want)
			}
			said := strings.Split(strings.TrimSpace(w.String()), "\n")
			said = slices.DeleteFunc(said, func(l string) bool { return !strings.Contains(l, "it changed after bench wrote it") })
			if len(said) != len(lines) {
				t.Fatalf("notes:\n%s\nwant %d lines of edited outputs", w.String(), len(lines))
			}
			for k, l := range said {
				if !strings.HasPrefix(l, lines[k]) || !strings.HasSuffix(l, ": it changed after bench wrote it (edited by hand?): its SHA-256 is not the one manifest.json records, and an output of the run replaces it") {
					t.Errorf("note %q, want %q…", l, lines[k])
				}
			}
			if log, _ := os.ReadFile(filepath.Join(dir, LogFile)); tc.name != "table" && strings.Count(string(log), "it changed after bench wrote it") != len(lines) {
				t.Errorf("run log:\n%s\nwant the %d moves", log, len(lines))
			}
		})
	}
}

// TestEditedOutputOfAnOlderManifest: a manifest of a bench from before the
// outputs' digests records none, and its outputs are written over as
// they are, edited or not (nothing to tell an edit by); the run records
// the digests from then on.
func TestEditedOutputOfAnOlderManifest(t *testing.T) {
	dir := t.TempDir()
	r := begin(t, dir, "exp", 1, Options{Render: fakeRender})
	r.CellFinished(cell(0))
	if _, err := r.Finish(StatusComplete, 0); err != nil {
		t.Fatal(err)
	}
	written := checkOutputSums(t, dir)
	// The manifest as an older bench wrote it: no output_sha256.
	path := filepath.Join(dir, ManifestFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		t.Fatal(err)
	}
	delete(fields, "output_sha256")
	if b, err = json.Marshal(fields); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	appendFile(t, filepath.Join(dir, "exp.md"), "MY NOTES\n")
	var notes strings.Builder
	r = begin(t, dir, "exp", 1, Options{Render: fakeRender, Notes: &notes})
	if _, err := r.Finish(StatusComplete, 0); err != nil {
		t.Fatal(err)
	}
	if after := checkOutputSums(t, dir); after["exp.md"] != written["exp.md"] {
		t.Errorf("exp.md:\n%s\nwant it written again", after["exp.md"])
	}
	if _, err := os.Stat(filepath.Join(dir, SupersededDir)); err == nil || strings.Contains(notes.String(), "moved") {
		t.Errorf("moved aside (%v), notes %q; want nothing", err, notes.String())
	}
}

// checkOutputSums reads the outputs dir's manifest lists and checks that
// it records for each the SHA-256 of its file, and no other; it returns
// the outputs' text by name.
func checkOutputSums(t *testing.T, dir string) map[string]string {
	t.Helper()
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Outputs) == 0 || len(m.OutputSHA256) != len(m.Outputs) {
		t.Fatalf("outputs %v, their SHA-256 %v: want one for each", m.Outputs, m.OutputSHA256)
	}
	out := map[string]string{}
	for name, path := range m.Outputs {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		if got := m.OutputSHA256[name]; got != hex.EncodeToString(sum[:]) {
			t.Errorf("%s: recorded SHA-256 %s, the file's is %x", name, got, sum)
		}
		out[name] = string(b)
	}
	return out
}

// appendFile appends text to the file at path.
func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestMergeKeepsEditedOutputs: merging again into a directory whose
// report the user edited since the last merge moves the edited report
// aside, with the user's bytes, and says so in the merge's notes and the
// run log; the outputs not edited are written again in place.
func TestMergeKeepsEditedOutputs(t *testing.T) {
	dir := t.TempDir()
	r := begin(t, dir, "exp", 2, Options{Render: fakeRender, Shard: shardOf(0, 1, 2)})
	finishCells(t, r, 0, 1)
	if _, err := r.Finish(StatusComplete, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(dir, []string{dir}, fakeRender); err != nil {
		t.Fatal(err)
	}
	written := checkOutputSums(t, dir)
	appendFile(t, filepath.Join(dir, "exp.md"), "MY NOTES\n")
	res, err := Merge(dir, []string{dir}, fakeRender)
	if err != nil {
		t.Fatal(err)
	}
	if after := checkOutputSums(t, dir); after["exp.md"] != written["exp.md"] || after["summary.csv"] != written["summary.csv"] {
		t.Errorf("outputs merged again:\n%v\nwant\n%v", after, written)
	}
	moved, _ := filepath.Glob(filepath.Join(dir, SupersededDir, "*", "*"))
	if len(moved) != 1 || filepath.Base(moved[0]) != "exp.md" {
		t.Fatalf("moved aside %v, want exp.md alone", moved)
	}
	if b, _ := os.ReadFile(moved[0]); string(b) != written["exp.md"]+"MY NOTES\n" {
		t.Errorf("exp.md moved aside:\n%s\nwant the user's bytes", b)
	}
	if len(res.Notes) != 1 || !strings.HasPrefix(res.Notes[0], "moved exp.md aside to superseded/") {
		t.Errorf("notes %q, want one line saying exp.md was moved", res.Notes)
	}
	if log, _ := os.ReadFile(filepath.Join(dir, LogFile)); !strings.Contains(string(log), "moved exp.md aside to superseded/") {
		t.Errorf("run log:\n%s\nwant the move", log)
	}
}

// TestHugeOutputMovedAsideUnread: an output replaced by a sparse file of
// 200 GB is moved aside at once, unread: its size is not the one
// manifest.json records (output_bytes). With a manifest of a bench from
// before the sizes, a file over MaxFileBytes is moved aside unread too,
// saying so. The next outputs are as the first run wrote them, each with
// its size recorded.
func TestHugeOutputMovedAsideUnread(t *testing.T) {
	for _, tt := range []struct {
		name   string
		sizes  bool // the manifest records output_bytes
		reason string
	}{
		{"sizes recorded", true, ": it changed after bench wrote it (edited by hand?): its SHA-256 is not the one manifest.json records, and an output of the run replaces it"},
		{"manifest without sizes", false, ": it holds 214748364800 bytes, more than the 268435456 (256 MiB) bench reads of a results file, and manifest.json records no size for it: taken as changed after bench wrote it, unread, and an output of the run replaces it"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			r := begin(t, dir, "exp", 1, Options{Render: fakeRender})
			r.CellFinished(cell(0))
			if _, err := r.Finish(StatusComplete, 0); err != nil {
				t.Fatal(err)
			}
			written := checkOutputSums(t, dir)
			m, err := ReadManifest(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := m.OutputBytes["summary.csv"], int64(len(written["summary.csv"])); got != want || len(m.OutputBytes) != len(m.Outputs) {
				t.Fatalf("output_bytes %v: summary.csv %d, want %d, and one for each output", m.OutputBytes, got, want)
			}
			if !tt.sizes {
				dropField(t, filepath.Join(dir, ManifestFile), "output_bytes")
			}
			if err := os.Truncate(filepath.Join(dir, "summary.csv"), 200<<30); err != nil {
				t.Skipf("no sparse file of 200 GB here: %v", err)
			}
			var notes strings.Builder
			start := time.Now()
			r = begin(t, dir, "exp", 1, Options{Render: fakeRender, Notes: &notes})
			if _, err := r.Finish(StatusComplete, 0); err != nil {
				t.Fatal(err)
			}
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("took %v, want at once (the file unread)", took)
			}
			if after := checkOutputSums(t, dir); after["summary.csv"] != written["summary.csv"] {
				t.Errorf("summary.csv %q, want %q", after["summary.csv"], written["summary.csv"])
			}
			moved, _ := filepath.Glob(filepath.Join(dir, SupersededDir, "*", "summary.csv"))
			if len(moved) != 1 {
				t.Fatalf("moved %v, want summary.csv", moved)
			}
			if fi, err := os.Stat(moved[0]); err != nil || fi.Size() != 200<<30 {
				t.Errorf("moved %v (%v), want the 200 GB file", fi, err)
			}
			var said []string
			for _, l := range strings.Split(notes.String(), "\n") {
				if strings.HasPrefix(l, "moved ") {
					said = append(said, l)
				}
			}
			if len(said) != 1 || !strings.HasPrefix(said[0], "moved summary.csv aside to superseded/") || !strings.HasSuffix(said[0], tt.reason) {
				t.Errorf("notes %q, want one move of summary.csv ending %q", said, tt.reason)
			}
			if m, err := ReadManifest(dir); err != nil || m.OutputBytes["summary.csv"] != int64(len(written["summary.csv"])) {
				t.Errorf("output_bytes after: %v (%v)", m.OutputBytes, err)
			}
		})
	}
}

// dropField removes a field of the JSON object in the file at path (a
// manifest as a bench from before the field wrote it).
func dropField(t *testing.T, path, field string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		t.Fatal(err)
	}
	if _, ok := fields[field]; !ok {
		t.Fatalf("%s holds no %s", path, field)
	}
	delete(fields, field)
	if b, err = json.Marshal(fields); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
