package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/results"
)

// shareExperiment is vehicle (4 classes) under standardize + logreg, 3
// folds, with the reductions red.
const shareExperiment = `
experiment "share" { seed = 5 }
dataset "vehicle" { path = "%DATA%/vehicle.csv" }
encoder "std" { type = "standardize" }
pipeline "std" { steps = ["std"] }
learner "logreg" { params = { C = 1 } }
cv { folds = 3 }
metrics = ["accuracy"]
`

// shareReductions are ovo decoded by vote and by DAG, and one random
// dense code of 6 columns decoded three ways, each a reduction block.
var shareReductions = map[string]string{
	"ovo": `reduction "ovo" { scheme = "ovo" }`,
	"dag": `reduction "dag" {
  scheme = "ovo"
  decode = "dag"
}`,
	"code": `reduction "code" {
  scheme = "ecoc"
  code   = "random_dense"
  length = 6
  decode = ["hamming", "loss:exp", "loss:logistic"]
}`,
}

// cellLines matches the lines of a cell file that hold times, the
// checksum that covers them, and the cell's index in its grid.
var cellLines = regexp.MustCompile(`(?m)^\s*"(fit_seconds|predict_seconds|checksum|index)": .*\n`)

// runCells runs the experiment with the given reductions into a new
// directory with the flags (-j N, say) and returns its cell files (times
// and index aside) by cell digest, with the directory.
func runCells(t *testing.T, flags []string, reductions ...string) (map[string]string, string) {
	t.Helper()
	src := shareExperiment
	for _, r := range reductions {
		src += shareReductions[r] + "\n"
	}
	out := filepath.Join(t.TempDir(), "out")
	args := append(append([]string{"run"}, flags...), "-o", out, writeExperiment(t, src))
	if _, stderr, err := bench(t, args...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	return cellTexts(t, out), out
}

// cellTexts returns the cell files of results directory out, times and
// index aside, by cell digest (the file name's).
func cellTexts(t *testing.T, out string) map[string]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(out, results.CellsDir, "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no cell files in %s (%v)", out, err)
	}
	cells := map[string]string{}
	for _, p := range paths {
		_, digest, _ := strings.Cut(filepath.Base(p), "-")
		cells[digest] = cellLines.ReplaceAllString(readFile(t, p), "")
	}
	return cells
}

// fitsOf returns the fits line of a run's log.
func fitsOf(t *testing.T, out string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^fits: .*$`).FindString(readFile(t, filepath.Join(out, results.LogFile)))
	if m == "" {
		t.Fatalf("no fits line in %s's run.log", out)
	}
	return m
}

// TestRunSharesFitsAcrossCells runs ovo, dag and three decoders of one
// random dense code on vehicle (4 classes, 3 folds) in one run of real
// plugin processes: ovo and dag request 2 × 6 pairwise problems a fold
// and make 6, the decoders 3 × 6 columns and make 6: 90 requested, 36
// made, as run.log and the summary say. Each cell file is, times and
// index aside, the one the cell's reduction writes in a run of its own,
// the same with -j 1 as with -j 4 and with --no-share (90 made). A
// resumed run that lost the dag cell makes its fits again, and its file
// is the same.
func TestRunSharesFitsAcrossCells(t *testing.T) {
	together, out := runCells(t, []string{"-j", "4"}, "ovo", "dag", "code")
	if len(together) != 5 {
		t.Fatalf("%d cells, want 5", len(together))
	}
	if got, want := fitsOf(t, out), "fits: 90 requested, 36 made"; got != want {
		t.Errorf("run.log: %q, want %q", got, want)
	}
	if log := readFile(t, filepath.Join(out, results.LogFile)); !regexp.MustCompile(`(?m)^phases \(seconds summed over the workers; [0-9.]+ s of worker time: 4 workers × [0-9.]+ s\):\n  encode +[0-9.]+ s +[0-9.]+%\n`).MatchString(log) {
		t.Errorf("run.log has no phase table:\n%s", log)
	}
	serial, out1 := runCells(t, []string{"-j", "1"}, "ovo", "dag", "code")
	if got, want := fitsOf(t, out1), "fits: 90 requested, 36 made"; got != want {
		t.Errorf("-j 1 run.log: %q, want %q", got, want)
	}
	unshared, outN := runCells(t, []string{"-j", "4", "--no-share"}, "ovo", "dag", "code")
	if got, want := fitsOf(t, outN), "fits: 90 requested, 90 made"; got != want {
		t.Errorf("--no-share run.log: %q, want %q", got, want)
	}
	for digest, file := range together {
		if serial[digest] != file {
			t.Errorf("cell %s: -j 1 and -j 4 differ", digest)
		}
		if unshared[digest] != file {
			t.Errorf("cell %s: --no-share differs", digest)
		}
	}
	for _, tc := range []struct {
		reduction string
		cells     int
		fits      string
	}{
		{"ovo", 1, "fits: 18 requested, 18 made"},
		{"dag", 1, "fits: 18 requested, 18 made"},
		{"code", 3, "fits: 54 requested, 18 made"},
	} {
		alone, dir := runCells(t, []string{"-j", "2"}, tc.reduction)
		if len(alone) != tc.cells {
			t.Errorf("%s alone: %d cells, want %d", tc.reduction, len(alone), tc.cells)
		}
		if got := fitsOf(t, dir); got != tc.fits {
			t.Errorf("%s alone: %q, want %q", tc.reduction, got, tc.fits)
		}
		for digest, file := range alone {
			if together[digest] != file {
				t.Errorf("%s alone: cell %s differs from the shared run's (or is missing there)", tc.reduction, digest)
			}
		}
	}
	// Resume after losing the dag cell (the second): it alone runs again.
	dag, _ := filepath.Glob(filepath.Join(out, results.CellsDir, "0001-*.json"))
	if len(dag) != 1 {
		t.Fatalf("dag cell files %v", dag)
	}
	if err := os.Remove(dag[0]); err != nil {
		t.Fatal(err)
	}
	src := shareExperiment + shareReductions["ovo"] + "\n" + shareReductions["dag"] + "\n" + shareReductions["code"] + "\n"
	stdout, stderr, err := bench(t, "run", "-j", "4", "-o", out, writeExperiment(t, src))
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(stdout, "(0 failed, 4 kept from an earlier run) in ") || !strings.Contains(stdout, "; fits: 18 requested, 18 made\n") {
		t.Errorf("resumed run's summary %q, want 4 kept and 18 fits requested and made", stdout)
	}
	for digest, file := range cellTexts(t, out) {
		if together[digest] != file {
			t.Errorf("resumed: cell %s differs from the first run's", digest)
		}
	}
}
