package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/internal/refdata"
)

// readCells loads the cell files of a results directory by cell key.
func readCells(t *testing.T, dir string) map[string]*outcome.CellResult {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "cells", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no cell files in %s: %v", dir, err)
	}
	out := map[string]*outcome.CellResult{}
	for _, f := range files {
		var c outcome.CellResult
		if err := json.Unmarshal([]byte(readFile(t, f)), &c); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[c.Dataset+"|"+c.Learner+"|"+c.Reduction] = &c
	}
	return out
}

func TestRunQuickstart(t *testing.T) {
	skipUnderRace(t, "its time goes to the quickstart's numbers, files and plots; the concurrency of a run is TestDeterministicAcrossWorkers's")
	out := t.TempDir()
	stdout, stderr, err := bench(t, "run", "-o", out, "../../experiments/quickstart.hcl")
	if err != nil {
		t.Fatalf("run: %v\nstderr:\n%s", err, stderr)
	}
	for _, want := range []string{"\n  " + out + ": quickstart.md, summary.csv, folds.csv, quickstart.tex, quickstart.html, per_class.csv, manifest.json\n",
		"\n  " + filepath.Join(out, "plots") + ": 26 files\n", "\n  " + filepath.Join(out, "cells") + ": 15 cells\n",
		"\n  report: " + filepath.Join(out, "quickstart.html") + "\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout does not say %q:\n%s", want, stdout)
		}
	}
	readmePrintsRun(t, stdout, out)
	summary := strings.Split(strings.TrimSpace(readFile(t, filepath.Join(out, "summary.csv"))), "\n")
	// 3 datasets × (3 values of C + svm + lda) × 2 metrics, plus the header.
	if len(summary) != 1+3*5*2 {
		t.Fatalf("summary.csv has %d lines:\n%s", len(summary), strings.Join(summary, "\n"))
	}
	if summary[0] != "dataset,pipeline,learner,params,reduction,metric,mean,std,n_folds" {
		t.Errorf("header %q", summary[0])
	}
	if !strings.HasPrefix(summary[3], "iris,default,logreg,C=1,ova,accuracy,0.9") {
		t.Errorf("iris C=1 accuracy row: %q", summary[3])
	}
	md := readFile(t, filepath.Join(out, "quickstart.md"))
	if !strings.Contains(md, "| row | iris | wine | car |") || !strings.Contains(md, "**") {
		t.Errorf("markdown table:\n%s", md)
	}
	var m struct {
		Plugins  []struct{ Name, Version, SHA256 string }
		Datasets []struct {
			Name, SHA256 string
			Rows         int
		}
		Seed uint64
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "manifest.json"))), &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Plugins) != 4 || m.Plugins[0].Name != "logreg" || len(m.Plugins[0].SHA256) != 64 || m.Seed != 1 {
		t.Errorf("manifest plugins %+v seed %d", m.Plugins, m.Seed)
	}
	if len(m.Datasets) != 3 || m.Datasets[0].Rows != 150 || len(m.Datasets[2].SHA256) != 64 {
		t.Errorf("manifest datasets %+v", m.Datasets)
	}
	if files, _ := filepath.Glob(filepath.Join(out, "cells", "*.json")); len(files) != 15 {
		t.Errorf("%d cell files, want 15", len(files))
	}

	// bench table renders the same tables from the results directory alone.
	before := map[string]string{}
	for _, f := range []string{"summary.csv", "folds.csv", "quickstart.md"} {
		before[f] = readFile(t, filepath.Join(out, f))
		os.Remove(filepath.Join(out, f))
	}
	if stdout, stderr, err := bench(t, "table", out); err != nil || !strings.Contains(stdout, "quickstart: 15 cells") {
		t.Fatalf("table: %v\n%s%s", err, stdout, stderr)
	}
	for f, want := range before {
		if got := readFile(t, filepath.Join(out, f)); got != want {
			t.Errorf("bench table wrote a different %s", f)
		}
	}
}

// TestDeterministicAcrossWorkers: the same file and seed give
// byte-identical tables and cell files (their threshold views, pooled
// from every fold's scores, included) with 1 and 4 workers.
func TestDeterministicAcrossWorkers(t *testing.T) {
	src := `experiment "det" { seed = 7 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
dataset "car" {
  path = "%REPO%/experiments/data/car.csv"
  categorical = ["buying", "maint", "doors", "persons", "lug_boot", "safety"]
}
encoder "std" { type = "standardize" }
encoder "onehot" { type = "onehot" }
learner "logreg" { params = { C = [0.5, 2] } }
learner "svm" { params = { C = 1 } }
reduction "ova" { scheme = "ova" }
reduction "ecoc" {
  scheme = "ecoc"
  code   = "random_dense"
  decode = ["hamming", "loss:exp"]
}
cv {
  folds   = 5
  repeats = 2
}
metrics = ["accuracy", "macro_f1", "kappa", "log_loss"]
`
	file := writeExperiment(t, src)
	var outs [2]string
	for i, j := range []string{"1", "4"} {
		outs[i] = t.TempDir()
		if _, stderr, err := bench(t, "run", "-j", j, "-o", outs[i], file); err != nil {
			t.Fatalf("-j %s: %v\n%s", j, err, stderr)
		}
	}
	for _, f := range []string{"summary.csv", "folds.csv", "per_class.csv", "det.md"} {
		a, b := readFile(t, filepath.Join(outs[0], f)), readFile(t, filepath.Join(outs[1], f))
		if a != b {
			t.Errorf("%s differs between -j 1 and -j 4", f)
		}
	}
	// Cell files hold timings; their threshold views are the same bytes.
	cells, _ := filepath.Glob(filepath.Join(outs[0], "cells", "*.json"))
	if len(cells) != 18 {
		t.Fatalf("%d cell files, want 18", len(cells))
	}
	for _, c := range cells {
		var a, b struct{ Curves json.RawMessage }
		if err := json.Unmarshal([]byte(readFile(t, c)), &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(readFile(t, filepath.Join(outs[1], "cells", filepath.Base(c)))), &b); err != nil {
			t.Fatal(err)
		}
		if len(a.Curves) < 100 || !bytes.Equal(a.Curves, b.Curves) {
			t.Errorf("%s: threshold views of %d bytes, the same with -j 4: %v", filepath.Base(c), len(a.Curves), bytes.Equal(a.Curves, b.Curves))
		}
	}
	if md := readFile(t, filepath.Join(outs[0], "det.md")); !strings.Contains(md, "## Per class and per threshold") || !strings.Contains(md, "#### car: logreg C=2 ecoc[decode=loss:exp]") {
		t.Error("det.md has no per-class reports")
	}
	if n := strings.Count(readFile(t, filepath.Join(outs[0], "folds.csv")), "\n"); n != 1+2*3*3*10*4 {
		t.Errorf("folds.csv has %d lines, want %d", n, 1+2*3*3*10*4)
	}
}

// TestDatasetUploadedOncePerProcess: without encoders every fold of iris
// uses the same design matrix, so it travels to the learner once for all
// 2 reductions × 3 values of C × 10 folds; with standardize each fold has
// its own matrix, uploaded once whatever the number of cells.
func TestDatasetUploadedOncePerProcess(t *testing.T) {
	for _, tt := range []struct {
		name, encoder string
		want          float64
	}{{"raw", "", 1}, {"standardized", `encoder "std" { type = "standardize" }`, 10}} {
		t.Run(tt.name, func(t *testing.T) {
			file := writeExperiment(t, `experiment "up" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
`+tt.encoder+`
learner "logreg" { params = { C = [0.1, 1, 10] } }
reduction "ova" { scheme = "ova" }
reduction "ovo" { scheme = "ovo" }
`)
			out := t.TempDir()
			if _, stderr, err := bench(t, "run", "-j", "4", "-o", out, file); err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			var m map[string]any
			json.Unmarshal([]byte(readFile(t, filepath.Join(out, "manifest.json"))), &m)
			if m["uploads"] != tt.want || m["cells"] != 6.0 {
				t.Fatalf("uploads %v for %v cells, want %v", m["uploads"], m["cells"], tt.want)
			}
		})
	}
}

