package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
)

// designRef reads a reference of cmd/bench/testdata/design (made by
// refs.py there) into v.
func designRef(t *testing.T, name string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(readFile(t, "testdata/design/"+name)), v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// TestClassWeightParity: glass (9 tableware rows of 214), standardize +
// logreg (C = 1) one-vs-all, with and without class_weight = "balanced",
// against scikit-learn's OneVsRestClassifier(LogisticRegression(
// class_weight="balanced")) on the same five folds: each binary problem
// is balanced from its own positives and negatives, as there.
func TestClassWeightParity(t *testing.T) {
	var ref map[string][]float64
	designRef(t, "class_weight.json", &ref)
	file := writeExperiment(t, `experiment "weights" { seed = 0 }
dataset "glass" {
  path       = "%DATA%/glass.csv"
  folds_file = "%REPO%/cmd/bench/testdata/design/glass.folds.csv"
}
encoder "std" { type = "standardize" }
learner "plain" {
  plugin = "logreg"
  params = { C = 1, tol = 1e-8 }
}
learner "balanced" {
  plugin       = "logreg"
  params       = { C = 1, tol = 1e-8 }
  class_weight = "balanced"
}
reduction "ova" { scheme = "ova" }
metrics = ["accuracy"]
`)
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	cells := readCells(t, out)
	differ := false
	for _, name := range []string{"plain", "balanced"} {
		c := cells["glass|"+name+"|ova"]
		if c == nil || len(c.Folds) != 5 {
			t.Fatalf("cell glass|%s|ova: %+v", name, c)
		}
		for _, f := range c.Folds {
			got, want := f.Metrics["accuracy"], ref[name][f.Fold]
			if math.Abs(got-want) > 1/float64(f.NTest)+1e-9 {
				t.Errorf("%s fold %d: accuracy %.6f, scikit-learn %.6f (%d test rows)", name, f.Fold, got, want, f.NTest)
			}
			if name == "balanced" && got != cells["glass|plain|ova"].Folds[f.Fold].Metrics["accuracy"] {
				differ = true
			}
		}
	}
	if !differ {
		t.Error("balanced and plain accuracies agree on every fold: the weights had no effect")
	}
}

// TestValidateClassWeight: class_weight that cannot apply is rejected by
// validate, located at the class_weight attribute.
func TestValidateClassWeight(t *testing.T) {
	file := writeExperiment(t, `experiment "cw" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "lda" { class_weight = "balanced" }
learner "logreg" { class_weight = { setosa = 2, "Iris-setosa" = 3 } }
learner "svm" { class_weight = "balanced" }
reduction "ova" {
  scheme       = "ova"
  learners     = ["svm"]
  class_weight = { setosa = 2 }
}
reduction "none" {
  scheme   = "none"
  learners = ["lda", "logreg"]
}
`)
	_, stderr, err := bench(t, "validate", file)
	if err == nil {
		t.Fatalf("validate accepted class weights that cannot apply:\n%s", stderr)
	}
	for _, want := range []string{
		`exp.hcl:3:32: error: Learner cannot take class weights`,
		`learner "lda" (plugin lda) does not take them`,
		`exp.hcl:4:35: error: Unknown class`,
		`learner logreg: class_weight names class "Iris-setosa", which no dataset it meets has.`,
		`exp.hcl:9:18: error: Conflicting class weights`,
		`Reduction "ova" and learner "svm" both set class_weight`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("missing %q", want)
		}
	}
	if strings.Contains(stderr, `"setosa", which`) {
		t.Error("setosa is a class of iris")
	}
	if t.Failed() {
		t.Logf("stderr:\n%s", stderr)
	}
}

