package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyclass/polyclass/framework/config"
)

// TestIrisGridIsHsuLins: the section's experiment is hsu_lin.hcl's iris
// block: the same dataset file, encoder, learner svm with the same
// parameters (225 (C, γ)), the same three reductions, folds, metrics and
// outputs; the one-vs-one variant has ovo alone.
func TestIrisGridIsHsuLins(t *testing.T) {
	parser := config.NewParser(config.DefaultFormats())
	path, err := filepath.Abs("../../experiments/hsu_lin.hcl")
	if err != nil {
		t.Fatal(err)
	}
	hsu, diags := parser.ParseFile(path)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	iris := hsuLinDataset(t, hsu.Datasets, "iris")
	for _, tc := range []struct {
		name       string
		reductions []string
	}{{"whole grid", []string{"ovo", "dag", "ova"}}, {"one-vs-one", []string{"ovo"}}} {
		file := filepath.Join(t.TempDir(), "iris.hcl")
		if err := os.WriteFile(file, []byte(irisGridExperiment(iris.Path, tc.reductions)), 0o644); err != nil {
			t.Fatal(err)
		}
		exp, diags := parser.ParseFile(file)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", tc.name, diags)
		}
		if len(exp.Datasets) != 1 || exp.Datasets[0].Name != "iris" || exp.Datasets[0].Path != iris.Path {
			t.Errorf("%s: datasets %+v, want hsu_lin.hcl's iris (%s)", tc.name, exp.Datasets, iris.Path)
		}
		if len(exp.Encoders) != 1 || len(hsu.Encoders) != 1 || !sameParams(exp.Encoders[0].Options, hsu.Encoders[0].Options) || exp.Encoders[0].Type != hsu.Encoders[0].Type {
			t.Errorf("%s: encoders %+v, want hsu_lin.hcl's %+v", tc.name, exp.Encoders, hsu.Encoders)
		}
		svm := findLearner(t, hsu.Learners, "svm")
		if len(exp.Learners) != 1 || exp.Learners[0].Name != "svm" || !sameParams(exp.Learners[0].Params, svm.Params) {
			t.Errorf("%s: learners %+v, want hsu_lin.hcl's svm %+v", tc.name, exp.Learners, svm)
		}
		if c, g := exp.Learners[0].Params["C"].Value.Elems(), exp.Learners[0].Params["gamma"].Value.Elems(); len(c)*len(g) != 225 {
			t.Errorf("%s: %d × %d (C, γ), want 225", tc.name, len(c), len(g))
		}
		var names []string
		for _, r := range exp.Reductions {
			names = append(names, r.Name)
			h := findReduction(t, hsu.Reductions, r.Name)
			if r.Scheme != h.Scheme || !sameParams(r.Params, h.Params) {
				t.Errorf("%s: reduction %s %+v, want hsu_lin.hcl's %+v", tc.name, r.Name, r, h)
			}
		}
		if !slices.Equal(names, tc.reductions) {
			t.Errorf("%s: reductions %v, want %v", tc.name, names, tc.reductions)
		}
		if exp.CV.Folds != hsu.CV.Folds || exp.CV.Stratified != hsu.CV.Stratified || exp.CV.Repeats != hsu.CV.Repeats || exp.Seed != hsu.Seed {
			t.Errorf("%s: cv %+v seed %d, want hsu_lin.hcl's %+v seed %d", tc.name, exp.CV, exp.Seed, hsu.CV, hsu.Seed)
		}
		if !slices.Equal(exp.Metrics, hsu.Metrics) || !slices.Equal(exp.Output.Formats, hsu.Output.Formats) {
			t.Errorf("%s: metrics %v, formats %v; want hsu_lin.hcl's %v, %v", tc.name, exp.Metrics, exp.Output.Formats, hsu.Metrics, hsu.Output.Formats)
		}
	}
}

func hsuLinDataset(t *testing.T, ds []*config.Dataset, name string) *config.Dataset {
	t.Helper()
	for _, d := range ds {
		if d.Name == name {
			return d
		}
	}
	t.Fatalf("hsu_lin.hcl has no dataset %q", name)
	return nil
}

func findLearner(t *testing.T, ls []*config.Learner, name string) *config.Learner {
	t.Helper()
	for _, l := range ls {
		if l.Name == name {
			return l
		}
	}
	t.Fatalf("hsu_lin.hcl has no learner %q", name)
	return nil
}

func findReduction(t *testing.T, rs []*config.Reduction, name string) *config.Reduction {
	t.Helper()
	for _, r := range rs {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("hsu_lin.hcl has no reduction %q", name)
	return nil
}

// sameParams reports whether two parameter maps hold the same values.
func sameParams(a, b map[string]config.Param) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || !v.Value.Equal(w.Value) {
			return false
		}
	}
	return true
}

func TestHsuLinPairs(t *testing.T) {
	p := hsuLinPairs()
	if len(p) != 225 || p[0] != (gridPair{4096, 16}) || p[1] != (gridPair{4096, 8}) || p[224] != (gridPair{0.25, 1.0 / 1024}) {
		t.Fatalf("%d pairs: first %v, %v, last %v", len(p), p[0], p[1], p[len(p)-1])
	}
	if got := p[224].String(); got != "C = 2^-2, γ = 2^-10" {
		t.Errorf("String = %q", got)
	}
	if got := (gridPair{3, 0.5}).String(); got != "C = 3, γ = 2^-1" {
		t.Errorf("String = %q", got)
	}
}

