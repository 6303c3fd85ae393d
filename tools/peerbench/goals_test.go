package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/cv"
	"github.com/polyclass/polyclass/framework/report"
)

func TestWriteGoals(t *testing.T) {
	var b bytes.Buffer
	writeGoals(&b, []goalResult{
		{goal: 5, what: "letter", ours: 4, peer: 5, unit: unitSeconds, target: 0.2},
		{goal: 2, what: "speed-up", ours: 1.8, peer: 1, unit: unitSeconds, target: 1.7, atLeast: true},
		{goal: 4, what: "peak", ours: 550e6, unit: unitBytes, target: 600e6},
		{goal: 4, what: "vs sklearn", ours: 550e6, peer: 1e9, unit: unitBytes, target: 0.5},
		// The median of paired ratios rules, not the medians' ratio (0.96).
		{goal: 3, what: "tax", ours: 10.4, peer: 10.8, unit: unitSeconds, target: 1.05, paired: 1.12},
	})
	want := "| target | what | ours | peer | ratio | bound | met? |\n| --- | --- | ---: | ---: | ---: | ---: | --- |\n" +
		"| 1 | not measured in this run | – | – | – | – | – |\n" +
		"| 2 | speed-up | 1.80 s | 1.00 s | 1.80 | ≥ 1.70 | **yes** |\n" +
		"| 3 | tax | 10.4 s | 10.8 s | 1.12 | ≤ 1.05 | no |\n" +
		"| 4 | peak | 550 MB | – | – | ≤ 600 MB | **yes** |\n" +
		"| 4 | vs sklearn | 550 MB | 1.00 GB | 0.55 | ≤ 0.50 | no |\n" +
		"| 5 | letter | 4.00 s | 5.00 s | 0.80 | ≤ 0.20 | no |\n" +
		"| 6 | not measured in this run | – | – | – | – | – |\n" +
		"| 7 | not measured in this run | – | – | – | – | – |\n" +
		"| 8 | not measured in this run | – | – | – | – | – |\n" +
		"| 9 | not measured in this run | – | – | – | – | – |\n" +
		"| 10 | not measured in this run | – | – | – | – | – |\n" +
		"| 11 | not measured in this run | – | – | – | – | – |\n" +
		"| 12 | not measured in this run | – | – | – | – | – |\n" +
		"| 13 | not measured in this run | – | – | – | – | – |\n" +
		"| 14 | not measured in this run | – | – | – | – | – |\n" +
		"| 15 | not measured in this run | – | – | – | – | – |\n" +
		"| 16 | not measured in this run | – | – | – | – | – |\n\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestFmtRatio(t *testing.T) {
	for _, tt := range []struct {
		v, target float64
		want      string
	}{
		{1.12, 1.05, "1.12"},
		{1.0523, 1.05, "1.052"}, // "1.05" would hide why it misses ≤ 1.05
		{1.0479, 1.05, "1.048"},
		{1.05, 1.05, "1.05"},
		{1.05001, 1.05, "1.0500"}, // at most four decimals
		{0.2, 0.2, "0.20"},
	} {
		if got := fmtRatio(tt.v, tt.target); got != tt.want {
			t.Errorf("fmtRatio(%v, %v) = %q, want %q", tt.v, tt.target, got, tt.want)
		}
	}
}

// TestE2EExperiment: the generated experiment parses, with the folds file
// and the categorical columns on the dataset, one pipeline and the
// learner and reduction of each model.
func TestE2EExperiment(t *testing.T) {
	for model, want := range map[string][2]string{"": {"logreg", "ova"}, "knn": {"knn", "none"}, "naive_bayes": {"naive_bayes", "none"}, "logreg_ovo": {"logreg", "ovo"}} {
		exp := checkE2EExperiment(t, model)
		if l, r := exp.Learners[0], exp.Reductions[0]; l.Name != want[0] || r.Name != want[1] {
			t.Errorf("model %q: learner %s, reduction %s, want %v", model, l.Name, r.Name, want)
		}
	}
}

func checkE2EExperiment(t *testing.T, model string) *config.Experiment {
	t.Helper()
	dir := t.TempDir()
	data, folds := filepath.Join(dir, "d.csv"), filepath.Join(dir, "d.folds.csv")
	file := filepath.Join(dir, "e.hcl")
	src := e2eExperiment("d", data, folds, []string{"a", "b"}, []string{"impute", "std", "onehot"}, model)
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	exp, diags := config.NewParser(report.FormatNames()).ParseFile(file)
	if diags.HasErrors() {
		t.Fatalf("%s\n%s", diags.Error(), src)
	}
	ds := exp.Datasets[0]
	if ds.Path != data || ds.FoldsFile != folds || !slices.Equal(ds.Categorical, []string{"a", "b"}) {
		t.Errorf("dataset %+v", ds)
	}
	if len(exp.Pipelines) != 1 || len(exp.Learners) != 1 || len(exp.Reductions) != 1 {
		t.Fatalf("pipelines %d, learners %d, reductions %d, want 1 each", len(exp.Pipelines), len(exp.Learners), len(exp.Reductions))
	}
	return exp
}