// TestHoldoutAdultParity: adult's training file → its test file, impute +
// standardize + onehot fitted on the training file only, logreg (C = 1) +
// ova: test accuracy within 0.002 of scikit-learn's with the same encoding
// (testdata/design/holdout.json), and the tables show one value, no ±.
func TestHoldoutAdultParity(t *testing.T) {
	skipUnderRace(t, "a parity check of the numbers")
	var ref struct {
		Accuracy      float64 `json:"accuracy"`
		NTrain, NTest int
	}
	designRef(t, "holdout.json", &ref)
	file := writeExperiment(t, `experiment "adult" { seed = 1 }
dataset "adult" {
  path      = "%DATA%/adult_train.csv.gz"
  test_path = "%DATA%/adult_test.csv.gz"
}
encoder "fill"   { type = "impute" }
encoder "std"    { type = "standardize" }
encoder "onehot" { type = "onehot" }
learner "logreg" { params = { C = 1, tol = 1e-8 } }
reduction "ova" { scheme = "ova" }
metrics = ["accuracy"]
`)
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	c := readCells(t, out)["adult|logreg|ova"]
	if c == nil || len(c.Folds) != 1 {
		t.Fatalf("cell adult|logreg|ova: %+v", c)
	}
	f := c.Folds[0]
	if f.NTrain != 32561 || f.NTest != 16281 {
		t.Errorf("%d training and %d test rows, want adult's 32561 and 16281", f.NTrain, f.NTest)
	}
	if got := f.Metrics["accuracy"]; math.Abs(got-ref.Accuracy) > 0.002 {
		t.Errorf("accuracy %.6f, scikit-learn %.6f", got, ref.Accuracy)
	}
	md := readFile(t, out+"/adult.md")
	want := fmt.Sprintf("| logreg | **%.4f** | 1.00 |", f.Metrics["accuracy"])
	if !strings.Contains(md, "| row | adult (test set) | avg. rank |") || !strings.Contains(md, want) {
		t.Errorf("adult.md does not mark the test-set column or shows a ±; want %q in\n%s", want, md)
	}
	// The holdout table of docs/experiment-file.md is this run's.
	if doc := readFile(t, "../../docs/experiment-file.md"); !strings.Contains(doc, want) {
		t.Errorf("the holdout table of docs/experiment-file.md is stale: want %q", want)
	}
}

// TestRepeatedHoldout: cv { holdout = 0.25, repeats = 3 } on iris: three
// stratified random splits of 38 test rows (ceil(0.25 · 150)), 13/13/12
// per class, different in each repeat, the same at every run.
func TestRepeatedHoldout(t *testing.T) {
	file := writeExperiment(t, `experiment "rh" { seed = 4 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" {}
reduction "ova" { scheme = "ova" }
cv {
  holdout = 0.25
  repeats = 3
}
output { predictions = true }
`)
	var runs [2]string
	for i := range runs {
		out := t.TempDir()
		if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		c := readCells(t, out)["iris|logreg|ova"]
		if c == nil || len(c.Folds) != 3 {
			t.Fatalf("cell: %+v", c)
		}
		for _, f := range c.Folds {
			if f.Fold != 0 || f.NTest != 38 || f.NTrain != 112 {
				t.Errorf("repeat %d: fold %d, %d test and %d training rows; want fold 0, 38 and 112", f.Repeat, f.Fold, f.NTest, f.NTrain)
			}
			perClass := []int{}
			for _, row := range f.Confusion {
				n := 0
				for _, v := range row {
					n += v
				}
				perClass = append(perClass, n)
			}
			if fmt.Sprint(perClass) != "[13 13 12]" && fmt.Sprint(perClass) != "[13 12 13]" && fmt.Sprint(perClass) != "[12 13 13]" {
				t.Errorf("repeat %d: test rows per class %v, want 13/13/12 in some order", f.Repeat, perClass)
			}
		}
		runs[i] = readFile(t, out+"/predictions/iris.csv")
	}
	if runs[0] != runs[1] {
		t.Error("two runs with the same seed made different splits")
	}
	// Each repeat holds out its own rows (column 8 is the data row).
	rows := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(runs[0]), "\n")[1:] {
		f := strings.Split(line, ",")
		rows[f[5]] += f[7] + " "
	}
	if len(rows) != 3 || rows["0"] == rows["1"] || rows["1"] == rows["2"] || rows["0"] == rows["2"] {
		t.Errorf("test rows per repeat %v: want three different sets", rows)
	}
}

