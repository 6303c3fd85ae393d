package dataset

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
)

// textPathRange is the range of the path attribute of the datasets
// loadText loads.
var textPathRange = hcl.Range{Filename: "exp.hcl", Start: hcl.Pos{Line: 2, Column: 15}, End: hcl.Pos{Line: 2, Column: 25}}

// loadText writes file, and test when not "", as d.csv and t.csv in a
// temporary directory, loads them as dataset "d" of target class split
// into 2 stratified folds (seed 1), and returns the diagnostics as
// diagLines writes them ($DIR the directory) and the dataset (nil after
// an error).
func loadText(t *testing.T, file, test string) (string, *Dataset) {
	t.Helper()
	dir := t.TempDir()
	c := &config.Dataset{Name: "d", Path: filepath.Join(dir, "d.csv"), Target: "class", PathRange: textPathRange}
	if err := os.WriteFile(c.Path, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	if test != "" {
		c.TestPath = filepath.Join(dir, "t.csv")
		if err := os.WriteFile(c.TestPath, []byte(test), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var ck checker
	ds := ck.loadDataset(c, &config.CV{Folds: 2, Stratified: true}, 1)
	return diagLines(ck.diags, dir), ds
}
