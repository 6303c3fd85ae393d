package main

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/internal/refdata"
)

// venv is the Python environment the venv tests share: made by
// makeVenv at the first test's request (once per test binary, under
// pluginsDir, which TestMain removes).
var venv struct {
	once sync.Once
	dir  string
	err  error
}

// needVenvPackages skips a test when Debian's packages a venv test uses
// are missing (make test-deps installs them).
func needVenvPackages(t *testing.T, modules ...string) {
	t.Helper()
	needPython(t)
	// Found, not imported: wheel imported before setuptools trips
	// setuptools' distutils check when python3-distutils is installed.
	modules = append([]string{"ensurepip", "pip", "wheel", "setuptools"}, modules...)
	script := "import importlib.util, sys; missing = [m for m in sys.argv[1:] if importlib.util.find_spec(m) is None]; sys.exit(', '.join(missing) or None)"
	if out, err := exec.Command(pythonPath, append([]string{"-c", script}, modules...)...).CombinedOutput(); err != nil {
		t.Skipf("the venv tests need Debian's Python packages (%v: %s): apt-get install python3-venv python3-pip python3-wheel python3-xgboost python3-imblearn", err, strings.TrimSpace(string(out)))
	}
}

// kitVenv returns the bin directory of a venv that sees Debian's packages
// (--system-site-packages) and has the plugin kit pip-installed into it,
// as docs/plugins-python.md says, offline: its bench-plugin-sklearn is
// the console script pip wrote, run by the venv's python.
func kitVenv(t *testing.T) string {
	t.Helper()
	venv.once.Do(func() { venv.dir, venv.err = makeVenv(filepath.Join(pluginsDir, "venv")) })
	if venv.err != nil {
		t.Fatal(venv.err)
	}
	return filepath.Join(venv.dir, "bin")
}

// makeVenv makes the venv dir and installs ./plugins/sklearn into it. pip
// builds in the source tree (build/, *.egg-info), so it installs a copy.
// The venv is made without pip of its own (ensurepip takes seconds) and
// installs with Debian's python3-pip, which it sees: the same pip 23 that
// ensurepip would copy in.
func makeVenv(dir string) (string, error) {
	src := filepath.Join(filepath.Dir(dir), "kit-src")
	if err := copyTree("../../plugins/sklearn", src); err != nil {
		return "", err
	}
	for _, args := range [][]string{
		{pythonPath, "-m", "venv", "--without-pip", "--system-site-packages", dir},
		{filepath.Join(dir, "bin", "python"), "-m", "pip", "install", "--quiet", "--no-index", "--no-build-isolation", src},
	} {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env = append(os.Environ(), "PIP_DISABLE_PIP_VERSION_CHECK=1", "PYTHONDONTWRITEBYTECODE=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("%s: %w\n%s", strings.Join(args, " "), err, out)
		}
	}
	return dir, nil
}

// copyTree copies the regular files under src to dst, leaving out
// __pycache__.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			if d.Name() == "__pycache__" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
}

// foldPredictions is one fold's test rows and predicted class names.
type foldPredictions struct {
	Fold      int      `json:"fold"`
	Rows      []int    `json:"rows"`
	Predicted []string `json:"predicted"`
	Accuracy  float64  `json:"accuracy"`
}

// sklearnReference runs testdata/sklearn_reference.py with python on a
// dataset and its reference folds: scikit-learn's own wrapper, per fold.
func sklearnReference(t *testing.T, python, setup, dataset string) map[int]foldPredictions {
	t.Helper()
	folds := refdata.Reference(t, "folds", dataset+".folds.csv")
	cmd := exec.Command(python, "testdata/sklearn_reference.py", setup, refdata.Data(t, dataset+".csv"), folds)
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sklearn_reference.py %s %s: %v", setup, dataset, err)
	}
	ref := map[int]foldPredictions{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		var f foldPredictions
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			t.Fatalf("sklearn_reference.py: %v in %q", err, sc.Text())
		}
		ref[f.Fold] = f
	}
	return ref
}