// TestWriteFolds writes folds for a gzipped file: one per row, the
// stratified assignment of framework/cv with seed 1.
func TestWriteFolds(t *testing.T) {
	dir := t.TempDir()
	var raw bytes.Buffer
	z := gzip.NewWriter(&raw)
	z.Write([]byte("x,class\n"))
	y := []int{}
	for i := range 12 {
		c := []string{"b", "a", "c"}[i%3]
		z.Write([]byte("1," + c + "\n"))
		y = append(y, i%3)
	}
	z.Close()
	data := filepath.Join(dir, "d.csv.gz")
	if err := os.WriteFile(data, raw.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := classColumn(data)
	if err != nil || !slices.Equal(got, y) {
		t.Fatalf("classColumn = %v, %v; want %v", got, err, y)
	}
	out := filepath.Join(dir, "folds.csv")
	if err := writeFolds(data, 4, out); err != nil {
		t.Fatal(err)
	}
	folds, k, err := cv.ReadFoldsFile(out)
	if err != nil || k != 4 {
		t.Fatalf("ReadFoldsFile: %d folds, %v", k, err)
	}
	want, _ := cv.StratifiedKFold(y, 4, 1)
	if !slices.Equal(folds, want) {
		t.Errorf("folds %v, want %v", folds, want)
	}
}

// TestResample draws rows with replacement, the header first, the same
// rows for the same size.
func TestResample(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "s.csv")
	if err := os.WriteFile(src, []byte("a,class\n1,x\n2,y\n3,z\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	read := func(n int) []string {
		dst := filepath.Join(dir, "r.csv")
		if err := resample(src, dst, n); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(dst)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	}
	got := read(50)
	if len(got) != 51 || got[0] != "a,class" {
		t.Fatalf("%d lines, header %q", len(got), got[0])
	}
	seen := map[string]bool{}
	for _, l := range got[1:] {
		if !slices.Contains([]string{"1,x", "2,y", "3,z"}, l) {
			t.Fatalf("line %q is not a row of the source", l)
		}
		seen[l] = true
	}
	if len(seen) != 3 {
		t.Errorf("50 draws saw %d of 3 rows", len(seen))
	}
	if again := read(50); !slices.Equal(again, got) {
		t.Errorf("not reproducible")
	}
	if _, err := parseSizes("25000, 100000"); err != nil {
		t.Error(err)
	}
	if _, err := parseSizes("25k"); err == nil {
		t.Error("parseSizes accepted 25k")
	}
}

// TestScalingExperiment: the experiment of the scaling section parses,
// one data set with soil_type categorical and 5 stratified folds.
func TestScalingExperiment(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.hcl")
	if err := os.WriteFile(file, fmt.Appendf(nil, scalingExperiment, 25000, `"cov.csv"`), 0o644); err != nil {
		t.Fatal(err)
	}
	exp, diags := config.NewParser(report.FormatNames()).ParseFile(file)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if ds := exp.Datasets[0]; ds.Name != "covertype_25000" || !slices.Equal(ds.Categorical, []string{"soil_type"}) || exp.CV.Folds != 5 || !exp.CV.Stratified {
		t.Errorf("dataset %+v, cv %+v", ds, exp.CV)
	}
	if !slices.Contains(exp.Metrics, "fit_seconds") {
		t.Errorf("metrics %v lack fit_seconds", exp.Metrics)
	}
}

// TestProfileNames: PIDs leave the listed profile names.
func TestProfileNames(t *testing.T) {
	got := profileNames([]string{"bench-812.cpu.pprof", "bench-plugin-x-9.heap.pprof", "odd"})
	want := "`bench-PID.cpu.pprof`, `bench-plugin-x-PID.heap.pprof`, `odd`"
	if got != want {
		t.Errorf("profileNames = %s, want %s", got, want)
	}
}

// TestWriteE2EFloor: the CPU time bounds the wall from below on the
// machine's cores, and target 5's ratio sets the CPU time it needs (figures
// of the published run at 806d4c6).
func TestWriteE2EFloor(t *testing.T) {
	results := []*e2eResult{
		{c: e2eCase{name: "letter"}, ours: 896 * time.Millisecond, peer: 3600 * time.Millisecond, oursCPU: 1630 * time.Millisecond},
		{c: e2eCase{name: "diabetes130"}, ours: 7810 * time.Millisecond, peer: 85100 * time.Millisecond, oursCPU: 12 * time.Second},
	}
	var b bytes.Buffer
	writeE2EFloor(&b, results, 2)
	want := "What the CPU time allows: letter: bench's CPU time 1.63 s on 2 cores takes at least 815 ms of wall (0.23× scikit-learn's), and a ratio of 0.20 needs at most 1.44 s of CPU;" +
		" diabetes130: bench's CPU time 12.0 s on 2 cores takes at least 6.00 s of wall (0.07× scikit-learn's), and a ratio of 0.20 needs at most 34.0 s of CPU.\n\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}
