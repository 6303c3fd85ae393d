package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/report"
)

// TestPluginTaxModesAgree runs a small grid (iris, logreg and svm × ova
// and ovo, 3 folds) through plugin processes built from the repository and
// through the same plugins linked in, each in a fresh process of the
// tax-grid command (this test binary, see TestMain): the results and the
// protocol calls (counts, messages, bytes) are the same, and the report
// prints both.
func TestPluginTaxModesAgree(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"logreg", "svm", "reducers"} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "bench-plugin-"+p), "../../plugins/"+p)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("building %s: %v\n%s", p, err, out)
		}
	}
	repo, _ := filepath.Abs("../..")
	file := filepath.Join(t.TempDir(), "tax.hcl")
	src := `experiment "tax" { seed = 1 }
dataset "iris" { path = "` + repo + `/experiments/data/iris.csv" }
encoder "std" { type = "standardize" }
learner "logreg" { params = { C = 1 } }
learner "svm" { params = { C = 1 } }
reduction "ova" { scheme = "ova" }
reduction "ovo" { scheme = "ovo" }
cv { folds = 3 }
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	procs, err := runTaxGrid(ctx, file, dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	local, err := runTaxGrid(ctx, file, "", 2)
	if err != nil {
		t.Fatal(err)
	}
	if procs.wall <= 0 || procs.run <= 0 || procs.run > procs.wall || procs.cpu <= 0 || local.wall <= 0 || local.cpu <= 0 {
		t.Errorf("timings: processes %+v, linked in %+v", procs, local)
	}
	if len(procs.cells) != 4 || !sameResults(procs.cells, local.cells) {
		t.Fatalf("results differ:\n%+v\n%+v", procs.cells, local.cells)
	}
	if d := diffCalls(procs.calls, local.calls); len(d) > 0 {
		t.Errorf("calls differ: %v", d)
	}
	uploads := 0
	for _, c := range procs.calls {
		if c.Method == "LearnerService/Upload" {
			uploads += int(c.Calls)
		}
	}
	if procs.stats.Folds != 12 || uploads != 2*3 {
		t.Errorf("%d folds, %d uploads; want 12 and one per CV fold and learner", procs.stats.Folds, uploads)
	}
	var b strings.Builder
	writePluginTax(&b, "tax", []*gridRun{procs}, []*gridRun{local}, 2)
	for _, want := range []string{"| whole grid", "| folds only", "the same in both modes", "| logreg | LearnerService/Upload | 3 | 0.25 |", "The CPU ratio of each pair of runs", "linked in through their public constructors"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report without %q:\n%s", want, b.String())
		}
	}
}

// TestLetterTaxFile: experiments/bench/letter_tax.hcl parses, with its
// data in ../shared/data or elsewhere, into 4 cells' worth of settings.
func TestLetterTaxFile(t *testing.T) {
	root, _ := filepath.Abs("../..")
	o := &options{root: root, tmp: t.TempDir()}
	other := filepath.Join(t.TempDir(), "letter.csv")
	file, err := experimentFile(o, "letter_tax.hcl", other)
	if err != nil {
		t.Fatal(err)
	}
	exp, diags := config.NewParser(report.FormatNames()).ParseFile(file)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if len(exp.Datasets) != 1 || exp.Datasets[0].Path != other || len(exp.Learners) != 2 || len(exp.Reductions) != 2 || exp.CV.Folds != 10 {
		t.Errorf("experiment %+v", exp)
	}
}

// TestTaxGridErrors: the tax-grid command names what is wrong with its
// arguments and its experiment.
func TestTaxGridErrors(t *testing.T) {
	ctx := context.Background()
	bad := filepath.Join(t.TempDir(), "bad.hcl")
	if err := os.WriteFile(bad, []byte("experiment {"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{}, "want one experiment file, got 0"},
		{[]string{"a.hcl", "b.hcl"}, "got 2"},
		{[]string{"-workers"}, "flag needs an argument"},
		{[]string{bad}, bad + ":1,"},
	} {
		var out strings.Builder
		err := run(ctx, append([]string{taxGridCommand}, tc.args...), &out, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) || out.Len() != 0 {
			t.Errorf("tax-grid %q: error %v, output %q; want an error with %q", tc.args, err, out.String(), tc.want)
		}
	}
	_, err := runTaxGrid(ctx, bad, "", 1)
	if err == nil || !strings.Contains(err.Error(), "tax-grid -workers 1 "+bad) || !strings.Contains(err.Error(), "bad.hcl:1,") {
		t.Errorf("runTaxGrid: %v; want the command and its error", err)
	}
}

func TestDiffCalls(t *testing.T) {
	a := []outcome.CallStats{{Plugin: "p", Method: "M", Calls: 2, Sent: 10}, {Plugin: "p", Method: "N", Calls: 1}}
	b := []outcome.CallStats{{Plugin: "p", Method: "M", Calls: 2, Sent: 11}}
	d := diffCalls(a, b)
	if len(d) != 2 || !strings.HasPrefix(d[0], "p M: ") || !strings.HasPrefix(d[1], "p N: ") || len(diffCalls(a, a)) != 0 {
		t.Errorf("diff %q", d)
	}
}

// TestWriteTaxSpread: the pair ratios are each run's CPU over its
// partner's (the runs in the order they ran: 1.20, 1.10, 1.625), the
// counts the medians.
func TestWriteTaxSpread(t *testing.T) {
	run := func(cpu time.Duration, faults, switches, huge int64) *gridRun {
		return &gridRun{cpu: cpu, os: osCounts{faults: faults, switches: switches, hugeFaults: huge}}
	}
	procs := []*gridRun{run(12*time.Second, 300, 40, 130), run(11*time.Second, 100, 60, 140), run(13*time.Second, 200, 50, 120)}
	local := []*gridRun{run(10*time.Second, 90, 5, 95), run(10*time.Second, 70, 7, 85), run(8*time.Second, 80, 6, 90)}
	var b strings.Builder
	writeTaxSpread(&b, procs, local)
	for _, want := range []string{"lies between 1.10 and 1.62, median 1.20", "130 huge pages (2 MiB) faulted in against 90 linked in", "200 minor page faults of our processes against 80", "50 context switches against 6"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("spread without %q:\n%s", want, b.String())
		}
	}
}