// TestOvOFoldUploadsOncePerProcess: one-vs-one on letter-like data (26
// classes, 325 problems per fold) through logreg and svm: each fold's
// standardized matrix travels once to each learner process, in one
// message, and the 325 problems of a fold go in batched Fit calls, not one
// call each. The run log and manifest.json record the counts.
func TestOvOFoldUploadsOncePerProcess(t *testing.T) {
	const classes, perClass, cols, folds = 26, 9, 4, 3
	var csv strings.Builder
	csv.WriteString("a,b,c,d,class\n")
	for i := 0; i < classes*perClass; i++ {
		k := i % classes
		fmt.Fprintf(&csv, "%d,%d,%d,%d,c%02d\n", k+i%7, k*k%11+i%5, (k*7+i)%13, i%3, k)
	}
	dataFile := filepath.Join(t.TempDir(), "letters.csv")
	if err := os.WriteFile(dataFile, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	file := writeExperiment(t, fmt.Sprintf(`experiment "ovo" { seed = 1 }
dataset "letters" { path = %q }
encoder "std" { type = "standardize" }
learner "logreg" { params = { C = 1 } }
learner "svm" { params = { C = 1 } }
reduction "ovo" { scheme = "ovo" }
cv {
  folds      = %d
  stratified = true
}
`, dataFile, folds))
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-j", "2", "-o", out, file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	var m struct {
		Uploads int64
		Calls   []outcome.CallStats
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "manifest.json"))), &m); err != nil {
		t.Fatal(err)
	}
	calls := map[string]outcome.CallStats{}
	for _, c := range m.Calls {
		calls[c.Plugin+" "+c.Method] = c
	}
	matrix := int64(classes * perClass * cols * 8)
	for _, l := range []string{"logreg", "svm"} {
		up := calls[l+" LearnerService/Upload"]
		if up.Calls != folds || up.SentMessages != folds || up.Sent < folds*matrix || up.Sent > folds*(matrix+1024) {
			t.Errorf("%s: %d uploads, %d messages, %d bytes; want %d of one %d-byte matrix each", l, up.Calls, up.SentMessages, up.Sent, folds, matrix)
		}
		if fit := calls[l+" LearnerService/Fit"]; fit.Calls < folds || fit.Calls > 4*folds {
			t.Errorf("%s: %d Fit calls for %d folds of 325 problems: want the problems batched", l, fit.Calls, folds)
		}
		if pr := calls[l+" LearnerService/Predict"]; pr.Calls < folds || pr.Calls > 4*folds {
			t.Errorf("%s: %d Predict calls for %d folds", l, pr.Calls, folds)
		}
	}
	if m.Uploads != 2*folds {
		t.Errorf("manifest uploads %d, want %d", m.Uploads, 2*folds)
	}
	if log := readFile(t, filepath.Join(out, "run.log")); !strings.Contains(log, "plugin calls (6 folds run):") || !strings.Contains(log, "LearnerService/Upload") {
		t.Errorf("run log without the plugin calls:\n%s", log)
	}
	t.Logf("calls: %+v", m.Calls)
}

// parity runs src and checks each listed cell's per-fold accuracy against
// scikit-learn's on the same folds: within one test row, or equal.
func parity(t *testing.T, src string, checks map[string]string, exact map[string]bool) {
	t.Helper()
	file := writeExperiment(t, src)
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	cells := readCells(t, out)
	for key, setup := range checks {
		c := cells[key]
		if c == nil {
			t.Errorf("no cell %s", key)
			continue
		}
		ref := reference(t, c.Dataset, setup)
		for _, f := range c.Folds {
			got := f.Metrics["accuracy"]
			tol := 1/float64(f.NTest) + 1e-6
			if exact[key] {
				tol = 1e-6
			}
			if math.Abs(got-ref[f.Fold]) > tol {
				t.Errorf("%s fold %d: accuracy %.6f, scikit-learn %.6f (%d test rows)", key, f.Fold, got, ref[f.Fold], f.NTest)
			}
		}
	}
}

func datasets(names ...string) string {
	var b strings.Builder
	for _, n := range names {
		b.WriteString(`dataset "` + n + `" {
  path       = "%DATA%/` + n + `.csv"
  folds_file = "%REF%/folds/` + n + `.folds.csv"
}
`)
	}
	return b.String()
}

// TestParityReductions: standardize + logreg / svm (C = 1) with one-vs-all
// and one-vs-one against scikit-learn and LIBLINEAR on the reference folds.
func TestParityReductions(t *testing.T) {
	skipUnderRace(t, "it checks numbers against scikit-learn; the concurrency of a run is TestDeterministicAcrossWorkers's")
	names := []string{"iris", "wine", "vehicle", "digits", "segment"}
	src := `experiment "parity" { seed = 0 }
` + datasets(names...) + `
encoder "std" { type = "standardize" }
learner "logreg" { params = { C = 1 } }
learner "svm" { params = { C = 1 } }
reduction "ova" { scheme = "ova" }
reduction "ovo" { scheme = "ovo" }
metrics = ["accuracy"]
`
	checks := map[string]string{}
	for _, n := range names {
		checks[n+"|logreg|ova"] = "logreg+ova"
		checks[n+"|logreg|ovo"] = "logreg+ovo"
		checks[n+"|svm|ova"] = "svm+ova"
		checks[n+"|svm|ovo"] = "svm+ovo"
	}
	parity(t, src, checks, nil)
}

// TestParityNative: softmax regression, Crammer–Singer and LDA run without
// a reduction; LDA must equal scikit-learn on every fold.
func TestParityNative(t *testing.T) {
	skipUnderRace(t, "it checks numbers against scikit-learn; the concurrency of a run is TestDeterministicAcrossWorkers's")
	names := []string{"iris", "wine", "vehicle", "digits", "segment"}
	src := `experiment "native" { seed = 0 }
` + datasets(names...) + `
encoder "std" { type = "standardize" }
learner "softmax" {
  plugin = "logreg"
  params = { C = 1 }
}
learner "cs" {
  plugin = "svm"
  params = { method = "crammer_singer", C = 1 }
}
learner "lda" {}
reduction "none" { scheme = "none" }
metrics = ["accuracy"]
`
	checks, exact := map[string]string{}, map[string]bool{}
	for _, n := range names {
		checks[n+"|softmax|none"] = "softmax"
		checks[n+"|cs|none"] = "svm+crammer_singer"
		checks[n+"|lda|none"] = "lda"
		exact[n+"|lda|none"] = true
	}
	parity(t, src, checks, exact)
}

// TestParityCategorical: car, one-hot encoded inside each fold, logreg + ova.
func TestParityCategorical(t *testing.T) {
	src := `experiment "car" { seed = 0 }
dataset "car" {
  path        = "%DATA%/car.csv"
  folds_file  = "%REF%/folds/car.folds.csv"
  categorical = ["buying", "maint", "doors", "persons", "lug_boot", "safety"]
}
encoder "onehot" { type = "onehot" }
learner "logreg" { params = { C = 1 } }
reduction "ova" { scheme = "ova" }
metrics = ["accuracy"]
`
	parity(t, src, map[string]string{"car|logreg|ova": "logreg+ova"}, nil)
}

