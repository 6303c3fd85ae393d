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
	dir := t.TempDir()
	file := writeExperiment(t, `experiment "adv" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "lda" {}
reduction "ova" {}
cv { folds = 3 }
metrics = ["accuracy"]
`)
	if _, stderr, err := bench(t, "run", "-o", dir, file); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr)
	}
	cells, _ := filepath.Glob(filepath.Join(dir, "cells", "*.json"))
	if len(cells) != 1 {
		t.Fatalf("cells %v", cells)
	}
	orig := readFile(t, cells[0])
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
			for _, f := range []struct{ path, text string }{{cells[0], orig}, {filepath.Join(dir, "manifest.json"), manifest}} {
				if err := os.WriteFile(f.path, []byte(f.text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			c, err := results.ReadCell(cells[0], 1)
			if err != nil {
				t.Fatal(err)
			}
			tc.edit(c)
			c.Spec.Cell = c.Key()
			c.Digest = c.Spec.Digest()
			if err := os.Remove(cells[0]); err != nil {
				t.Fatal(err)
			}
			path, err := results.WriteCell(filepath.Dir(cells[0]), c.CellResult, c.Digest, c.Spec)
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
			filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() || p == path {
					return err
				}
				if strings.Contains(readFile(t, p), "\x1b") {
					t.Errorf("%s holds an escape", p)
				}
				return nil
			})
		})
	}
}