// runPredictions runs the experiment file with the plugins of dirs into
// out and returns the predictions of the cell of learner on dataset, per
// fold (output.predictions must be set).
func runPredictions(t *testing.T, dirs, file, out, dataset, learner string) map[int]foldPredictions {
	t.Helper()
	var stdout, stderr strings.Builder
	if err := run(commandContext(t), []string{"run", "--plugins", dirs, "--quiet", "-o", out, file}, &stdout, &stderr); err != nil {
		t.Fatalf("bench run: %v\n%s", err, stderr.String())
	}
	f, err := os.Open(filepath.Join(out, "predictions", dataset+".csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	got := map[int]foldPredictions{}
	for _, r := range recs[1:] {
		if r[col["learner"]] != learner {
			continue
		}
		fold, _ := strconv.Atoi(r[col["fold"]])
		row, _ := strconv.Atoi(r[col["row"]])
		p := got[fold]
		p.Fold, p.Rows, p.Predicted = fold, append(p.Rows, row), append(p.Predicted, r[col["predicted"]])
		if r[col["predicted"]] == r[col["true"]] {
			p.Accuracy++
		}
		got[fold] = p
	}
	for k, p := range got {
		p.Accuracy /= float64(len(p.Rows))
		got[k] = p
	}
	return got
}

// samePredictions fails t unless every fold of got predicts each test row
// as want does.
func samePredictions(t *testing.T, got, want map[int]foldPredictions) {
	t.Helper()
	if len(got) != len(want) || len(want) == 0 {
		t.Fatalf("%d folds, reference %d", len(got), len(want))
	}
	for k, w := range want {
		g := got[k]
		byRow := map[int]string{}
		for i, r := range g.Rows {
			byRow[r] = g.Predicted[i]
		}
		differ := 0
		for i, r := range w.Rows {
			if byRow[r] != w.Predicted[i] {
				differ++
			}
		}
		if differ > 0 || len(g.Rows) != len(w.Rows) || g.Accuracy != w.Accuracy {
			t.Errorf("fold %d: %d of %d test rows predicted otherwise; accuracy %.4f, reference %.4f", k, differ, len(w.Rows), g.Accuracy, w.Accuracy)
		}
	}
}

// TestVenvKitOVO: the kit pip-installed into a venv serves the bridge from
// the venv's bin (found ahead of the zip in the plugins path); under
// bench's one-vs-one, LogisticRegression gives on each iris fold the
// predictions of scikit-learn's OneVsOneClassifier(LogisticRegression()),
// computed by the venv's own python; bench plugins shows the venv's
// interpreter and packages.
func TestVenvKitOVO(t *testing.T) {
	needVenvPackages(t)
	bin := kitVenv(t)
	// pip's console script runs the venv's interpreter.
	python := scriptInterpreter(t, filepath.Join(bin, "bench-plugin-sklearn"))
	if filepath.Dir(python) != bin {
		t.Fatalf("bench-plugin-sklearn runs %s, not the venv's python in %s", python, bin)
	}
	dirs := bin + string(os.PathListSeparator) + pluginsDir

	var stdout, stderr strings.Builder
	if err := run(commandContext(t), []string{"plugins", "--plugins", dirs}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	want := pythonRuntime(t, python)
	if !strings.Contains(stdout.String(), "sklearn 0.2.0 (scikit-learn ") ||
		!strings.Contains(stdout.String(), "  path: "+filepath.Join(bin, "bench-plugin-sklearn")+"\n") ||
		!strings.Contains(stdout.String(), "  runtime:\n    "+strings.Join(want, "\n    ")+"\n") {
		t.Errorf("bench plugins --plugins %s:\n%s\nwant the venv's bench-plugin-sklearn with the runtime\n%s", dirs, stdout.String(), strings.Join(want, "\n"))
	}

	file := writeExperiment(t, `experiment "venv_ovo" { seed = 0 }
dataset "iris" {
  path       = "%DATA%/iris.csv"
  folds_file = "%REF%/folds/iris.folds.csv"
}
learner "sk" { plugin = "sklearn" }
reduction "ovo" { scheme = "ovo" }
metrics = ["accuracy"]
output { predictions = true }
`)
	samePredictions(t, runPredictions(t, dirs, file, t.TempDir(), "iris", "sk"), sklearnReference(t, python, "ovo-logreg", "iris"))
}

// TestVenvXGBoostOVA: XGBoost's XGBClassifier, allowed by packages =
// ["xgboost"], under bench's one-vs-all on vehicle predicts each row of
// each fold as scikit-learn's OneVsRestClassifier(XGBClassifier()) does,
// and the run's manifest records the xgboost the venv's python imports.
func TestVenvXGBoostOVA(t *testing.T) {
	needVenvPackages(t, "xgboost")
	bin := kitVenv(t)
	python := filepath.Join(bin, "python3")
	file := writeExperiment(t, `experiment "venv_xgboost" { seed = 0 }
dataset "vehicle" {
  path       = "%DATA%/vehicle.csv"
  folds_file = "%REF%/folds/vehicle.folds.csv"
}
learner "xgb" {
  plugin = "sklearn"
  params = { estimator = "xgboost.XGBClassifier", packages = ["xgboost"], n_estimators = 20, max_depth = 3, n_jobs = 1 }
}
reduction "ova" { scheme = "ova" }
metrics = ["accuracy"]
output { predictions = true }
`)
	dirs := bin + string(os.PathListSeparator) + pluginsDir
	out := t.TempDir()
	samePredictions(t, runPredictions(t, dirs, file, out, "vehicle", "xgb"), sklearnReference(t, python, "ova-xgboost", "vehicle"))
	v, err := exec.Command(python, "-c", "import xgboost; print(xgboost.__version__)").Output()
	if err != nil {
		t.Fatal(err)
	}
	if rt := recordedRuntime(t, out)["sklearn"]; !slices.Contains(rt, "xgboost "+strings.TrimSpace(string(v))) {
		t.Errorf("manifest: sklearn runtime %q, want xgboost %s in it", rt, v)
	}
}

// recordedRuntime returns the runtime each plugin's record in the
// manifest of results directory out holds, as "NAME VERSION (PATH)".
func recordedRuntime(t *testing.T, out string) map[string][]string {
	t.Helper()
	var m struct {
		Plugins []struct {
			Name    string
			Runtime []sdk.Component
		}
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "manifest.json"))), &m); err != nil {
		t.Fatal(err)
	}
	recorded := map[string][]string{}
	for _, p := range m.Plugins {
		for _, c := range p.Runtime {
			recorded[p.Name] = append(recorded[p.Name], c.String())
		}
	}
	return recorded
}