// TestFoldTimeoutExcludesPluginStart: a plugin that takes longer to start
// than cv.timeout (2.5 s against 1 s; a Python plugin's imports take
// seconds) still runs its folds after a restart: the hang cell's fold
// times out and the host stops the process; hang_ok's folds then wait for
// a new one, and their clock starts once it is up, not while they wait
// (host.StartTimeout bounds the start).
func TestFoldTimeoutExcludesPluginStart(t *testing.T) {
	t.Setenv("HANG_START_DELAY", "2500ms")
	file := writeExperiment(t, `experiment "slow_start" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
encoder "std" { type = "standardize" }
learner "hang" {}
learner "hang_ok" {
  plugin = "hang"
  params = { hang = false }
}
reduction "ova" { scheme = "ova" }
cv {
  folds   = 3
  timeout = 1
}
`)
	out := t.TempDir()
	_, stderr, err := bench(t, "run", "-j", "1", "-o", out, file)
	if err == nil || !strings.Contains(err.Error(), "1 of 2 cells failed") {
		t.Fatalf("error %v, want 1 of 2 cells failed (hang)\n%s", err, stderr)
	}
	cells := readCells(t, out)
	if c := cells["iris|hang_ok|ova"]; c == nil || c.Failed() || len(c.Folds) != 3 {
		t.Errorf("hang_ok, whose folds waited for a restart slower than cv.timeout: %+v", c)
	}
	if c := cells["iris|hang|ova"]; c == nil || !strings.Contains(c.Error, "did not answer within the fold's timeout") {
		t.Errorf("hang cell error %q, want the fold's timeout", c.Error)
	}
}

// TestFailingPluginsFailOnlyTheirCells: a plugin that crashes (a panic, or
// an exit right after a line to os.Stderr) and one that hangs fail the
// cells they were running, with the plugin's stderr shown, its last line
// included; the other cells — including later cells of the same plugins,
// which get a fresh process — and every output file are still written.
func TestFailingPluginsFailOnlyTheirCells(t *testing.T) {
	t.Parallel() // its waits overlap the other parallel tests' (see main_test.go)
	file := writeExperiment(t, `experiment "faults" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
encoder "std" { type = "standardize" }
learner "logreg" {}
learner "crash" {}
learner "crash_exit" {
  plugin = "crash"
  params = { exit = 3 }
}
learner "crash_ok" {
  plugin = "crash"
  params = { crash = false }
}
learner "hang" {}
learner "hang_ok" {
  plugin = "hang"
  params = { hang = false }
}
reduction "ova" { scheme = "ova" }
cv {
  folds   = 3
  timeout = 2
}
`)
	for _, j := range []string{"1", "3"} {
		t.Run("j"+j, func(t *testing.T) {
			out := t.TempDir()
			_, stderr, err := bench(t, "run", "-j", j, "-o", out, file)
			if err == nil || !strings.Contains(err.Error(), "3 of 6 cells failed") {
				t.Fatalf("error %v, want 3 of 6 cells failed\n%s", err, stderr)
			}
			cells := readCells(t, out)
			for _, ok := range []string{"iris|logreg|ova", "iris|crash_ok|ova", "iris|hang_ok|ova"} {
				if c := cells[ok]; c == nil || c.Failed() || len(c.Folds) != 3 {
					t.Errorf("cell %s: %+v", ok, c)
				}
			}
			if c := cells["iris|crash|ova"]; !strings.Contains(c.Error, "simulated segmentation fault") {
				t.Errorf("crash cell error %q does not show the plugin's stderr", c.Error)
			}
			// The line written just before the exit is not lost.
			if c := cells["iris|crash_exit|ova"]; !strings.Contains(c.Error, "plugin process ended (exit status 3)") ||
				!strings.Contains(c.Error, "crash: exiting with status 3 in Fit") {
				t.Errorf("crash_exit cell error %q does not show the exit status and the plugin's last stderr line", c.Error)
			}
			if c := cells["iris|hang|ova"]; !strings.Contains(c.Error, "did not answer within the fold's timeout") ||
				!strings.Contains(c.Error, "plugin stderr:\nhang: stuck in Fit") {
				t.Errorf("hang cell error %q, want the timeout and the plugin's stderr", c.Error)
			}
			if !strings.Contains(stderr, "failed") {
				t.Errorf("stderr does not report the failures:\n%s", stderr)
			}
			// Both restarts are in the run log, with their reason.
			log := readFile(t, filepath.Join(out, "run.log"))
			for _, want := range []string{
				"[crash] plugin process ended (exit status 2); starting a new one",
				"[crash] plugin process ended (exit status 3); starting a new one",
				"[hang] plugin process ended (killed by the host after a call did not answer in time); starting a new one",
			} {
				if !strings.Contains(log, want) {
					t.Errorf("run.log lacks %q:\n%s", want, log)
				}
			}
			summary := readFile(t, filepath.Join(out, "summary.csv"))
			if !strings.Contains(summary, "iris,default,crash,,ova,accuracy,,,0") || !strings.Contains(summary, "iris,default,logreg,,ova,accuracy,0.") {
				t.Errorf("summary.csv:\n%s", summary)
			}
		})
	}
}

// TestValidateReportsEveryMistake: one file, many mistakes, each reported
// with file:line:col.
func TestValidateReportsEveryMistake(t *testing.T) {
	file := writeExperiment(t, `experiment "bad" { seed = 1 }
dataset "iris" {
  path   = "%REPO%/experiments/data/iris.csv"
  target = "species"
}
dataset "ghost" { path = "nope.csv" }
encoder "pca" { type = "pca" }
learner "logreg" {
  plugin = "logreg"
  params = { C = [1, -1], gamma = 2, solver = "adam" }
}
learner "xgb" { plugin = "xgboost" }
learner "hang" {}
reduction "magic" { scheme = "magic" }
reduction "none" { scheme = "none" }
reduction "ecoc" {
  scheme = "ecoc"
  decode = "psychic"
}
metrics = ["accuracy", "auc_roc"]
`)
	_, stderr, err := bench(t, "validate", file)
	if err == nil {
		t.Fatal("validate accepted a broken file")
	}
	for _, want := range []string{
		"exp.hcl:4:12: error: Unknown column",
		"exp.hcl:6:26: error: Cannot load dataset",
		"exp.hcl:7:24: error: Unknown encoder type",
		"exp.hcl:10:18: error: Invalid parameter value", // C = -1
		"exp.hcl:10:27: error: Unknown parameter",       // gamma, at its name
		"exp.hcl:10:47: error: Invalid parameter value", // solver
		"exp.hcl:12:26: error: Unknown plugin",
		"exp.hcl:14:30: error: Unknown scheme",
		"exp.hcl:15:29: error: Learner cannot run without a reduction",
		"exp.hcl:18:12: error: Invalid parameter value", // decode
		"exp.hcl:20:24: error: Unknown metric",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("missing %q", want)
		}
	}
	if t.Failed() {
		t.Logf("stderr:\n%s", stderr)
	}
}

func TestValidateOK(t *testing.T) {
	stdout, stderr, err := bench(t, "validate", "../../experiments/quickstart.hcl")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(stdout, "ok — 3 datasets, 1 pipeline, 3 learners, 1 reduction: 15 cells") {
		t.Errorf("stdout %q", stdout)
	}
}

