package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// setupExperiment labels its learner and one reduction; the ecoc
// reduction's code and decoder are the reducers plugin's own choice.
const setupExperiment = `experiment "setupcheck" { seed = 5 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
encoder "std" { type = "standardize" }
learner "logreg" {
  label  = "LR"
  params = { C = [1, 10] }
}
reduction "ecoc" {
  scheme = "ecoc"
  code   = "random_dense"
  decode = "loss:exp"
  label  = "ECOC (dense, exp)"
}
reduction "ova" { scheme = "ova" }
cv { folds = 3 }
metrics = ["accuracy"]
output {
  formats   = ["markdown", "json", "html"]
  baseline  = "LR C=1 ova"
  confusion = ["LR C=10 ECOC (dense, exp)"]
}
`

// TestSetupTableAndLabels runs a labelled experiment through the real
// plugins: the tables show the labels, the set-up table says what each
// row is (every logreg parameter with its defaults; the reducer's words
// for a random dense code decoded by exponential loss), the figures are
// named from the labels, and the HTML report holds the experiment file.
func TestSetupTableAndLabels(t *testing.T) {
	skipUnderRace(t, "a report check; no concurrency of bench's own")
	file := writeExperiment(t, setupExperiment)
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	md := readFile(t, filepath.Join(out, "setupcheck.md"))
	for _, want := range []string{
		"| LR C=1 ova | ",
		"| LR C=10 ECOC (dense, exp) | ",
		"| LR C=1 ECOC (dense, exp) | std (standardize) | ",
		"logreg (plugin logreg): C=1, ",
		"max_iter=1000 (default)",
		"ecoc (scheme ecoc, plugin reducers): code=random_dense, decode=loss:exp",
		"random dense {−1, +1} code, ⌈10·log₂ K⌉ columns",
		"loss-based decoding (Allwein, Schapire & Singer 2000), exponential loss of the scores",
		"one-vs-all: K columns, class k +1, the rest −1",
		"v / *: significantly better / worse than the baseline LR C=1 ova",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "plots", "confusion_iris_LR_C=10_ECOC_dense_exp.png")); err != nil {
		t.Errorf("heat map not named from the labels: %v", err)
	}
	var tables struct {
		Setup []struct {
			Label string
			Show  struct{ Learner, Reduction string }
			Code  []struct{ Text string }
		}
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "setupcheck.json"))), &tables); err != nil {
		t.Fatal(err)
	}
	if len(tables.Setup) != 4 || tables.Setup[0].Label != "LR C=1 ECOC (dense, exp)" || tables.Setup[0].Show.Learner != "LR" ||
		len(tables.Setup[0].Code) != 1 {
		t.Errorf("json set-up %+v", tables.Setup)
	}
	html := readFile(t, filepath.Join(out, "setupcheck.html"))
	src := readFile(t, file)
	escaped := strings.NewReplacer(`&`, "&amp;", `<`, "&lt;", `>`, "&gt;", `"`, "&quot;", `'`, "&#39;").Replace(src)
	if !strings.Contains(html, `<pre class="source"><code>`+escaped+`</code></pre>`) {
		t.Error("the HTML report does not hold the experiment file")
	}
	if !strings.Contains(html, `<table id="setup-rows">`) {
		t.Error("the HTML report has no set-up table")
	}
}

// TestLabelShadowsAParameter: a reduction's label = "..." labels its rows;
// when its plugin's scheme also has a parameter called label (the
// third-party knobs reducer's ova), validate warns at the attribute that
// it does not set that parameter, and runs.
func TestLabelShadowsAParameter(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{"bench-plugin-logreg": "bench-plugin-logreg", "bench-plugin-knobs": "third/bench-plugin-knobs"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(readFile(t, filepath.Join(pluginsDir, src))), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := writeExperiment(t, `experiment "shadow" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" {}
reduction "mine" {
  plugin = "knobs"
  scheme = "ova"
  label  = "Mine"
}
cv { folds = 3 }
`)
	var stdout, stderr strings.Builder
	if err := run(commandContext(t), []string{"validate", "--plugins", dir, file}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	for _, want := range []string{"exp.hcl:7:12: warning: Label is not a parameter",
		`Reduction "mine": label = "Mine" names its rows in the tables; scheme ova of plugin knobs also has a parameter called label`} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("validate's output lacks %q:\n%s", want, stderr.String())
		}
	}
}

// appliesExperiment runs logreg (solver newton, its default) and svm with
// the linear kernel and with rbf, each under ova (binary problems) and
// scheme none (the whole multiclass task).
const appliesExperiment = `experiment "applies" { seed = 5 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" {}
learner "svm_linear" { plugin = "svm" }
learner "svm_rbf" {
  plugin = "svm"
  params = { kernel = "rbf", gamma = 0.5 }
}
reduction "ova" { scheme = "ova" }
reduction "none" { scheme = "none" }
cv { folds = 2 }
metrics = ["accuracy"]
output { formats = ["markdown"] }
`

// TestSetupListsParametersThatApply runs appliesExperiment through the
// real plugins: its set-up table (testdata/setup_applies.md; go test
// -update rewrites it) lists the parameters that apply to the model that
// ran, defaults marked: logreg with newton under ova no epochs, step or
// multinomial, under none no solver; linear svm no gamma, degree, coef0
// or SMO options, under none (Crammer–Singer) no loss; rbf svm its
// kernel's and SMO's, no linear method's.
func TestSetupListsParametersThatApply(t *testing.T) {
	skipUnderRace(t, "a report check; no concurrency of bench's own")
	file := writeExperiment(t, appliesExperiment)
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	md := readFile(t, filepath.Join(out, "applies.md"))
	_, section, ok := strings.Cut(md, "## Set-up\n")
	if !ok {
		t.Fatalf("no set-up section:\n%s", md)
	}
	if i := strings.Index(section, "\n## "); i >= 0 {
		section = section[:i+1]
	}
	golden := filepath.Join("testdata", "setup_applies.md")
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile(golden, []byte(section), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if want := readFile(t, golden); section != want {
		t.Errorf("set-up section\n%s\nwant (%s)\n%s", section, golden, want)
	}
}

// TestSetupShowsGammaMeaning runs an rbf svm with gamma left to its
// default through the real plugin (issue 56's trial read "gamma=0
// (default)" as γ = 0): the set-up table shows what the default stands
// for, from the plugin's schema (gamma's DefaultMeans "1/features",
// proto field default_means), not 0.
func TestSetupShowsGammaMeaning(t *testing.T) {
	skipUnderRace(t, "a report check; no concurrency of bench's own")
	file := writeExperiment(t, `experiment "gamma" { seed = 5 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "svm_rbf" {
  plugin = "svm"
  params = { kernel = "rbf" }
}
reduction "ova" { scheme = "ova" }
cv { folds = 2 }
metrics = ["accuracy"]
output { formats = ["markdown"] }
`)
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	md := readFile(t, filepath.Join(out, "gamma.md"))
	if want := "svm_rbf (plugin svm): C=1 (default), cache_size=100 (default), gamma=1/features (default), kernel=rbf,"; !strings.Contains(md, want) {
		t.Errorf("set-up lacks %q:\n%s", want, md)
	}
	if strings.Contains(md, "gamma=0") {
		t.Errorf("set-up still shows gamma=0:\n%s", md)
	}
}