// scriptInterpreter returns the interpreter of a script's #! line.
func scriptInterpreter(t *testing.T, path string) string {
	t.Helper()
	first, _, _ := strings.Cut(readFile(t, path), "\n")
	interp, ok := strings.CutPrefix(first, "#!")
	if !ok {
		t.Fatalf("%s starts %q, not with #!", path, first)
	}
	return strings.TrimSpace(interp)
}

// TestVenvImblearnPipeline: an imbalanced-learn pipeline, SMOTE then
// logistic regression, given by steps and its steps' parameters as
// NAME__PARAM, under bench's one-vs-all on iris predicts each row of each
// fold as OneVsRestClassifier(make_pipeline(SMOTE(random_state=0),
// LogisticRegression(max_iter=1000))) does.
func TestVenvImblearnPipeline(t *testing.T) {
	needVenvPackages(t, "imblearn")
	bin := kitVenv(t)
	python := filepath.Join(bin, "python3")
	file := writeExperiment(t, `experiment "venv_smote" { seed = 0 }
dataset "iris" {
  path       = "%DATA%/iris.csv"
  folds_file = "%REF%/folds/iris.folds.csv"
}
learner "smote_lr" {
  plugin = "sklearn"
  params = {
    estimator = "imblearn.pipeline.Pipeline"
    packages  = ["imblearn"]
    steps     = ["imblearn.over_sampling.SMOTE", "sklearn.linear_model.LogisticRegression"]
    smote__random_state          = 0
    logisticregression__max_iter = 1000
  }
}
reduction "ova" { scheme = "ova" }
metrics = ["accuracy"]
output { predictions = true }
`)
	dirs := bin + string(os.PathListSeparator) + pluginsDir
	samePredictions(t, runPredictions(t, dirs, file, t.TempDir(), "iris", "smote_lr"), sklearnReference(t, python, "ova-smote-logreg", "iris"))
}