func TestPluginsCommand(t *testing.T) {
	stdout, _, err := bench(t, "plugins")
	// The crash and hang test plugins start fine; every plugin is listed.
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"logreg 0.1.0", "capabilities: binary, multiclass, scores, probabilities, sparse",
		"param C (number) default 1 > 0: inverse regularisation strength",
		"param epochs (integer, budget) default 100 >= 1, applies when solver is sgd: passes over the data for solver sgd",
		"param max_iter (integer, budget) default 1000 >= 1, applies when solver is newton, lbfgs or gd; or when the learner fits multiclass problems: ",
		"reducers 0.3.0", "scheme ovo:", "param asymmetric (bool) default false",
		"svm 0.1.0", "param gamma (number) default 0 (1/features) >= 0, applies when kernel is rbf, poly or sigmoid: γ of the rbf, poly and sigmoid kernels (0: 1/number of features, LIBSVM's default)\n",
		"lda 0.1.0", "param method (string) default lda one of lda|lsq|ridge",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("plugins output lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(stdout)
	}
}

func TestRunMissingFile(t *testing.T) {
	_, stderr, err := bench(t, "run", filepath.Join(t.TempDir(), "none.hcl"))
	if err == nil || !strings.Contains(stderr, "none.hcl") {
		t.Fatalf("err %v stderr %q", err, stderr)
	}
	if _, err := os.Stat("results"); err == nil {
		t.Error("a failed parse must not create a results directory")
	}
}

// TestDocsGoPlugin: the plugin shown in docs/writing-plugins.md is the
// file testdata/plugins/centroid/main.go, and it runs in a grid.
func TestDocsGoPlugin(t *testing.T) {
	doc := readFile(t, "../../docs/writing-plugins.md")
	src := readFile(t, "testdata/plugins/centroid/main.go")
	if !strings.Contains(doc, "```go\n"+src+"```") {
		t.Fatal("the Go plugin of docs/writing-plugins.md differs from testdata/plugins/centroid/main.go")
	}
	file := writeExperiment(t, `experiment "centroid" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
encoder "std" { type = "standardize" }
learner "centroid" { params = { shift = [0, 0.5] } }
reduction "ova" { scheme = "ova" }
`)
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, c := range readCells(t, out) {
		for _, f := range c.Folds {
			if f.Metrics["accuracy"] < 0.5 {
				t.Errorf("%s fold %d: accuracy %v", c.Params, f.Fold, f.Metrics["accuracy"])
			}
		}
	}
}

// carData declares car, its six columns categorical, in 3 folds.
const carData = `dataset "car" {
  path        = "%DATA%/car.csv"
  categorical = ["buying", "maint", "doors", "persons", "lug_boot", "safety"]
}
cv { folds = 3 }
`

// carHashed declares car (carData) and a hash encoder of 256 buckets,
// which make car a 1728 × 256 CSR design matrix (3.4 MiB dense).
const carHashed = carData + `encoder "hash" {
  type    = "hash"
  buckets = 256
}
`

// TestCentroidPluginDenseInput: the hash encoder makes car a CSR matrix;
// the centroid of docs/writing-plugins.md does not declare Sparse, so it
// gets the rows dense.
// Under one-vs-one the class of the nearest mean wins all its votes, so
// every fold equals scikit-learn's NearestCentroid on the same CSR matrix
// (sklearn plugin, no reduction). With --dense-budget below the 1728 × 256
// dense matrix (3.4 MiB), the centroid's cell fails naming learner,
// dataset, pipeline and sizes while the sparse learner's cell runs.
func TestCentroidPluginDenseInput(t *testing.T) {
	needPython(t)
	file := writeExperiment(t, `experiment "dense_input" { seed = 0 }
`+carHashed+`learner "centroid" {}
learner "nc" {
  plugin = "sklearn"
  params = { estimator = "sklearn.neighbors.NearestCentroid" }
}
reduction "ovo" {
  scheme   = "ovo"
  learners = ["centroid"]
}
reduction "none" {
  scheme   = "none"
  learners = ["nc"]
}
metrics = ["accuracy"]
`)
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	cells := readCells(t, out)
	c, ref := cells["car|centroid|ovo"], cells["car|nc|none"]
	if c == nil || ref == nil || len(c.Folds) != 3 || len(ref.Folds) != 3 {
		t.Fatalf("cells %v", cells)
	}
	for i, f := range c.Folds {
		if got, want := f.Metrics["accuracy"], ref.Folds[i].Metrics["accuracy"]; got != want {
			t.Errorf("fold %d: centroid + ovo %.4f, NearestCentroid %.4f", f.Fold, got, want)
		}
	}

	out = t.TempDir()
	_, stderr, err := bench(t, "run", "-o", out, "--dense-budget", "3M", file)
	if err == nil {
		t.Fatal("a run with a failed cell succeeded")
	}
	cells = readCells(t, out)
	if got := cells["car|centroid|ovo"]; got == nil || !got.Failed() {
		t.Fatalf("centroid cell %+v, want it failed", got)
	}
	want := "learner centroid (plugin centroid) takes dense input only (it does not declare the sparse capability), " +
		"but dataset car under pipeline default gives a 1728 × 256 sparse design matrix: 3.4 MiB dense, over the 3 MiB budget"
	if msg := cells["car|centroid|ovo"].Error; !strings.Contains(msg, want) || !strings.Contains(stderr, want) {
		t.Errorf("error %q\nwant %q (also on stderr:\n%s)", msg, want, stderr)
	}
	if got := cells["car|nc|none"]; got == nil || got.Failed() {
		t.Errorf("the sparse learner's cell %+v failed", got)
	}
}

// TestValidateWarnsOverDenseBudget: validate, given run's --dense-budget,
// warns at the learner's block of the cells run will fail because their
// learner (lda, without the sparse capability) needs car's hashed design
// (1728 × 256, 3.4 MiB dense) densified over the budget, with the error
// those cells then fail with; the sparse learner's cells, and every cell
// under the default budget or a budget that holds the matrix, draw no
// warning. Run prints the same warning before it starts.
func TestValidateWarnsOverDenseBudget(t *testing.T) {
	file := writeExperiment(t, `experiment "dense_budget" { seed = 0 }
`+carHashed+`learner "lda" {}
learner "logreg" {}
reduction "ova" { scheme = "ova" }
metrics = ["accuracy"]
`)
	const msg = "learner lda (plugin lda) takes dense input only (it does not declare the sparse capability), " +
		"but dataset car under pipeline default gives a 1728 × 256 sparse design matrix: 3.4 MiB dense, over the 3 MiB budget"
	for _, tt := range []struct {
		budget []string
		warn   bool
	}{
		{nil, false},
		{[]string{"--dense-budget", "4M"}, false},
		{[]string{"--dense-budget", "3M"}, true},
	} {
		stdout, stderr, err := bench(t, append(append([]string{"validate"}, tt.budget...), file)...)
		if err != nil {
			t.Fatalf("validate %v: %v\n%s", tt.budget, err, stderr)
		}
		warned := strings.Contains(stderr, "warning: Design matrix over the dense budget")
		if warned != tt.warn {
			t.Errorf("validate %v warned %v, want %v:\n%s%s", tt.budget, warned, tt.warn, stdout, stderr)
		}
		if !tt.warn {
			continue
		}
		for _, w := range []string{"exp.hcl:11:1: warning: Design matrix over the dense budget", msg,
			"Fitted on every row: bench run fails the learner's 1 cell(s) on this dataset and pipeline"} {
			if !strings.Contains(stderr, w) {
				t.Errorf("validate %v: missing %q in\n%s", tt.budget, w, stderr)
			}
		}
		if strings.Count(stderr, "warning:") != 1 {
			t.Errorf("validate %v: want one warning, got\n%s", tt.budget, stderr)
		}
	}

	out := t.TempDir()
	_, stderr, err := bench(t, "run", "-o", out, "--quiet", "--dense-budget", "3M", file)
	if err == nil {
		t.Fatal("a run with a failed cell succeeded")
	}
	if !strings.Contains(stderr, "exp.hcl:11:1: warning: Design matrix over the dense budget") {
		t.Errorf("run did not warn first:\n%s", stderr)
	}
	cells := readCells(t, out)
	if c := cells["car|lda|ova"]; c == nil || !c.Failed() || !strings.Contains(c.Error, msg) {
		t.Errorf("lda cell %+v, want it failed with %q", c, msg)
	}
	if c := cells["car|logreg|ova"]; c == nil || c.Failed() {
		t.Errorf("logreg cell %+v failed", c)
	}
}