// TestValidateHoldout: settings that contradict a holdout are rejected,
// located.
func TestValidateHoldout(t *testing.T) {
	bad := t.TempDir() + "/bad_test.csv"
	if err := os.WriteFile(bad, []byte("sepal_length_cm,petal_length_cm,class\n1,2,setosa\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	parsed := writeExperiment(t, `experiment "h" { seed = 1 }
dataset "wine" {
  path       = "%DATA%/wine.csv"
  test_path  = "%DATA%/wine.csv"
  folds_file = "%REF%/folds/wine.folds.csv"
}
learner "logreg" {}
cv {
  folds   = 5
  holdout = 1.5
}
`)
	resolved := writeExperiment(t, `experiment "h" { seed = 1 }
dataset "iris" {
  path      = "%REPO%/experiments/data/iris.csv"
  test_path = "`+bad+`"
}
learner "logreg" {}
`)
	for file, wants := range map[string][]string{
		parsed: {
			`exp.hcl:4:16: error: Conflicting fold settings`,
			`Dataset "wine" has a test file, which fixes its one split; drop folds_file.`,
			`exp.hcl:10:13: error: Invalid holdout`,
			`exp.hcl:10:13: error: Conflicting fold settings`,
		},
		resolved: {
			`exp.hcl:4:15: error: Test file does not fit the training file`,
			`bad_test.csv has 3 columns`,
		},
	} {
		_, stderr, err := bench(t, "validate", file)
		if err == nil {
			t.Fatalf("validate accepted contradicting holdout settings:\n%s", stderr)
		}
		for _, want := range wants {
			if !strings.Contains(stderr, want) {
				t.Errorf("missing %q in\n%s", want, stderr)
			}
		}
	}
}

// TestNestedTuningParity: logreg (softmax, standardize refitted inside
// every inner fold) tuned over C ∈ {0.01, 0.1, 1, 10, 100} by 5-fold inner
// CV on accuracy, on iris, wine and vehicle with the reference outer folds,
// against scikit-learn's GridSearchCV(make_pipeline(StandardScaler(),
// LogisticRegression()), cv=StratifiedKFold(5, shuffle=True,
// random_state=0)) on each outer training part (inner_seed = 0 makes the
// inner split that one): the same C in at least 90% of the outer folds,
// and where the C agrees the outer accuracy within one test row. One cell
// per dataset, the chosen C in its cell file.
func TestNestedTuningParity(t *testing.T) {
	skipUnderRace(t, "it checks numbers against scikit-learn; TestTuningScoresCalibratedModels runs the nested tuning under -race")
	var ref map[string][]struct {
		Fold     int
		C        float64
		Accuracy float64
	}
	designRef(t, "tuning.json", &ref)
	src := `experiment "tune" { seed = 0 }
` + datasets("iris", "wine", "vehicle") + `
encoder "std" { type = "standardize" }
learner "logreg" {
  params = { C = [0.01, 0.1, 1, 10, 100], tol = 1e-8, max_iter = 10000 }
  tune {
    folds      = 5
    metric     = "accuracy"
    inner_seed = 0
  }
}
reduction "none" { scheme = "none" }
metrics = ["accuracy"]
`
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, writeExperiment(t, src)); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	cells := readCells(t, out)
	if len(cells) != 3 {
		t.Fatalf("%d cells, want one per dataset", len(cells))
	}
	agree, total := 0, 0
	for _, name := range []string{"iris", "wine", "vehicle"} {
		c := cells[name+"|logreg|none"]
		if c == nil || len(c.Folds) != 10 {
			t.Fatalf("cell %s: %+v", name, c)
		}
		if want := "C=[0.01, 0.1, 1, 10, 100],max_iter=10000,tol=1e-08 (tuned)"; c.Params != want {
			t.Errorf("%s: params %q, want %q", name, c.Params, want)
		}
		for _, f := range c.Folds {
			r := ref[name][f.Fold]
			total++
			if len(f.TuneScores) != 5 {
				t.Errorf("%s fold %d: %d tune scores, want 5", name, f.Fold, len(f.TuneScores))
			}
			if f.Chosen != fmt.Sprintf("C=%v", r.C) {
				t.Logf("%s fold %d: chose %s, scikit-learn C=%v (inner means %v)", name, f.Fold, f.Chosen, r.C, f.TuneScores)
				continue
			}
			agree++
			if got := f.Metrics["accuracy"]; math.Abs(got-r.Accuracy) > 1/float64(f.NTest)+1e-9 {
				t.Errorf("%s fold %d (C=%v): accuracy %.6f, scikit-learn %.6f", name, f.Fold, r.C, got, r.Accuracy)
			}
		}
	}
	// The tuning tables of docs/experiment-file.md are this run's.
	md, doc := readFile(t, out+"/tune.md"), readFile(t, "../../docs/experiment-file.md")
	for _, line := range strings.Split(quotedSections(md, "accuracy", "Selected parameters"), "\n") {
		if strings.HasPrefix(line, "| logreg |") || strings.HasPrefix(line, "| iris |") || strings.HasPrefix(line, "| wine |") || strings.HasPrefix(line, "| vehicle |") {
			if !strings.Contains(doc, line+"\n") {
				t.Errorf("the tuning tables of docs/experiment-file.md are stale: no line %q", line)
			}
		}
	}
	if agree*10 < total*9 {
		t.Errorf("the same C as scikit-learn in %d of %d outer folds, want at least 90%%", agree, total)
	}
	t.Logf("the same C as scikit-learn in %d of %d outer folds", agree, total)
}

// TestValidateTune: a tune block with nothing to tune or a metric that
// cannot choose is rejected, located.
func TestValidateTune(t *testing.T) {
	file := writeExperiment(t, `experiment "t" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" {
  params = { C = 1 }
  tune {}
}
learner "svm" {
  params = { C = [0.1, 1] }
  tune { metric = "acuracy" }
}
learner "lda" {
  params = { shrinkage = [0, 0.5] }
  tune { metric = "fit_seconds" }
}
`)
	_, stderr, err := bench(t, "validate", file)
	if err == nil {
		t.Fatalf("validate accepted bad tune blocks:\n%s", stderr)
	}
	for _, want := range []string{
		`exp.hcl:5:3: error: Nothing to tune`,
		`exp.hcl:9:19: error: Unknown metric`,
		`exp.hcl:13:19: error: Invalid tune metric`,
		`fit_seconds is a timing, not a quality to tune for`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("missing %q in\n%s", want, stderr)
		}
	}
}

// TestCalibrationDigits: svm + ova on digits (3 stratified folds; the
// shipped experiments/calibration.hcl, which make docs-check runs, has the
// 10 reference folds), with and without calibrate = "platt": the
// calibrated probabilities have a lower log_loss than the softmax of the
// decoder's scores, and every row of predictions/digits.csv sums to 1.
func TestCalibrationDigits(t *testing.T) {
	skipUnderRace(t, "it checks calibrated numbers; the run's concurrency is that of the other runs")
	const folds = 3
	file := writeExperiment(t, `experiment "cal" { seed = 1 }
dataset "digits" { path = "%DATA%/digits.csv" }
cv {
  folds      = 3
  stratified = true
}
encoder "std" { type = "standardize" }
learner "svm" { params = { C = 1 } }
reduction "ova" { scheme = "ova" }
reduction "ova_platt" {
  scheme    = "ova"
  calibrate = "platt"
}
metrics = ["accuracy", "log_loss"]
output { predictions = true }
`)
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	cells := readCells(t, out)
	mean := func(key string) float64 {
		c := cells[key]
		if c == nil || len(c.Folds) != folds {
			t.Fatalf("cell %s: %+v", key, c)
		}
		s := 0.0
		for _, f := range c.Folds {
			s += f.Metrics["log_loss"]
		}
		return s / folds
	}
	plain, platt := mean("digits|svm|ova"), mean("digits|svm|ova_platt")
	if !(platt < plain) {
		t.Errorf("log_loss: Platt-calibrated %.4f, softmax of scores %.4f; want calibrated lower", platt, plain)
	}
	t.Logf("log_loss: softmax of scores %.4f, Platt %.4f", plain, platt)
	// The table flags the softmax of scores, not the calibrated row.
	if !cells["digits|svm|ova"].Folds[0].SoftmaxScores || cells["digits|svm|ova_platt"].Folds[0].SoftmaxScores {
		t.Error("cell files: softmax_scores should be set for ova alone")
	}
	md := readFile(t, out+"/cal.md")
	ll := md[strings.Index(md, "## log_loss"):]
	if end := strings.Index(ll, "\n## "); end >= 0 {
		ll = ll[:end+1] // the log_loss section only: the set-up and per-class tables name the rows too
	}
	for _, line := range strings.Split(ll, "\n") {
		switch {
		case strings.HasPrefix(line, "| svm ova |") && !strings.HasSuffix(line, " † | 2.00 |"):
			t.Errorf("softmax log_loss not flagged: %s", line)
		case strings.HasPrefix(line, "| svm ova_platt |") && strings.Contains(line, "†"):
			t.Errorf("calibrated log_loss flagged: %s", line)
		}
	}
	if !strings.Contains(ll, "†: log_loss from a softmax of the decoder's class scores") {
		t.Errorf("no softmax footnote under the log_loss table:\n%s", ll)
	}
	lines := strings.Split(strings.TrimSpace(readFile(t, out+"/predictions/digits.csv")), "\n")
	header := strings.Split(lines[0], ",")
	first := 0
	for first < len(header) && !strings.HasPrefix(header[first], "score_") {
		first++
	}
	n := 0
	for _, line := range lines[1:] {
		f := strings.Split(line, ",")
		if f[4] != "ova_platt" {
			continue
		}
		n++
		sum := 0.0
		for _, v := range f[first:] {
			var x float64
			fmt.Sscan(v, &x)
			sum += x
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("probabilities of a row sum to %v: %s", sum, line)
		}
	}
	if n != 1797 {
		t.Errorf("%d calibrated prediction rows, want digits' 1797", n)
	}
}

// TestTuningScoresCalibratedModels: with calibrate = "platt" the inner
// cross-validation scores each candidate calibrated, as the outer folds
// score the chosen one (scikit-learn's GridSearchCV over
// CalibratedClassifierCV). On wine, svm C = 0.001 + ova has a log_loss
// of about 0.75 as a softmax of its decision values but about 0.22
// calibrated (the same candidate untuned, below); its inner scores must be
// the calibrated ones, and the C chosen must be the one whose calibrated
// inner score is best.
func TestTuningScoresCalibratedModels(t *testing.T) {
	file := writeExperiment(t, `experiment "tunecal" { seed = 1 }
dataset "wine" { path = "%REPO%/experiments/data/wine.csv" }
encoder "std" { type = "standardize" }
learner "svm" {
  params = { C = [0.001, 1] }
  tune {
    folds  = 3
    metric = "log_loss"
  }
}
reduction "ova_platt" {
  scheme    = "ova"
  calibrate = "platt"
}
cv { folds = 3 }
metrics = ["log_loss"]
`)
	out := t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for key, c := range readCells(t, out) {
		if len(c.Folds) != 3 {
			t.Fatalf("cell %s: %d folds", key, len(c.Folds))
		}
		if c.TuneMetric != "log_loss" || !slices.Equal(c.TuneCandidates, []string{"C=0.001", "C=1"}) {
			t.Errorf("cell %s: tune metric %q, candidates %q", key, c.TuneMetric, c.TuneCandidates)
		}
		for _, f := range c.Folds {
			if len(f.TuneScores) != 2 {
				t.Fatalf("fold %d: tune scores %v", f.Fold, f.TuneScores)
			}
			if s := f.TuneScores[0]; !(s < 0.4) {
				t.Errorf("fold %d: inner log_loss of C=0.001 is %.4f: not calibrated (a softmax of the scores gives about 0.75)", f.Fold, s)
			}
			want := "C=0.001"
			if f.TuneScores[1] < f.TuneScores[0] {
				want = "C=1"
			}
			if f.Chosen != want {
				t.Errorf("fold %d: chose %s with inner scores %v, want %s", f.Fold, f.Chosen, f.TuneScores, want)
			}
		}
	}
	// tuning.csv: a row per fold and candidate, one chosen per fold.
	lines := strings.Split(strings.TrimSpace(readFile(t, out+"/tuning.csv")), "\n")
	if len(lines) != 1+3*2 || strings.Count(strings.Join(lines, "\n"), ",true") != 3 || !strings.Contains(lines[1], ",0,0,C=0.001,log_loss,") {
		t.Errorf("tuning.csv:\n%s", strings.Join(lines, "\n"))
	}
}

// TestValidateTuneMetricKind: validate refuses a tune metric that does not
// apply to a dataset's kind, which would fail every fold at run time: a
// multi-label metric on iris, named or taken by default from the
// experiment's metrics.
func TestValidateTuneMetricKind(t *testing.T) {
	file := writeExperiment(t, `experiment "tk" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
dataset "emotions" {
  path          = "%REPO%/experiments/data/emotions.csv"
  labels_prefix = "label_"
}
learner "logreg" {
  params = { C = [0.1, 1] }
  tune { metric = "jaccard" }
}
learner "svm" {
  params = { C = [0.1, 1] }
  tune {}
}
reduction "ova" {
  scheme   = "ova"
  datasets = ["iris"]
}
reduction "br" {
  scheme   = "br"
  datasets = ["emotions"]
  learners = ["logreg", "svm"]
}
# lda is tuned for accuracy (the default would be hamming_loss) and has no
# cell on emotions (its only reduction covers iris): no error.
learner "lda" {
  params = { shrinkage = [0, 0.5] }
  tune { metric = "accuracy" }
}
reduction "ova_lda" {
  scheme   = "ova"
  datasets = ["iris"]
  learners = ["lda"]
}
metrics = ["hamming_loss", "accuracy"]
`)
	_, stderr, err := bench(t, "validate", file)
	if err == nil {
		t.Fatalf("validate accepted tune metrics that do not apply:\n%s", stderr)
	}
	for _, want := range []string{
		`exp.hcl:9:19: error: Invalid tune metric`,
		`Learner "logreg": jaccard does not apply to multiclass dataset "iris" (it is a multilabel metric).`,
		`exp.hcl:13:3: error: Invalid tune metric`,
		`Learner "svm": the tune metric defaults to the experiment's first metric, hamming_loss, which does not apply to multiclass dataset "iris"; set tune { metric = "..." } to one that does.`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("missing %q in\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, `Learner "lda"`) {
		t.Errorf("lda has no cell on emotions, yet an error:\n%s", stderr)
	}
}

