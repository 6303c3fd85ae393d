package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polyclass/polyclass/framework/config"
)

func TestParseFits(t *testing.T) {
	for _, tc := range []struct {
		summary         string
		requested, made int
		err             string
	}{
		{"share: 75 cells (0 failed) in 41m2s; fits: 16900 requested, 8775 made", 16900, 8775, ""},
		{"share: 75 cells (0 failed) in 1s", 0, 0, `bench run's summary "share: 75 cells (0 failed) in 1s" says nothing of fits (a bench older than shared fits?)`},
	} {
		r, m, err := parseFits(tc.summary)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: error %v, want %q", tc.summary, err, tc.err)
			}
			continue
		}
		if err != nil || r != tc.requested || m != tc.made {
			t.Errorf("%q: %d requested, %d made (%v), want %d, %d", tc.summary, r, m, err, tc.requested, tc.made)
		}
	}
}

// TestShareExperimentParses: the section's experiment is valid HCL with
// the 5 × 5 (C, γ) block and three reductions.
func TestShareExperimentParses(t *testing.T) {
	file := filepath.Join(t.TempDir(), "share.hcl")
	if err := os.WriteFile(file, []byte(shareExperiment("/data/train.svm", "/data/test.svm")), 0o644); err != nil {
		t.Fatal(err)
	}
	exp, diags := config.NewParser(config.DefaultFormats()).ParseFile(file)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if len(exp.Reductions) != 3 || len(exp.Learners) != 1 {
		t.Fatalf("%d reductions, %d learners; want 3 and 1", len(exp.Reductions), len(exp.Learners))
	}
	for name, want := range map[string][]float64{"C": {4, 8, 16, 32, 64}, "gamma": {1, 2, 4, 8, 16}} {
		v := exp.Learners[0].Params[name].Value.Elems()
		if len(v) != len(want) {
			t.Fatalf("%s: %d values, want %v", name, len(v), want)
		}
		for i, x := range v {
			if x.Num() != want[i] {
				t.Errorf("%s[%d] = %v, want %v", name, i, x.Num(), want[i])
			}
		}
	}
}

func TestSameAccuracies(t *testing.T) {
	row := func(red string, metric string, mean float64) summaryRow {
		return summaryRow{dataset: "letter", learner: "svm", params: "C=4", reduction: red, metric: metric, mean: mean}
	}
	a := []summaryRow{row("ovo", "accuracy", 0.9), row("dag", "accuracy", 0.8), row("ovo", "fit_seconds", 3)}
	for _, tc := range []struct {
		name string
		b    []summaryRow
		want bool
	}{
		{"same, another order and other times", []summaryRow{row("dag", "accuracy", 0.8), row("ovo", "accuracy", 0.9), row("ovo", "fit_seconds", 1)}, true},
		{"an accuracy differs", []summaryRow{row("dag", "accuracy", 0.8), row("ovo", "accuracy", 0.91)}, false},
		{"a cell missing", []summaryRow{row("ovo", "accuracy", 0.9)}, false},
		{"none", nil, false},
	} {
		if got := sameAccuracies(a, tc.b); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestWriteShare(t *testing.T) {
	runs := []*shareRun{
		{name: "before: `--no-share`", requested: 16900, made: 16900, run: &benchRun{wall: 100 * time.Second, cpu: 190 * time.Second, mem: treeMemory{peakSum: 2e9}}},
		{name: "after: shared", requested: 16900, made: 8775, run: &benchRun{wall: 80 * time.Second, cpu: 150 * time.Second, mem: treeMemory{peakSum: 2e9}}},
	}
	var b bytes.Buffer
	writeShare(&b, "T", runs, true)
	for _, want := range []string{
		"| before: `--no-share` | 16900 | 16900 | 100.0 s | 190.0 s | 2.00 GB |\n",
		"| after: shared | 16900 | 8775 | 80.0 s | 150.0 s | 2.00 GB |\n",
		"Shared against `--no-share`: 0.52× the fits, 0.80× the wall time.\n",
		"the accuracies of the two runs are the same: yes.",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in\n%s", want, b.String())
		}
	}
}