// TestValidateWarnsOverDenseBudgetByDensity: a design without sparse
// blocks goes to the learner in CSR form when under 30 % of its entries
// are non-zero (car one-hot encoded with sparse = "never": 6 of 21), and
// validate warns of it as run fails it: 1728 × 21, 283.5 KiB dense, over
// a 100 KiB budget.
func TestValidateWarnsOverDenseBudgetByDensity(t *testing.T) {
	file := writeExperiment(t, `experiment "dense_density" { seed = 0 }
`+carData+`encoder "oh" {
  type   = "onehot"
  sparse = "never"
}
learner "lda" {}
reduction "ova" { scheme = "ova" }
metrics = ["accuracy"]
`)
	const msg = "dataset car under pipeline default gives a 1728 × 21 sparse design matrix: 283.5 KiB dense, over the 100 KiB budget"
	_, stderr, err := bench(t, "validate", "--dense-budget", "100K", file)
	if err != nil || !strings.Contains(stderr, "exp.hcl:11:1: warning: Design matrix over the dense budget") || !strings.Contains(stderr, msg) {
		t.Errorf("validate: %v, want the warning with %q:\n%s", err, msg, stderr)
	}
	out := t.TempDir()
	if _, stderr, err = bench(t, "run", "-o", out, "--quiet", "--dense-budget", "100K", file); err == nil {
		t.Fatalf("a run with a failed cell succeeded:\n%s", stderr)
	}
	if c := readCells(t, out)["car|lda|ova"]; c == nil || !c.Failed() || !strings.Contains(c.Error, msg) {
		t.Errorf("lda cell %+v, want it failed with %q", c, msg)
	}
}

// TestValidateCodeMatrices: user code matrices that cannot work are
// errors at the matrix's location, and validate prints the diagnostics of
// good ones.
func TestValidateCodeMatrices(t *testing.T) {
	file := writeExperiment(t, `experiment "codes" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" {}
reduction "rows" {
  scheme = "ecoc"
  matrix = [[1, -1], [-1, 1]]
}
reduction "same" {
  scheme = "ecoc"
  matrix = [[1, -1], [-1, 1], [1, -1]]
}
reduction "value" {
  scheme = "ecoc"
  matrix = [[1, -1], [-1, 2], [0, 1]]
}
reduction "classes" {
  scheme  = "ecoc"
  matrix  = [[1, -1], [-1, 1], [1, 1]]
  classes = ["setosa", "virginica", "rose"]
}
`)
	_, stderr, err := bench(t, "validate", file)
	if err == nil {
		t.Fatal("validate accepted broken code matrices")
	}
	for _, want := range []string{
		"exp.hcl:6:12: error: Invalid reduction", "2 rows",
		"exp.hcl:10:12: error: Invalid reduction", "rows 0 and 2 are identical",
		"exp.hcl:14:12: error: Invalid reduction", "entry [1][1] = 2",
		"exp.hcl:19:13: error: Invalid reduction", `"rose" is not a class`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("missing %q", want)
		}
	}
	if t.Failed() {
		t.Log(stderr)
	}

	file = writeExperiment(t, `experiment "codes" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" {}
reduction "ovo" {}
reduction "ecoc" {
  scheme = "ecoc"
  matrix = [[1, -1, 1], [-1, 1, 1], [1, 1, -1]]
}
`)
	stdout, stderr, err := bench(t, "validate", file)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	// OvO with 3 classes: two rows differ by 1 in their own column and by
	// ½ in each of the two columns where one of them is 0: d = 2.
	for _, want := range []string{"iris       ovo                                         3    3      2    2.00        0",
		"iris       ecoc                                        3    3      2    2.00        0"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("validate output lacks %q:\n%s", want, stdout)
		}
	}
}