// TestValidateMultiLabelDefaultMetrics: a multi-label experiment without
// a metrics line validates (its default metrics are multi-label ones, so
// a tuned learner tunes for hamming_loss), while a written list of
// multiclass metrics alone stays an error.
func TestValidateMultiLabelDefaultMetrics(t *testing.T) {
	const src = `experiment "mld" { seed = 1 }
dataset "emotions" {
  path          = "%REPO%/experiments/data/emotions.csv"
  labels_prefix = "label_"
}
learner "logreg" {
  params = { C = [0.1, 1] }
  tune {}
}
reduction "br" { learners = ["logreg"] }
cv { folds = 3 }
`
	_, stderr, err := bench(t, "validate", writeExperiment(t, src))
	if err != nil || strings.Contains(stderr, "error") {
		t.Fatalf("validate refused the default metrics of multi-label data: %v\n%s", err, stderr)
	}
	_, stderr, err = bench(t, "validate", writeExperiment(t, src+`metrics = ["accuracy"]`+"\n"))
	want := `exp.hcl:12:11: error: Metric does not fit the datasets`
	if err == nil || !strings.Contains(stderr, want) {
		t.Fatalf("validate of a written multiclass metric on multi-label data: %v, want %q in\n%s", err, want, stderr)
	}
}