// TestVenvSklearnVersionStub: with a stub scikit-learn on PYTHONPATH
// (testdata/sklearn-stub: the installed one, reporting 9.9.9), the
// venv's plugin reports scikit-learn 9.9.9: bench plugins shows it, bench
// rerun of a run made without the stub names the change (and fails, as
// for any changed input), and a run
// resumed in the same results directory records it in its manifest.
func TestVenvSklearnVersionStub(t *testing.T) {
	needVenvPackages(t)
	bin := kitVenv(t)
	python := scriptInterpreter(t, filepath.Join(bin, "bench-plugin-sklearn"))
	dirs := bin + string(os.PathListSeparator) + pluginsDir
	real := pythonRuntime(t, python)[4]
	stub, err := filepath.Abs("testdata/sklearn-stub")
	if err != nil {
		t.Fatal(err)
	}
	file := writeExperiment(t, `experiment "venv_stub" { seed = 0 }
dataset "iris" { path = "%DATA%/iris.csv" }
cv { folds = 2 }
learner "sk" { plugin = "sklearn" }
reduction "ova" { scheme = "ova" }
metrics = ["accuracy"]
`)
	bench := func(args ...string) (string, string) {
		t.Helper()
		var stdout, stderr strings.Builder
		full := append([]string{args[0], "--plugins", dirs}, args[1:]...)
		if err := run(commandContext(t), full, &stdout, &stderr); err != nil {
			t.Fatalf("bench %s: %v\n%s", strings.Join(full, " "), err, stderr.String())
		}
		return stdout.String(), stderr.String()
	}
	out := t.TempDir()
	bench("run", "--quiet", "-o", out, file)
	if rt := recordedRuntime(t, out)["sklearn"]; !slices.Contains(rt, real) {
		t.Fatalf("manifest without the stub: sklearn runtime %q, want %s", rt, real)
	}

	t.Setenv("PYTHONPATH", stub)
	if stdout, _ := bench("plugins"); !strings.Contains(stdout, "sklearn 0.2.0 (scikit-learn 9.9.9)") || !strings.Contains(stdout, "\n    scikit-learn 9.9.9\n") {
		t.Errorf("bench plugins with the stub:\n%s", stdout)
	}
	// bench rerun fails when an input changed, saying which.
	var rerunOut, rerunErr strings.Builder
	err = run(commandContext(t), []string{"rerun", "--plugins", dirs, "-o", filepath.Join(t.TempDir(), "rerun"), out}, &rerunOut, &rerunErr)
	want := "changed: plugin sklearn: runtime " + real + " → 9.9.9\n"
	if err == nil || !strings.Contains(err.Error(), "1 changed input(s)") || !strings.Contains(rerunOut.String(), want) {
		t.Errorf("bench rerun with the stub: %v, stdout\n%s\nwant 1 changed input: %q", err, rerunOut.String(), want)
	}
	before := cellDigests(t, out)
	stdout, stderr := bench("run", "--quiet", "-o", out, file)
	if rt := recordedRuntime(t, out)["sklearn"]; !slices.Contains(rt, "scikit-learn 9.9.9") || slices.Contains(rt, real) {
		t.Errorf("manifest of the resumed run with the stub: sklearn runtime %q, want scikit-learn 9.9.9", rt)
	}
	// The version is in the cell's identity: the cell is computed again
	// (nothing kept), under a new digest, its spec naming 9.9.9, and the
	// run says which input changed.
	after := cellDigests(t, out)
	if len(before) != 1 || len(after) != 1 {
		t.Fatalf("cell files: %d before the stub, %d after, want 1 each", len(before), len(after))
	}
	if after[0].digest == before[0].digest {
		t.Errorf("the cell keeps its digest %s under scikit-learn 9.9.9", after[0].digest)
	}
	if got := after[0].runtime["scikit-learn"]; got != "9.9.9" {
		t.Errorf("the recomputed cell's spec: scikit-learn %q, want 9.9.9", got)
	}
	if strings.Contains(stdout, "kept from an earlier run") {
		t.Errorf("a cell kept under scikit-learn 9.9.9:\n%s", stdout)
	}
	sk := strings.TrimPrefix(real, "scikit-learn ")
	if want := `learner "sk": scikit-learn ` + sk + " → 9.9.9"; !strings.Contains(stderr, want) {
		t.Errorf("the resumed run does not name the change %q:\n%s", want, stderr)
	}
}

// cellIdentity is a cell file's digest and the runtime its spec records
// for the learner's plugin.
type cellIdentity struct {
	digest  string
	runtime map[string]string
}

// cellDigests reads the identities of the cell files under out/cells, in
// file name order.
func cellDigests(t *testing.T, out string) []cellIdentity {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(out, "cells", "*.json"))
	var ids []cellIdentity
	for _, n := range names {
		var c struct {
			Digest string
			Spec   struct {
				Learner struct {
					Plugin struct{ Runtime map[string]string }
				}
			}
		}
		if err := json.Unmarshal([]byte(readFile(t, n)), &c); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		ids = append(ids, cellIdentity{c.Digest, c.Spec.Learner.Plugin.Runtime})
	}
	return ids
}
