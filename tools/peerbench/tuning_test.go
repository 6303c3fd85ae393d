package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyclass/polyclass/framework/config"
)

// TestTuningExperimentParses: each strategy's experiment is valid HCL
// with Hsu & Lin's 15 × 15 (C, γ), C = 2^12 … 2^-2 and γ = 2^4 … 2^-10,
// tuned by 3 inner folds, the grid by the exhaustive grid, halving by
// successive halving (factor 3, exhaust) and hyperband with η = 3.
func TestTuningExperimentParses(t *testing.T) {
	for _, s := range tuningStrategies {
		file := filepath.Join(t.TempDir(), "tuning.hcl")
		if err := os.WriteFile(file, []byte(tuningExperiment(s.name, s.settings, "/data/train.csv", "/data/test.csv")), 0o644); err != nil {
			t.Fatal(err)
		}
		exp, diags := config.NewParser(config.DefaultFormats()).ParseFile(file)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		l := exp.Learners[0]
		for name, top := range map[string]float64{"C": 12, "gamma": 4} {
			v := l.Params[name].Value.Elems()
			if len(v) != 15 || v[0].Num() != math.Pow(2, top) || v[14].Num() != math.Pow(2, top-14) {
				t.Errorf("%s: %s has %d values from %v, want 15 from 2^%v to 2^%v", s.name, name, len(v), v, top, top-14)
			}
		}
		want := map[string]string{"grid": config.StrategyGrid, "halving": config.StrategyHalving, "hyperband": config.StrategyHyperband}[s.name]
		wantMin := config.MinExhaust // halving's; hyperband's default is the smallest workable (0)
		if s.name == "hyperband" {
			wantMin = 0
		}
		if tn := l.Tune; tn == nil || tn.Folds != 3 || tn.Strategy != want || tn.Factor != 3 || tn.MinResources != wantMin {
			t.Errorf("%s: tune %+v, want 3 folds, strategy %q", s.name, tn, want)
		}
	}
}

// TestHeadRows: the header and the first n rows, of a gzipped file too.
func TestHeadRows(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "d.csv"), filepath.Join(dir, "h.csv")
	if err := os.WriteFile(src, []byte("a,class\n1,x\n2,y\n3,z\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := headRows(src, dst, 2); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(dst); string(b) != "a,class\n1,x\n2,y\n" {
		t.Errorf("head %q, want the header and 2 rows", b)
	}
}

// TestChosenPair: the choice of a run's one tuned cell; more cells or no
// choice are errors.
func TestChosenPair(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "c.json"), []byte(`{"folds":[{"chosen":"C=16,gamma=4"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := chosenPair(dir); err != nil || got != "C=16,gamma=4" {
		t.Errorf("chosen %q (%v), want C=16,gamma=4", got, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "d.json"), []byte(`{"folds":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := chosenPair(dir); err == nil || !strings.Contains(err.Error(), "holds 2 cell files, want 1") {
		t.Errorf("two cells: error %v", err)
	}
}

func TestWriteTuning(t *testing.T) {
	runs := []*tuningRun{
		{name: "grid", chosen: "C=16,gamma=4", accuracy: 0.9780, run: &benchRun{wall: 1000 * time.Second, cpu: 2000 * time.Second}},
		{name: "halving", chosen: "C=32,gamma=4", accuracy: 0.9752, run: &benchRun{wall: 150 * time.Second, cpu: 300 * time.Second}},
	}
	var b bytes.Buffer
	writeTuning(&b, "T", 2000, runs)
	for _, want := range []string{
		"the first 2000 rows of letter's 15000 training rows train (-tuning-rows; not the target's measurement)",
		"| grid | C=16,gamma=4 | 0.9780 | 1000.0 s | 2000.0 s |\n",
		"| halving | C=32,gamma=4 | 0.9752 | 150.0 s | 300.0 s |\n",
		"- halving against the grid: -0.28 points of test accuracy, 15.0 % of the CPU time.\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in\n%s", want, b.String())
		}
	}
}

// TestTuningGoals: target 12 has two lines per strategy after the grid,
// the accuracy points it is below the grid and its CPU against the grid's;
// a strategy that is within 0.5 points at under 20 % of the CPU meets both.
func TestTuningGoals(t *testing.T) {
	runs := []*tuningRun{
		{name: "grid", chosen: "C=4096,gamma=2", accuracy: 0.9790, run: &benchRun{cpu: 2000 * time.Second}},
		{name: "halving", chosen: "C=4096,gamma=0.5", accuracy: 0.9724, run: &benchRun{cpu: 46 * time.Second}},
		{name: "hyperband", chosen: "C=4096,gamma=2", accuracy: 0.9790, run: &benchRun{cpu: 150 * time.Second}},
	}
	var got []string
	for _, g := range tuningGoals(runs) {
		got = append(got, fmt.Sprintf("%s: %.3f met=%v", g.what, g.value(), g.met()))
	}
	want := []string{
		"letter 225 (C, γ), ovo: test accuracy points halving (C=4096,gamma=0.5) is below the grid (C=4096,gamma=2): 0.660 met=false",
		"letter 225 (C, γ), ovo: CPU, halving vs the grid: 0.023 met=true",
		"letter 225 (C, γ), ovo: test accuracy points hyperband (C=4096,gamma=2) is below the grid (C=4096,gamma=2): 0.000 met=true",
		"letter 225 (C, γ), ovo: CPU, hyperband vs the grid: 0.075 met=true",
	}
	if !slices.Equal(got, want) {
		t.Errorf("goals:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
