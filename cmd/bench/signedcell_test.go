package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/results"
)

// TestTableRefusesSignedCellEscapes: bench table refuses a cell file
// whose result and spec were edited alike, as campaign 10's resign.py
// did (B08d/B08g): the reduction's label, or the spec's plugin version,
// given an escape sequence, the spec's digest, the file's name and
// checksum and the manifest's cell and run digests computed again. The
// error names the file and the field; no output holds the escape.
func TestTableRefusesSignedCellEscapes(t *testing.T) {
	dir, cell := runOneCell(t)
	orig := readFile(t, cell)
	manifest := readFile(t, filepath.Join(dir, "manifest.json"))
	for _, tc := range []struct {
		name string
		edit func(*results.Cell)
		want string // after the file's path
	}{
		{"reduction label", func(c *results.Cell) {
			c.Reduction = "ova\x1b[31mRED"
			c.Spec.Reduction.Name = c.Reduction
		}, `: its result's reduction "ova\x1b[31mRED" holds an escape (U+001B) at character 4: the file was edited after it was written`},
		{"plugin version", func(c *results.Cell) {
			c.Spec.Learner.Plugin.Version = "1\x1b]0;pwned\a"
		}, `: its spec's learner plugin version "1\x1b]0;pwned\a" holds an escape (U+001B) at character 2: the file was edited after it was written`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, f := range []struct{ path, text string }{{cell, orig}, {filepath.Join(dir, "manifest.json"), manifest}} {
				if err := os.WriteFile(f.path, []byte(f.text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			c, err := results.ReadCell(cell, 1)
			if err != nil {
				t.Fatal(err)
			}
			tc.edit(c)
			c.Spec.Cell = c.Key()
			c.Digest = c.Spec.Digest()
			if err := os.Remove(cell); err != nil {
				t.Fatal(err)
			}
			path, err := results.WriteCell(filepath.Dir(cell), c.CellResult, c.Digest, c.Spec)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Remove(path) })
			var m map[string]any
			if err := json.Unmarshal([]byte(manifest), &m); err != nil {
				t.Fatal(err)
			}
			m["cell_digests"] = []string{c.Digest}
			m["run_digest"] = results.RunDigest(m["experiment"].(string), []string{c.Digest})
			b, _ := json.MarshalIndent(m, "", "  ")
			if err := os.WriteFile(filepath.Join(dir, "manifest.json"), append(b, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err = bench(t, "table", dir)
			if want := path + tc.want; err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("bench table: %v\nlacks %q", err, want)
			}
			checkNoEscape(t, dir, path)
		})
	}
}