func TestParseCVAccuracy(t *testing.T) {
	for _, tc := range []struct {
		out  string
		want float64
		err  string
	}{
		{"*\noptimization finished, #iter = 12\nCross Validation Accuracy = 96.6667%\n", 0.966667, ""},
		{"Cross Validation Accuracy = 100%\n", 1, ""},
		{"optimization finished\n", 0, `svm-train -v printed no cross-validation accuracy: "optimization finished"`},
	} {
		got, err := parseCVAccuracy(tc.out)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: error %v, want %q", tc.out, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: %v (%v), want %v", tc.out, got, err, tc.want)
		}
	}
}

// fakeSVMTrain writes a script that behaves like `svm-train -v 10 -c C
// -g G FILE`: it prints an accuracy of 90 % but 95 % at C = 4 and
// γ = 0.5 or 2, and fails at C = 3.
func fakeSVMTrain(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "svm-train")
	script := `#!/bin/sh
# args: -v 10 -c C -g G FILE
case "$4" in 3) echo "bad C" >&2; exit 2;; esac
case "$4 $6" in "4 0.5"|"4 2") echo "Cross Validation Accuracy = 95%";; *) echo "Cross Validation Accuracy = 90%";; esac
`
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLIBSVMGrid: every pair runs; the best is the first pair of the
// highest accuracy; a failed svm-train fails the search, naming its
// command.
func TestLIBSVMGrid(t *testing.T) {
	tool := fakeSVMTrain(t, t.TempDir())
	pairs := []gridPair{{1, 1}, {4, 0.5}, {2, 2}, {4, 2}}
	r, err := libsvmGrid(context.Background(), tool, "data.scale", pairs, 2)
	if err != nil {
		t.Fatal(err)
	}
	if r.best != (gridPair{4, 0.5}) || r.accuracy != 0.95 || r.wall <= 0 {
		t.Errorf("best %v at %v in %v, want C = 4, γ = 0.5 at 0.95", r.best, r.accuracy, r.wall)
	}
	_, err = libsvmGrid(context.Background(), tool, "data.scale", append(pairs, gridPair{3, 1}), 2)
	if err == nil || !strings.Contains(err.Error(), tool+" -v 10 -c 3 -g 1 data.scale: exit status 2\nbad C") {
		t.Errorf("a failing pair: error %v", err)
	}
}

// TestWriteScaledLIBSVM: every row, scaled by all rows' range.
func TestWriteScaledLIBSVM(t *testing.T) {
	dir := t.TempDir()
	data, out := filepath.Join(dir, "iris.csv"), filepath.Join(dir, "iris.scale")
	if err := os.WriteFile(data, []byte("a,b,class\n0,5,versicolor\n4,5,setosa\n2,5,versicolor\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeScaledLIBSVM(data, out); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	if want := "2 1:-1\n1 1:1\n2\n"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if err := os.WriteFile(data, []byte("a,b,class\n0,x,setosa\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeScaledLIBSVM(data, out); err == nil || !strings.Contains(err.Error(), "iris.csv row 1 column b: ") {
		t.Errorf("a text value: error %v", err)
	}
}

func TestBestAccuracy(t *testing.T) {
	rows := []summaryRow{
		{params: "C=1", metric: "accuracy", mean: 0.9},
		{params: "C=2", metric: "fit_seconds", mean: 5},
		{params: "C=4", metric: "accuracy", mean: 0.95},
		{params: "C=8", metric: "accuracy", mean: 0.95},
	}
	if got := bestAccuracy(rows); got.params != "C=4" {
		t.Errorf("best %+v, want C=4 (the first of the highest)", got)
	}
	if got := bestAccuracy(nil); got.mean != -1 || fmtMean(got.mean) != "–" {
		t.Errorf("no rows: %+v", got)
	}
}

// TestIrisGridGoals: the whole grid's wall against 6 s, and the medians
// of the rounds' ratios against LIBSVM's grid, one-vs-one and whole.
func TestIrisGridGoals(t *testing.T) {
	s := func(x float64) *benchRun { return &benchRun{wall: time.Duration(x * float64(time.Second))} }
	r := &irisGridResult{
		full:   []*benchRun{s(5), s(7)},
		ovo:    []*benchRun{s(2), s(3)},
		libsvm: []*libsvmGridRun{{wall: 2 * time.Second}, {wall: 2 * time.Second}},
	}
	o := &options{}
	irisGridGoals(o, r)
	if len(o.goals) != 3 {
		t.Fatalf("%d goals, want 3", len(o.goals))
	}
	for i, want := range []struct {
		value  float64
		target float64
		met    bool
	}{{6, 6, true}, {1.25, 1.5, true}, {3, 1.5, false}} {
		g := o.goals[i]
		if g.goal != irisGridGoal || g.value() != want.value || g.target != want.target || g.met() != want.met {
			t.Errorf("goal %d: %+v (value %v, met %v), want %+v", i, g, g.value(), g.met(), want)
		}
	}
	var b strings.Builder
	r.oursBest = summaryRow{params: "C=4", mean: 0.96}
	r.libsvm[1].best, r.libsvm[1].accuracy = gridPair{4, 0.5}, 0.9733
	writeIrisGrid(&b, "T", 2, r)
	for _, want := range []string{
		"| `bench run -j 2`, ovo + dag + ova | 675 | 6.00 s (bound 6 s) | 0 ms | **3.00** |\n",
		"| `bench run -j 2`, ovo | 225 | 2.50 s | 0 ms | **1.25** |\n",
		"| LIBSVM, 225 × `svm-train -v 10`, 2 at a time | 225 | 2.00 s |",
		"ours 0.9600 at C=4 (mean over bench's folds); LIBSVM 0.9733 at C = 2^2, γ = 2^-1",
		"The folds differ",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in\n%s", want, b.String())
		}
	}
}
