package main

import (
	"encoding/csv"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/sdk/conformance"
)

// pythonDocPlugins returns the worked plugins of docs/plugins-python.md:
// the python blocks that start with a #! line and a docstring
// "bench-plugin-NAME: …", by NAME.
func pythonDocPlugins(t *testing.T) map[string]string {
	t.Helper()
	doc := readFile(t, "../../docs/plugins-python.md")
	out := map[string]string{}
	for _, m := range regexp.MustCompile("(?s)```python\n(#!/usr/bin/python3\n\"\"\"bench-plugin-([a-z]+):.*?)```").FindAllStringSubmatch(doc, -1) {
		out[m[2]] = m[1]
	}
	return out
}

// TestDocsPythonKitExamples runs the two worked plugins of
// docs/plugins-python.md as the page says: saved as executables with the
// #! line of the environment the kit is installed in (the test venv's),
// they pass bench plugin check, and under bench's reductions predict every
// test row of iris and wine as scikit-learn's GaussianNB (one-vs-all) and
// NearestCentroid (natively multiclass) do through the bridge; the naive
// Bayes class probabilities agree within 1e-12.
func TestDocsPythonKitExamples(t *testing.T) {
	needVenvPackages(t)
	bin := kitVenv(t)
	python := scriptInterpreter(t, filepath.Join(bin, "bench-plugin-sklearn"))
	plugins := pythonDocPlugins(t)
	if len(plugins) != 2 || plugins["gnb"] == "" || plugins["centroids"] == "" {
		t.Fatalf("docs/plugins-python.md: worked plugins %v, want gnb and centroids", len(plugins))
	}
	dir := t.TempDir()
	for name, code := range plugins {
		_, rest, _ := strings.Cut(code, "\n")
		path := filepath.Join(dir, "bench-plugin-"+name)
		if err := os.WriteFile(path, []byte("#!"+python+"\n"+rest), 0o755); err != nil {
			t.Fatal(err)
		}
		if stdout, stderr, err := runBench(t, "plugin", "check", path); err != nil {
			t.Fatalf("bench plugin check %s: %v\n%s%s", name, err, stdout, stderr)
		}
	}
	file := writeExperiment(t, `experiment "docs_kit" { seed = 0 }
`+datasets("iris", "wine")+`
learner "gnb" {}
learner "sk_gnb" {
  plugin = "sklearn"
  params = { estimator = "sklearn.naive_bayes.GaussianNB" }
}
learner "centroids" {}
learner "sk_centroids" {
  plugin = "sklearn"
  params = { estimator = "sklearn.neighbors.NearestCentroid" }
}
reduction "ova" {
  scheme   = "ova"
  learners = ["gnb", "sk_gnb"]
}
reduction "none" {
  scheme   = "none"
  learners = ["centroids", "sk_centroids"]
}
metrics = ["accuracy"]
output { predictions = true }
`)
	dirs := strings.Join([]string{dir, bin, pluginsDir}, string(os.PathListSeparator))
	out := t.TempDir()
	if stdout, stderr, err := runBench(t, "run", "--plugins", dirs, "--quiet", "-o", out, file); err != nil {
		t.Fatalf("bench run: %v\n%s%s", err, stdout, stderr)
	}
	for _, ds := range []string{"iris", "wine"} {
		rows := readPredictionRows(t, filepath.Join(out, "predictions", ds+".csv"))
		for _, pair := range [][2]string{{"gnb", "sk_gnb"}, {"centroids", "sk_centroids"}} {
			got, want := rows[pair[0]], rows[pair[1]]
			if len(got) == 0 || len(got) != len(want) {
				t.Fatalf("%s: %d predictions of %s, %d of %s", ds, len(got), pair[0], len(want), pair[1])
			}
			differ, worst := 0, 0.0
			for key, w := range want {
				g := got[key]
				if g.predicted != w.predicted {
					differ++
				}
				for j := range w.scores {
					worst = math.Max(worst, math.Abs(g.scores[j]-w.scores[j]))
				}
			}
			if differ > 0 {
				t.Errorf("%s: %s predicts %d of %d test rows otherwise than %s", ds, pair[0], differ, len(want), pair[1])
			}
			if pair[0] == "gnb" && !(worst <= 1e-12) {
				t.Errorf("%s: gnb's class probabilities differ from GaussianNB's by up to %g", ds, worst)
			}
		}
	}
}

// predictionRow is one test row of a predictions file.
type predictionRow struct {
	predicted string
	scores    []float64
}

// readPredictionRows reads a predictions/DATASET.csv by learner, then by
// repeat, fold and row.
func readPredictionRows(t *testing.T, path string) map[string]map[[3]int]predictionRow {
	t.Helper()
	f, err := os.Open(path)
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
	out := map[string]map[[3]int]predictionRow{}
	for _, r := range recs[1:] {
		var key [3]int
		for i, c := range []string{"repeat", "fold", "row"} {
			key[i], _ = strconv.Atoi(r[col[c]])
		}
		p := predictionRow{predicted: r[col["predicted"]]}
		for i, h := range recs[0] {
			if strings.HasPrefix(h, "score_") {
				v, _ := strconv.ParseFloat(r[i], 64)
				p.scores = append(p.scores, v)
			}
		}
		if out[r[col["learner"]]] == nil {
			out[r[col["learner"]]] = map[[3]int]predictionRow{}
		}
		out[r[col["learner"]]][key] = p
	}
	return out
}

// TestDocsPythonKitReference: docs/plugins-python.md names every public
// name of the kit and every field of its classes, and has a row for each
// check of bench plugin check.
func TestDocsPythonKitReference(t *testing.T) {
	needPython(t)
	doc := readFile(t, "../../docs/plugins-python.md")
	cmd := exec.Command(pythonPath, "-c", `import dataclasses, polyclass_plugin as pp
names = list(pp.__all__)
for c in (pp.LearnerInfo, pp.Capabilities, pp.ParamSpec, pp.FitInput, pp.Component):
    names += [f.name for f in dataclasses.fields(c)]
names += [m for m in ("info", "fit", "check") if hasattr(pp.Learner, m)] + ["outputs", "not_converged", "predict"]
print("\n".join(names))`)
	cmd.Dir = "../../plugins/sklearn"
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	names := strings.Fields(string(out))
	if len(names) < 40 {
		t.Fatalf("only %d names from the kit: %v", len(names), names)
	}
	for _, n := range names {
		if !strings.Contains(doc, "`"+n) {
			t.Errorf("docs/plugins-python.md does not name %s", n)
		}
	}
	for _, c := range conformance.Checks() {
		if !strings.Contains(doc, "\n| `"+c.Name+"` |") {
			t.Errorf("docs/plugins-python.md has no row for the check %s", c.Name)
		}
	}
}