// TestValidateTuneFolds: on iris with 2 outer folds (75 training rows, 25
// of each class) validate refuses 100 tune folds (a training part cannot
// be split so) and warns about 30 (each class has 25 rows in a training
// part: some inner test parts lack it).
func TestValidateTuneFolds(t *testing.T) {
	file := writeExperiment(t, `experiment "tf" { seed = 1 }
dataset "iris" { path = "%REPO%/experiments/data/iris.csv" }
learner "logreg" {
  params = { C = [0.1, 1] }
  tune { folds = 100 }
}
learner "svm" {
  params = { C = [0.1, 1] }
  tune { folds = 30 }
}
reduction "ova" { scheme = "ova" }
cv { folds = 2 }
metrics = ["accuracy"]
`)
	_, stderr, err := bench(t, "validate", file)
	if err == nil {
		t.Fatalf("validate accepted 100 tune folds of 75 rows:\n%s", stderr)
	}
	for _, want := range []string{
		`exp.hcl:5:3: error: Too few rows to tune`,
		`Learner "logreg": on dataset "iris" the training part of fold 0 has 75 row(s), fewer than tune folds = 100; use fewer folds.`,
		`exp.hcl:9:3: warning: Class smaller than the number of tune folds`,
		`Learner "svm": on dataset "iris" the class "setosa" has 25 row(s) in the training part of fold 0, fewer than tune folds = 30, so some inner test parts have none of it`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("missing %q in\n%s", want, stderr)
		}
	}
}

// quotedSections returns the sections of a Markdown report whose "## "
// headings start with one of titles: the parts the docs quote (rows go
// by their short names, so a row's lines in the other sections, the
// set-up and the per-class tables, start alike).
func quotedSections(md string, titles ...string) string {
	var b strings.Builder
	for _, sec := range strings.Split(md, "\n## ") {
		for _, title := range titles {
			if strings.HasPrefix(sec, title) {
				b.WriteString(sec)
				b.WriteString("\n")
			}
		}
	}
	return b.String()
}
