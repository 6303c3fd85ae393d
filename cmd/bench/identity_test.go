package main

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/results"
)

// TestValidateRefusesDuplicateCells: a parameter list that repeats a value
// gives two cells with one identity; validate refuses it at the list.
func TestValidateRefusesDuplicateCells(t *testing.T) {
	file := writeExperiment(t, `experiment "dup" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" { params = { C = [1, 0.5, 1] } }
reduction "ova" { decode = ["hamming", "loss:exp"] }
`)
	_, stderr, err := bench(t, "validate", file)
	if err == nil {
		t.Fatalf("validate accepted C = [1, 0.5, 1]:\n%s", stderr)
	}
	for _, want := range []string{
		"exp.hcl:3:35: error: Duplicate cells",
		`learner "logreg": C lists a value twice, so cells 0 and 4 (iris|none|logreg|C=1|ova[decode=hamming]) have one spec, one identity`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if n := strings.Count(stderr, "Duplicate cells"); n != 1 {
		t.Errorf("%d errors for one repeated value:\n%s", n, stderr)
	}
}

// TestRunNamesWhatChanged: a cell computed again because its data changed
// is moved aside with the changed input named, digests cut short.
func TestRunNamesWhatChanged(t *testing.T) {
	dir := t.TempDir()
	iris, err := os.ReadFile(filepath.Join("..", "..", "experiments", "data", "iris.csv"))
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "iris.csv")
	if err := os.WriteFile(data, iris, 0o644); err != nil {
		t.Fatal(err)
	}
	file := writeExperiment(t, `experiment "changed" { seed = 1 }
dataset "iris" { path = "`+data+`" }
learner "lda" {}
reduction "ova" {}
cv { folds = 3 }
metrics = ["accuracy"]
`)
	out := filepath.Join(dir, "out")
	if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
		t.Fatalf("first run: %v\n%s", err, stderr)
	}
	m, err := results.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	old := m.Datasets[0].SHA256
	// One value changed: the data's digest changes, nothing else.
	edited := strings.Replace(string(iris), "5.1,3.5,1.4,0.2", "5.2,3.5,1.4,0.2", 1)
	if edited == string(iris) {
		t.Fatal("test: iris.csv not edited")
	}
	if err := os.WriteFile(data, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := bench(t, "run", "-o", out, file)
	if err != nil {
		t.Fatalf("second run: %v\n%s", err, stderr)
	}
	m, _ = results.ReadManifest(out)
	want := `its inputs changed: dataset "iris": sha256 ` + old[:8] + "… → " + m.Datasets[0].SHA256[:8] + "…"
	if !strings.Contains(stderr, want) || strings.Count(stderr, "moved cells/") != 1 {
		t.Errorf("stderr lacks %q once:\n%s", want, stderr)
	}
	if log := readFile(t, filepath.Join(out, "run.log")); !strings.Contains(log, want) {
		t.Errorf("run.log lacks %q", want)
	}
}

// TestTableRefusesForeignAndInconsistentCells: bench table refuses a cell
// copied in from a run with another seed, and a cell whose n_test
// disagrees with its confusion matrix (its checksum made right), naming
// each file; it renders the directory again once they are gone.
func TestTableRefusesForeignAndInconsistentCells(t *testing.T) {
	src := `experiment "t" { seed = SEED }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "lda" {}
learner "logreg" {}
reduction "ova" {}
cv { folds = 3 }
metrics = ["accuracy"]
`
	dirs := map[string]string{}
	for _, seed := range []string{"1", "2"} {
		dirs[seed] = t.TempDir()
		file := writeExperiment(t, strings.Replace(src, "SEED", seed, 1))
		if _, stderr, err := bench(t, "run", "-o", dirs[seed], file); err != nil {
			t.Fatalf("seed %s: %v\n%s", seed, err, stderr)
		}
	}
	cells := func(dir string) []string {
		names, _ := filepath.Glob(filepath.Join(dir, "cells", "*.json"))
		return names
	}
	own, foreign := cells(dirs["1"]), cells(dirs["2"])
	if len(own) != 2 || len(foreign) != 2 {
		t.Fatalf("cells %v %v", own, foreign)
	}
	// Cell 0 of the seed-2 run replaces cell 0 of the seed-1 run.
	if err := os.Remove(own[0]); err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(dirs["1"], "cells", filepath.Base(foreign[0]))
	if err := os.WriteFile(copied, []byte(readFile(t, foreign[0])), 0o644); err != nil {
		t.Fatal(err)
	}
	// Cell 1 claims one test row more in its first fold than its confusion
	// matrix counts, written with a checksum that matches.
	c, err := results.ReadCell(own[1], 2)
	if err != nil {
		t.Fatal(err)
	}
	c.Folds[0].NTest++
	if _, err := results.WriteCell(filepath.Dir(own[1]), c.CellResult, c.Digest, c.Spec); err != nil {
		t.Fatal(err)
	}
	_, _, err = bench(t, "table", dirs["1"])
	for _, want := range []string{
		copied + ": not a cell of this run: its digest",
		own[1] + ": fold 0: n_test is 51 but the confusion matrix counts 50 rows",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("bench table: %v\nlacks %q", err, want)
		}
	}
}

