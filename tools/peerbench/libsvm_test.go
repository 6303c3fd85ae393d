package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/report"
)

// TestLetterLIBSVM: the letter files are LIBSVM's format, scaled to
// [−1, 1] by the training rows' range, labels by sorted class name, the
// training rows first; the experiment that reads them parses.
func TestLetterLIBSVM(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("a,b,class\n")
	for i := range libsvmTrain + 2 {
		fmt.Fprintf(&b, "%d,%d,%s\n", i%5, 3, []string{"Z", "A"}[i%2])
	}
	data := filepath.Join(dir, "letter.csv")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	train, test := filepath.Join(dir, "t.svm"), filepath.Join(dir, "v.svm")
	if err := writeLetterLIBSVM(data, train, test); err != nil {
		t.Fatal(err)
	}
	tr, _ := os.ReadFile(train)
	te, _ := os.ReadFile(test)
	lines := strings.Split(strings.TrimSpace(string(tr)), "\n")
	// Row 0: a = 0 → −1, b constant → left out, class Z → 2; row 1: a = 1
	// → −0.5, class A → 1; row 2: a = 2 → 0, left out.
	if len(lines) != libsvmTrain || lines[0] != "2 1:-1" || lines[1] != "1 1:-0.5" || lines[2] != "2" {
		t.Errorf("training file: %d lines starting %q", len(lines), lines[:3])
	}
	if got := strings.TrimSpace(string(te)); got != "2 1:-1\n1 1:-0.5" {
		t.Errorf("test file %q", got)
	}
	file := filepath.Join(dir, "e.hcl")
	if err := os.WriteFile(file, []byte(libsvmExperiment(train, test)), 0o644); err != nil {
		t.Fatal(err)
	}
	exp, diags := config.NewParser(report.FormatNames()).ParseFile(file)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if ds := exp.Datasets[0]; ds.Path != train || ds.TestPath != test {
		t.Errorf("dataset %+v", ds)
	}
}
