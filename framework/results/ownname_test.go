package results

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNameClash: the reports of an experiment (NAME.md, NAME.json, ...)
// that would take the name of a file the results directory keeps for
// itself, compared without regard to case; none for other names.
func TestNameClash(t *testing.T) {
	for _, tc := range []struct{ name, report, clash string }{
		{"manifest", "manifest.json", "manifest.json"},
		{"MANIFEST", "MANIFEST.json", "manifest.json"},
		{"manifest2", "", ""},
		{"run", "", ""},
		{"summary", "", ""},
		{"exp", "", ""},
	} {
		report, clash := NameClash(tc.name)
		if report != tc.report || clash != tc.clash {
			t.Errorf("NameClash(%q) = %q, %q; want %q, %q", tc.name, report, clash, tc.report, tc.clash)
		}
	}
}

// TestRenderRefusesOwnNames: a renderer's output named as the manifest
// (or the log), or named twice, is refused: the manifest stays the
// run's, and no output is listed twice as written.
func TestRenderRefusesOwnNames(t *testing.T) {
	for _, tc := range []struct {
		outputs []string
		want    string
	}{
		{[]string{"exp.md", "manifest.json"}, "output manifest.json would overwrite the results directory's manifest.json"},
		{[]string{"Run.log"}, "output Run.log would overwrite the results directory's run.log"},
		{[]string{"exp.md", "exp.md"}, "output exp.md would be written twice"},
	} {
		t.Run(strings.Join(tc.outputs, ","), func(t *testing.T) {
			dir := t.TempDir()
			completeRun(t, dir, "markdown")
			render := func(m *Manifest, cells []*Cell) ([]Output, error) {
				var out []Output
				for _, n := range tc.outputs {
					out = append(out, Output{n, func(w io.Writer) error { _, err := io.WriteString(w, "{}\n"); return err }})
				}
				return out, nil
			}
			_, written, err := Render(dir, render, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Render: %v; want an error saying %q", err, tc.want)
			}
			seen := map[string]bool{}
			for _, w := range written {
				if seen[w] {
					t.Errorf("%s listed twice as written: %q", w, written)
				}
				seen[w] = true
			}
			b, err := os.ReadFile(filepath.Join(dir, ManifestFile))
			if err != nil {
				t.Fatal(err)
			}
			var m Manifest
			if err := json.Unmarshal(b, &m); err != nil || m.Experiment != "exp" {
				t.Errorf("manifest.json is no longer the run's manifest (%v):\n%s", err, b)
			}
		})
	}
}