// TestBuildIdentity: bench's build in a cell's spec: version, revision,
// modified tree, Go, settings; the executable's digest when the version
// and revision do not fix the code.
func TestBuildIdentity(t *testing.T) {
	sum := func() string { return "e5e5" }
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"release", &debug.BuildInfo{GoVersion: "go1.99", Main: debug.Module{Version: "v1.2.0"}, Settings: vcs("-trimpath", "true")},
			"v1.2.0 go1.99 map[-trimpath:true]"},
		{"clean checkout", &debug.BuildInfo{GoVersion: "go1.99", Main: debug.Module{Version: "v0.0.0-20261127082333-773720d85e22"},
			Settings: vcs("vcs", "git", "vcs.revision", "773720d85e22", "vcs.time", "2026-11-27T08:23:33Z", "vcs.modified", "false")},
			"v0.0.0-20261127082333-773720d85e22 773720d85e22 go1.99 map[]"},
		{"modified checkout", &debug.BuildInfo{GoVersion: "go1.99", Main: debug.Module{Version: "v0.0.0-20261127082333-773720d85e22+dirty"},
			Settings: vcs("vcs.revision", "773720d85e22", "vcs.modified", "true")},
			"v0.0.0-20261127082333-773720d85e22+dirty 773720d85e22 modified go1.99 map[] e5e5"},
		{"no VCS (a worktree, go test)", &debug.BuildInfo{GoVersion: "go1.99", Main: debug.Module{Version: "(devel)"}},
			"(devel) go1.99 map[] e5e5"},
		{"no build information", nil, "unknown " + runtime.Version() + " map[] e5e5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := buildIdentity(tt.bi, sum)
			got := strings.Join(strings.Fields(strings.Join([]string{b.Version, b.Revision, map[bool]string{true: "modified"}[b.Modified],
				b.Go, fmtMap(b.Settings), b.SHA256}, " ")), " ")
			if got != tt.want {
				t.Errorf("%q, want %q", got, tt.want)
			}
		})
	}
}

func fmtMap(m map[string]string) string {
	var parts []string
	for k, v := range m {
		parts = append(parts, k+":"+v)
	}
	return "map[" + strings.Join(parts, " ") + "]"
}

// TestSklearnVersionChangeRecomputes: a scikit-learn run resumed with the
// same plugin computes nothing again; with scikit-learn reporting another
// version (testdata/sklearn-stub on PYTHONPATH: the installed scikit-learn
// reporting 9.9.9, as an upgrade would), every scikit-learn cell is
// computed again and the run names the change; the other learner's cell
// is kept.
func TestSklearnVersionChangeRecomputes(t *testing.T) {
	needPython(t)
	file := writeExperiment(t, `experiment "skv" { seed = 0 }
dataset "iris" { path = "%DATA%/iris.csv" }
cv { folds = 2 }
learner "sk" {
  plugin = "sklearn"
  params = { C = [0.5, 1] }
}
learner "lda" {}
reduction "ova" { scheme = "ova" }
metrics = ["accuracy"]
`)
	var installed string
	for _, c := range pythonRuntime(t, pythonPath) {
		if v, ok := strings.CutPrefix(c, "scikit-learn "); ok {
			installed = v
		}
	}
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	before := cellFiles(t, out)
	stdout, stderr, err := bench(t, "run", "-o", out, file)
	if err != nil || !strings.Contains(stdout, "(0 failed, 3 kept from an earlier run)") || strings.Contains(stderr, "moved") {
		t.Fatalf("resumed with the same plugins: %v\n%s%s", err, stdout, stderr)
	}
	if after := cellFiles(t, out); len(after) != 3 {
		t.Fatalf("%d cell files after the resume", len(after))
	} else {
		for name, st := range before {
			if after[name] != st {
				t.Errorf("%s written again", name)
			}
		}
	}
	stub, err := filepath.Abs(filepath.Join("testdata", "sklearn-stub"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PYTHONPATH", stub)
	stdout, stderr, err = bench(t, "run", "-o", out, file)
	if err != nil || !strings.Contains(stdout, "(0 failed, 1 kept from an earlier run)") {
		t.Fatalf("resumed with scikit-learn 9.9.9: %v\n%s%s", err, stdout, stderr)
	}
	want := `learner "sk": scikit-learn ` + installed + " → 9.9.9"
	if n := strings.Count(stderr, want); n != 2 {
		t.Errorf("stderr names the change %d times, want 2 (one per scikit-learn cell): %q\n%s", n, want, stderr)
	}
}
