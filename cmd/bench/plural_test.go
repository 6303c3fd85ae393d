package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/results"
)

// oneCellExperiment has 1 cell (iris × logreg).
const oneCellExperiment = `experiment "one" { seed = 3 }
dataset "iris" { path = "%DATA%/iris.csv" }
learner "logreg" {}
cv { folds = 3 }
metrics = ["accuracy"]
`

// TestCountsAgree: the counts of cells, shards, folds and tasks that bench
// prints agree in number with their noun ("1 cell", not "1 cells"), in
// "n of total" the noun agreeing with the total.
func TestCountsAgree(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{nOf(0, 1, "cell"), "0 of 1 cell"},
		{nOf(1, 1, "cell"), "1 of 1 cell"},
		{nOf(1, 2, "cell"), "1 of 2 cells"},
		{nOf(2, 2, "shard"), "2 of 2 shards"},
		{runVerdict(nil, results.StatusComplete, 1, 1, "log").Error(), "1 of 1 cell failed; see log"},
		{recordedPartial(&results.Manifest{Cells: 1, Status: results.StatusInterrupted}, 0), "the recorded run is interrupted: 0 of 1 cell; cells it never finished are not compared"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	var b bytes.Buffer
	runEnd{name: "e", status: results.StatusInterrupted, cells: 0, total: 1}.print(&b)
	if want := "e: interrupted, 0 of 1 cell, the tables partial (0 failed) in 0s\n"; b.String() != want {
		t.Errorf("run end %q, want %q", b.String(), want)
	}
	b.Reset()
	warnEmptyShards(&b, 3, 1)
	if want := "note: 3 shards for 1 cell: 2 shards have no cell to run\n"; b.String() != want {
		t.Errorf("note %q, want %q", b.String(), want)
	}
	b.Reset()
	warnEmptyShards(&b, 3, 2)
	if want := "note: 3 shards for 2 cells: 1 shard has no cell to run\n"; b.String() != want {
		t.Errorf("note %q, want %q", b.String(), want)
	}
}

// TestOneCellCounts: bench submit slurm, bench validate --plan and bench
// table on an experiment of one cell say "1 cell" ("1 cells" before).
func TestOneCellCounts(t *testing.T) {
	exp := writeExperiment(t, oneCellExperiment)
	fakeSbatch(t, "")
	dir := filepath.Join(t.TempDir(), "res")
	stdout, stderr, err := runBench(t, "submit", "slurm", exp, "--plugins", pluginsDir, "-o", dir, "--shards", "1", "--now")
	if err != nil || !strings.Contains(stdout, "one: 1 cell in 1 shard, results in ") || !strings.Contains(stdout, "submitted job array 4711 (1 task) and merge job") {
		t.Errorf("submit slurm: %v\n%s%s", err, stdout, stderr)
	}
	stdout, stderr, err = bench(t, "validate", "--plan", exp)
	if err != nil || !strings.Contains(stdout, "total: 1 cell, 3 folds, ") {
		t.Errorf("validate --plan: %v\n%s%s", err, stdout, stderr)
	}
	out := filepath.Join(t.TempDir(), "out")
	if stdout, stderr, err = bench(t, "run", "-o", out, exp); err != nil {
		t.Fatalf("run: %v\n%s%s", err, stdout, stderr)
	}
	stdout, stderr, err = bench(t, "table", out)
	if err != nil || !strings.HasPrefix(stdout, "one: 1 cell\n") {
		t.Errorf("table: %v\n%s%s", err, stdout, stderr)
	}
}