// TestParityMultiLabel: emotions on the reference folds, standardize +
// logreg C = 1 for binary relevance and stacking, ordinary least squares
// for PLST, against scikit-learn per fold (br and plst within 0.01 in
// Hamming loss and Jaccard; stacking, with scikit-learn's inner split,
// within 0.02).
func TestParityMultiLabel(t *testing.T) {
	skipUnderRace(t, "a parity check of the numbers")
	file := writeExperiment(t, `experiment "ml" { seed = 0 }
dataset "emotions" {
  path          = "%DATA%/emotions.csv"
  labels_prefix = "label_"
  folds_file    = "%REF%/folds/emotions.folds.csv"
}
encoder "std" { type = "standardize" }
learner "logreg" { params = { C = 1 } }
learner "ols" {
  plugin = "lda"
  params = { method = "ridge" }
}
reduction "br" { learners = ["logreg"] }
reduction "stack" {
  learners    = ["logreg"]
  inner_folds = 5
  inner_seed  = 0 # scikit-learn's KFold(5, shuffle=True, random_state=0)
}
reduction "plst" {
  learners   = ["ols"]
  components = [2, 4]
}
metrics = ["hamming_loss", "jaccard", "example_f1", "subset_accuracy", "micro_f1", "macro_f1"]
`)
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	cells := readCells(t, out)
	refs := map[string][]map[string]float64{}
	for _, line := range strings.Split(strings.TrimSpace(readFile(t, refdata.Reference(t, "sklearn_multilabel.jsonl"))), "\n") {
		var r struct {
			Setup string
			Folds []map[string]float64
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		refs[r.Setup] = r.Folds
	}
	for key, tc := range map[string]struct {
		setup string
		tol   float64
	}{
		"emotions|logreg|br":              {"br", 0.01},
		"emotions|logreg|stack":           {"stack", 0.02},
		"emotions|ols|plst[components=2]": {"plst_2", 0.01},
		"emotions|ols|plst[components=4]": {"plst_4", 0.01},
	} {
		c := cells[key]
		if c == nil || c.Failed() {
			t.Errorf("cell %s: %+v", key, c)
			continue
		}
		for _, f := range c.Folds {
			for _, m := range []string{"hamming_loss", "jaccard"} {
				got, want := f.Metrics[m], refs[tc.setup][f.Fold][m]
				if math.Abs(got-want) > tc.tol {
					t.Errorf("%s fold %d %s: %.4f, scikit-learn %.4f", key, f.Fold, m, got, want)
				}
			}
		}
	}
}

// TestStackingStageOneIsOutOfFold: a learner that memorises its training
// rows answers ½ for rows it has not seen. Every stage-1 output appended
// to a training row must be ½ — it came from a model that never saw the
// row — while the test rows get ½ too (unseen by the refitted model).
func TestStackingStageOneIsOutOfFold(t *testing.T) {
	file := writeExperiment(t, `experiment "oof" { seed = 3 }
dataset "emotions" {
  path          = "%DATA%/emotions.csv"
  labels_prefix = "label_"
}
learner "memorise" { params = { features = 72 } }
reduction "stack" { inner_folds = 4 }
cv { folds = 3 }
metrics = ["hamming_loss"]
`)
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	log := readFile(t, filepath.Join(out, "run.log"))
	lines := 0
	for _, line := range strings.Split(log, "\n") {
		if !strings.Contains(line, "memorise: appended values:") {
			continue
		}
		lines++
		if !strings.HasSuffix(line, ", 0 memorised") {
			t.Errorf("a stage-2 fit saw memorised stage-1 outputs: %s", line)
		}
	}
	// 3 outer folds × 6 labels, one stage-2 fit each.
	if lines != 18 {
		t.Errorf("%d stage-2 fits logged, want 18:\n%s", lines, log)
	}
}

// TestInterruptKeepsFinishedCells: cancelling the run (as Ctrl-C does)
// stops it, but every cell that finished is on disk and in the tables.
func TestInterruptKeepsFinishedCells(t *testing.T) {
	file := writeExperiment(t, `experiment "stop" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" { params = { C = [0.1, 1, 10] } }
learner "hang" {}
reduction "ova" {}
cv { folds = 3 }
`)
	out := t.TempDir()
	// Interrupt once the three logreg cells are on disk (the hang cell's
	// folds come last and never end), not after a fixed time, which a
	// loaded machine may spend before the first fold.
	// Within commandContext's limit: a run that did not return once
	// interrupted would fail the test with the goroutines' stacks, not
	// hold the suite until go test's -timeout.
	ctx, cancel := context.WithCancelCause(commandContext(t))
	defer cancel(nil)
	go func() {
		written := waitFor(2*time.Minute, func() bool {
			files, _ := filepath.Glob(filepath.Join(out, "cells", "*.json"))
			return len(files) >= 3 || ctx.Err() != nil
		})
		cancel(fmt.Errorf("interrupted (test; the finished cells written: %v)", written))
	}()
	var stdout, stderr bytes.Buffer
	err := run(ctx, []string{"run", "--plugins", pluginsDir, "--quiet", "-j", "2", "-o", out, file}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("error %v, want an interrupted run", err)
	}
	if !strings.HasSuffix(err.Error(), "run the same command again to resume: the 3 finished cells are kept") {
		t.Errorf("error %q does not say how to resume", err)
	}
	// The summary line says so too, not only stderr.
	if !strings.HasPrefix(stdout.String(), "stop: interrupted, 3 of 4 cells, the tables partial (0 failed) in ") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
	summary := readFile(t, filepath.Join(out, "summary.csv"))
	for _, c := range []string{"C=0.1", "C=1", "C=10"} {
		if !strings.Contains(summary, "iris,none,logreg,"+c+",ova,accuracy,0.") {
			t.Errorf("finished cell logreg %s missing from summary.csv:\n%s", c, summary)
		}
	}
	if strings.Contains(summary, "hang") {
		t.Errorf("the unfinished cell is in summary.csv:\n%s", summary)
	}
	if files, _ := filepath.Glob(filepath.Join(out, "cells", "*.json")); len(files) != 3 {
		t.Errorf("%d cell files, want the 3 finished cells", len(files))
		for _, f := range files {
			if b := readFile(t, f); strings.Contains(b, "hang") {
				t.Logf("%s:\n%s", f, b)
			}
		}
	}
}

func TestKeptCells(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want string
	}{
		{0, "no cell had finished"},
		{1, "the finished cell is kept"},
		{2, "the 2 finished cells are kept"},
	} {
		if got := keptCells(tt.n); got != tt.want {
			t.Errorf("keptCells(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

// TestRerun: rerunning a results directory reproduces it exactly; after a
// result is tampered with, rerun reports the difference.
func TestRerun(t *testing.T) {
	file := writeExperiment(t, `experiment "again" { seed = 5 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
encoder "std" { type = "standardize" }
learner "logreg" { params = { C = [0.1, 1] } }
reduction "ecoc" {
  scheme = "ecoc"
  code   = "random_dense"
}
cv { folds = 5 }
metrics = ["accuracy", "log_loss", "fit_seconds"]
`)
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	stdout, stderr, err := bench(t, "rerun", out)
	if err != nil || !strings.Contains(stdout, "identical results (2 cells") {
		t.Fatalf("rerun: %v\n%s%s", err, stdout, stderr)
	}
	// Change one fold's accuracy in a cell file.
	cells, _ := filepath.Glob(filepath.Join(out, "cells", "0000-*.json"))
	if len(cells) != 1 {
		t.Fatalf("cell files of cell 0: %v", cells)
	}
	cell := cells[0]
	b := readFile(t, cell)
	i := strings.Index(b, `"accuracy": `)
	tampered := b[:i] + `"accuracy": 0.123456, "was": ` + b[i+len(`"accuracy": `):]
	if err := os.WriteFile(cell, []byte(tampered), 0o644); err != nil {
		t.Fatal(err)
	}
	// The cell's checksum tells the edit at once.
	if _, _, err = bench(t, "rerun", out); err == nil || !strings.Contains(err.Error(), "its content does not match its checksum") {
		t.Fatalf("rerun after tampering: %v, want the checksum's complaint", err)
	}
	// A file without a checksum (an older bench's) is checked for
	// consistency: an accuracy its confusion matrix does not give is
	// refused.
	if err := os.WriteFile(cell, []byte(withoutChecksum(t, tampered)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err = bench(t, "rerun", out); err == nil || !strings.Contains(err.Error(), "fold 0: accuracy is 0.123456 but the confusion matrix gives") {
		t.Fatalf("rerun after tampering: %v, want the confusion matrix's complaint", err)
	}
	// A number nothing else in the file gives (log_loss) is compared
	// number by number.
	i = strings.Index(b, `"log_loss": `)
	tampered = b[:i] + `"log_loss": 0.123456, "was": ` + b[i+len(`"log_loss": `):]
	if err := os.WriteFile(cell, []byte(withoutChecksum(t, tampered)), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _, err = bench(t, "rerun", out)
	if err == nil || !strings.Contains(err.Error(), "1 result difference(s)") || !strings.Contains(stdout, "log_loss") {
		t.Fatalf("rerun after tampering: %v\n%s", err, stdout)
	}
}

// TestValidateEncoderOptions: encoder options are checked against the
// encoder's own schema, and a list does not silently stand for one value.
func TestValidateEncoderOptions(t *testing.T) {
	file := writeExperiment(t, `experiment "enc" { seed = 1 }
dataset "car" {
  path        = "%REPO%/experiments/data/car.csv"
  categorical = ["buying", "maint", "doors", "persons", "lug_boot", "safety"]
}
encoder "counts" {
  type  = "counts"
  folds = [0, 5]
}
encoder "hash" {
  type    = "hash"
  buckets = 0
  colour  = "red"
}
learner "logreg" {}
reduction "ova" {}
`)
	_, stderr, err := bench(t, "validate", file)
	if err == nil {
		t.Fatal("validate accepted bad encoder options")
	}
	for _, want := range []string{
		"exp.hcl:8:11: error: Invalid encoder option",
		"exp.hcl:12:13: error: Invalid parameter value",
		"exp.hcl:13:3: error: Unknown parameter", // colour, at its name
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("missing %q in\n%s", want, stderr)
		}
	}
}

// TestMultiLabelARFF: a MEKA-style ARFF whose relation names its label
// count ("-C 2": the first two attributes are labels) runs as multi-label
// data without a labels attribute in the experiment file.
func TestMultiLabelARFF(t *testing.T) {
	var b strings.Builder
	b.WriteString("@relation 'toy: -C 2'\n@attribute sun {0,1}\n@attribute rain {0,1}\n@attribute x numeric\n@attribute y numeric\n@data\n")
	for i := 0; i < 60; i++ {
		x, y := float64(i%10), float64((i*7)%10)
		sun, rain := 0, 0
		if x > 4 {
			sun = 1
		}
		if y > 5 {
			rain = 1
		}
		fmt.Fprintf(&b, "%d,%d,%g,%g\n", sun, rain, x, y)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "toy.arff"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "exp.hcl")
	os.WriteFile(file, []byte(`experiment "toy" { seed = 1 }
dataset "toy" { path = "toy.arff" }
encoder "std" { type = "standardize" }
learner "logreg" { params = { C = 100 } }
reduction "br" {}
cv { folds = 3 }
metrics = ["hamming_loss", "subset_accuracy"]
`), 0o644)
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	summary := readFile(t, filepath.Join(out, "summary.csv"))
	// Each label is a threshold on one feature: binary relevance with
	// logistic regression separates both.
	if !strings.Contains(summary, "toy,default,logreg,C=100,br,hamming_loss,0,0,3") {
		t.Errorf("summary.csv:\n%s", summary)
	}
}

// TestRerunNoticesChangedPlugins: rerun compares every plugin binary the
// run used — reducers as well as learners — with the manifest, and finds
// the experiment file from any working directory.
func TestRerunNoticesChangedPlugins(t *testing.T) {
	plugins := t.TempDir()
	for _, name := range []string{"logreg", "reducers"} {
		b, err := os.ReadFile(filepath.Join(pluginsDir, "bench-plugin-"+name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(plugins, "bench-plugin-"+name), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := writeExperiment(t, `experiment "p" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" {}
reduction "ova" {}
cv { folds = 3 }
`)
	// A relative experiment path, recorded absolute in the manifest.
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, file)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	run := func(args ...string) (string, error) {
		var so, se bytes.Buffer
		err := run(commandContext(t), append([]string{args[0], "--plugins", plugins, "--quiet"}, args[1:]...), &so, &se)
		return so.String() + se.String(), err
	}
	if text, err := run("run", "-o", out, rel); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	f, err := os.OpenFile(filepath.Join(plugins, "bench-plugin-reducers"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte{0})
	f.Close()
	t.Chdir(t.TempDir()) // rerun from elsewhere
	text, err := run("rerun", out)
	if err == nil || !strings.Contains(text, "changed: plugin reducers") {
		t.Fatalf("rerun after changing the reducers binary: %v\n%s", err, text)
	}
}

// TestIdenticalPipelinesShareTheirMatrix: two pipelines that encode the
// same matrix (content-addressed, so one upload) run side by side; the
// first to finish must not make the plugin forget what the other uses.
func TestIdenticalPipelinesShareTheirMatrix(t *testing.T) {
	file := writeExperiment(t, `experiment "twins" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
encoder "std" { type = "standardize" }
encoder "fill" { type = "impute" }
pipeline "a" { steps = ["std"] }
pipeline "b" { steps = ["fill", "std"] }
learner "logreg" { params = { C = [0.5, 1, 2] } }
reduction "ova" {}
cv { folds = 4 }
`)
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-j", "4", "-o", out, file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	var m map[string]any
	json.Unmarshal([]byte(readFile(t, filepath.Join(out, "manifest.json"))), &m)
	if m["failed_cells"] != 0.0 || m["uploads"].(float64) > 8 {
		t.Fatalf("failed cells %v, uploads %v (want 0 and at most one per fold and pipeline)", m["failed_cells"], m["uploads"])
	}
}

// TestThirdPartyReducerLocatedErrors: a third-party reducer's error that
// blames a parameter through the structured field (in words that do not
// name it) is located at that parameter's attribute; the same plugin
// runs a grid when the parameter is right.
func TestThirdPartyReducerLocatedErrors(t *testing.T) {
	dir := filepath.Join(pluginsDir, "third")
	for _, p := range []string{"logreg", "reducers"} {
		src := filepath.Join(pluginsDir, "bench-plugin-"+p)
		if err := os.WriteFile(filepath.Join(dir, "bench-plugin-"+p), []byte(readFile(t, src)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	src := `experiment "third" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" {}
reduction "mine" {
  plugin = "knobs"
  scheme = "ova"
  params = { label = "x" }
  knob   = KNOB
}
cv { folds = 3 }
`
	file := writeExperiment(t, strings.Replace(src, "KNOB", "7", 1))
	var stdout, stderr strings.Builder
	err := run(commandContext(t), []string{"validate", "--plugins", dir, file}, &stdout, &stderr)
	want := "exp.hcl:8:12: error: Invalid reduction"
	if err == nil || !strings.Contains(stderr.String(), want) || !strings.Contains(stderr.String(), "7 is more than the 3 classes of the data") {
		t.Fatalf("error %v, want %q in stderr:\n%s", err, want, stderr.String())
	}
	file = writeExperiment(t, strings.Replace(src, "KNOB", "2", 1))
	stdout.Reset()
	if err := run(commandContext(t), []string{"validate", "--plugins", dir, file}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	// The plugin's typed code diagnostics, as bench prints them.
	row := regexp.MustCompile(`(?m)^  iris +mine +3 +3 +2 +2\.00 +0\n    warning: knob 2 is only a test$`)
	if !row.MatchString(stdout.String()) {
		t.Errorf("validate printed no diagnostics row for the plugin's code:\n%s", stdout.String())
	}
	out := t.TempDir()
	stderr.Reset()
	if err := run(commandContext(t), []string{"run", "--plugins", dir, "--quiet", "-o", out, file}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if c := readCells(t, out)["iris|logreg|mine"]; c == nil || c.Failed() || len(c.Folds) != 3 || c.Folds[0].Metrics["accuracy"] < 0.7 {
		t.Errorf("cell %+v", c)
	}
	// ... and in the report's code-matrix table.
	if md := readFile(t, filepath.Join(out, "third.md")); !strings.Contains(md, "## Code matrices") || !strings.Contains(md, "| iris | mine | 3 | 3 | 2 | 2.00 | 0 |") {
		t.Errorf("report has no code-matrix row for the plugin:\n%s", md)
	}
}

// TestThirdPartySchemeWithoutPlugin: a reduction that names no plugin
// gets the shipped reducers when they offer its scheme (ova, though the
// third-party knobs offers it too), without asking the other plugins;
// without the reducers plugin, the one plugin that offers the scheme,
// and when two do (knobs and a copy of it), validate asks for
// plugin = "..." at the reduction's line.
func TestThirdPartySchemeWithoutPlugin(t *testing.T) {
	src := `experiment "third" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" {}
reduction "ova" {}
cv { folds = 3 }
`
	logreg, reducers, knobs := filepath.Join(pluginsDir, "bench-plugin-logreg"), filepath.Join(pluginsDir, "bench-plugin-reducers"), filepath.Join(pluginsDir, "third", "bench-plugin-knobs")
	for _, tc := range []struct {
		name    string
		plugins map[string]string // file name in the directory: source
		want    string            // the reduction's plugin in the manifest, or the error
	}{
		{"default", map[string]string{"bench-plugin-logreg": logreg, "bench-plugin-reducers": reducers, "bench-plugin-knobs": knobs}, "reducers"},
		{"the one offering", map[string]string{"bench-plugin-logreg": logreg, "bench-plugin-knobs": knobs}, "knobs"},
		{"ambiguous", map[string]string{"bench-plugin-logreg": logreg, "bench-plugin-knobs": knobs, "bench-plugin-knobs2": knobs},
			`Plugins knobs and knobs2 all offer scheme "ova"; choose one with plugin = "...".`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, src := range tc.plugins {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(readFile(t, src)), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			file := writeExperiment(t, src)
			out := t.TempDir()
			var stdout, stderr strings.Builder
			err := run(commandContext(t), []string{"run", "--plugins", dir, "--quiet", "-o", out, file}, &stdout, &stderr)
			if strings.Contains(tc.want, " ") {
				if err == nil || !strings.Contains(stderr.String(), tc.want) || !strings.Contains(stderr.String(), "exp.hcl:4:1: error: Ambiguous scheme") {
					t.Fatalf("error %v, want %q in stderr:\n%s", err, tc.want, stderr.String())
				}
				return
			}
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			var m struct{ Plugins []struct{ Name string } }
			if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "manifest.json"))), &m); err != nil {
				t.Fatal(err)
			}
			if len(m.Plugins) != 2 || m.Plugins[0].Name != "logreg" || m.Plugins[1].Name != tc.want {
				t.Errorf("manifest plugins %+v, want logreg and %s", m.Plugins, tc.want)
			}
		})
	}
}

// TestValidateDiagnosticCarets: without colour (a file, a CI log) a
// diagnostic's source line is followed by a line of carets under the
// subject, lined up after a tab too.
func TestValidateDiagnosticCarets(t *testing.T) {
	file := writeExperiment(t, "experiment \"x\" { seed = 1 }\ndataset \"iris\" { path = \"%REPO%/experiments/data/iris.csv\" }\nlearner \"logreg\" {}\ncv {\n\tfolds = \"ten\"\n}\n")
	_, stderr, err := bench(t, "validate", file)
	want := "exp.hcl:5:10: error: Incorrect attribute value type\n" +
		"  on " + file + " line 5, in cv:\n" +
		"   5: \tfolds = \"ten\"\n" +
		"      \t        ^^^^^\n"
	if err == nil || !strings.Contains(stderr, want) {
		t.Fatalf("error %v; stderr:\n%s\nwant it to contain:\n%s", err, stderr, want)
	}
}

// readmePrintsRun checks the README's "What `make run` prints" block
// against what the quickstart run into out printed: its first line but for
// the time, then its file lines in the same order (results/quickstart
// standing for out), a "..." line standing for any run of lines. The
// README's experiment file is experiments/quickstart.hcl, whole.
func readmePrintsRun(t *testing.T, stdout, out string) {
	t.Helper()
	readme := readFile(t, "../../README.md")
	if !strings.Contains(readme, "```hcl\n"+readFile(t, "../../experiments/quickstart.hcl")+"```\n") {
		t.Error("the README's experiment file differs from experiments/quickstart.hcl")
	}
	_, after, ok := strings.Cut(readme, "## What `make run` prints\n\n```\n")
	block, _, ok2 := strings.Cut(after, "```")
	if !ok || !ok2 {
		t.Fatal("README has no \"What `make run` prints\" block")
	}
	want := strings.Split(strings.TrimSpace(block), "\n")
	got := strings.Split(strings.TrimSpace(stdout), "\n")
	cut := func(s string) string { head, _, _ := strings.Cut(s, " in "); return head }
	if cut(want[0]) != cut(got[0]) {
		t.Errorf("README's make run block starts %q, the run printed %q", want[0], got[0])
	}
	i, gap := 1, false
	for _, w := range want[1:] {
		w = strings.TrimSpace(w)
		if w == "..." {
			gap = true
			continue
		}
		w = strings.Replace(w, "results/quickstart", out, 1)
		for gap && i < len(got) && strings.TrimSpace(got[i]) != w {
			i++
		}
		if i == len(got) || strings.TrimSpace(got[i]) != w {
			t.Errorf("README's make run block is stale: %q is not printed there:\n%s", w, stdout)
			return
		}
		i, gap = i+1, false
	}
}

// TestPluginsListsNotExecutable: a plugin file without an execute bit
// (copied without its mode) is listed as not available, with the chmod
// that fixes it, rather than left out in silence; with --plugins DIR:bin
// the shipped plugins are listed beside it.
func TestPluginsListsNotExecutable(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bench-plugin-mine")
	if err := os.WriteFile(path, []byte("#!/bin/sh\nexit 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "not available (cannot start):\n  mine (" + path + "): not executable (chmod +x " + path + ")\n"
	for _, dirs := range []string{dir, dir + string(os.PathListSeparator) + pluginsDir} {
		var stdout, stderr strings.Builder
		if err := run(commandContext(t), []string{"plugins", "--plugins", dirs}, &stdout, &stderr); err != nil {
			t.Fatalf("bench plugins --plugins %s: %v", dirs, err)
		}
		got := stdout.String()
		if !strings.Contains(got, want) {
			t.Errorf("bench plugins --plugins %s:\n%s\nwant %q", dirs, got, want)
		}
		if shipped := strings.Contains(got, "logreg 0.1.0"); shipped != (dirs != dir) {
			t.Errorf("bench plugins --plugins %s: logreg listed %v", dirs, shipped)
		}
	}
}

// TestPluginsNotExecutableHidingOnce: a plugin file without its execute
// bit in the first directory, beside a plugin of its name in a later one,
// is listed once as not available, saying which plugin it would have let
// run in its place (the host refuses it; it was listed twice).
func TestPluginsNotExecutableHidingOnce(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bench-plugin-logreg")
	if err := os.WriteFile(path, []byte("#!/bin/sh\nexit 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr strings.Builder
	if err := run(commandContext(t), []string{"plugins", "--plugins", dir + string(os.PathListSeparator) + pluginsDir}, &stdout, &stderr); err != nil {
		t.Fatalf("bench plugins: %v", err)
	}
	got := stdout.String()
	later := filepath.Join(pluginsDir, "bench-plugin-logreg")
	want := "  plugin logreg: " + path + " is not executable (chmod +x " + path + "), so " + later +
		", found later in the plugin directories, would run in its place; make the first executable, or move it away\n"
	if !strings.Contains(got, want) || strings.Count(got, path) != 2 {
		t.Errorf("bench plugins:\n%s\nwant once %q", got, want)
	}
	if strings.Contains(got, "logreg 0.1.0") {
		t.Errorf("bench plugins lists the later logreg as available:\n%s", got)
	}
}

// TestInterruptBeforeTheRun: an interruption while the plugins start is
// reported as such, not as errors of the experiment file.
func TestInterruptBeforeTheRun(t *testing.T) {
	ctx, cancel := context.WithCancel(commandContext(t))
	cancel()
	var stdout, stderr strings.Builder
	err := run(ctx, []string{"run", "--plugins", pluginsDir, "-o", t.TempDir(), "../../experiments/quickstart.hcl"}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "interrupted before the run started (nothing computed; the results directory is as it was)") {
		t.Errorf("error %v, want an interruption before the run", err)
	}
	if strings.Contains(stderr.String(), "error:") {
		t.Errorf("the interruption was reported as the file's errors:\n%s", stderr.String())
	}
}
