package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/results"
)

// TestTableRefusesCellWithEditedNames: bench table refuses a cell file
// whose result was edited to name the learner "lda" followed by an OSC
// title sequence, and one class with a colour escape, its checksum made
// right and its spec left as it was (campaign 9 B08: the tables were
// written again with the sequences raw); the error names the file and
// the field, and no output of the directory holds the escape.
func TestTableRefusesCellWithEditedNames(t *testing.T) {
	dir, cell := runOneCell(t)
	c, err := results.ReadCell(cell, 1)
	if err != nil {
		t.Fatal(err)
	}
	c.Learner = "lda\x1b]0;pwned\a"
	c.Classes[0] += "\x1b[31m"
	if _, err := results.WriteCell(filepath.Dir(cell), c.CellResult, c.Digest, c.Spec); err != nil {
		t.Fatal(err)
	}
	_, _, err = bench(t, "table", dir)
	want := cell + `: its result's learner "lda\x1b]0;pwned\a" holds an escape (U+001B) at character 4: the file was edited after it was written`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("bench table: %v\nlacks %q", err, want)
	}
	checkNoEscape(t, dir, cell)
}
