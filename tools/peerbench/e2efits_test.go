package main

import (
	"bytes"
	"context"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat"
)

// TestE2EFolds: iris in 5 stratified folds gives each fold its 120
// training rows standardised over themselves (mean 0, population standard
// deviation 1 in every column) and 3 one-vs-rest problems with 40
// positives each (the folds are stratified: 10 of each class held out).
func TestE2EFolds(t *testing.T) {
	fits, err := e2eFolds("../../experiments/data/iris.csv", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(fits) != 5 {
		t.Fatalf("%d folds, want 5", len(fits))
	}
	for f, fit := range fits {
		x := fit.rows
		n, d := x.Dims()
		if n != 120 || d != 4 {
			t.Fatalf("fold %d: %d×%d design, want 120×4", f, n, d)
		}
		col := make([]float64, n)
		for j := range d {
			for i := range n {
				col[i] = x.At(i, j)
			}
			mean, std := stat.PopMeanStdDev(col, nil)
			if math.Abs(mean) > 1e-12 || math.Abs(std-1) > 1e-12 {
				t.Errorf("fold %d, column %d: mean %g, std %g over the training rows, want 0 and 1", f, j, mean, std)
			}
		}
		if len(fit.labels) != 3 {
			t.Fatalf("fold %d: %d problems, want 3", f, len(fit.labels))
		}
		for c, y := range fit.labels {
			pos := 0
			for _, v := range y {
				switch v {
				case 1:
					pos++
				case -1:
				default:
					t.Fatalf("fold %d, problem %d: target %g", f, c, v)
				}
			}
			if pos != 40 || len(y) != n {
				t.Errorf("fold %d, problem %d: %d positives of %d, want 40 of %d", f, c, pos, len(y), n)
			}
		}
	}
	cpu, err := fitFoldsCPU(context.Background(), fits, benchJobs)
	if err != nil || cpu < 0 {
		t.Errorf("fitFoldsCPU = %v, %v", cpu, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := fitFoldsCPU(ctx, fits, benchJobs); err == nil {
		t.Error("fitFoldsCPU with a cancelled context: no error")
	}
}

// TestE2EFoldsErrors: a file without a class column, or one with a
// categorical feature, is refused with its name.
func TestE2EFoldsErrors(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"noclass.csv":     "a,b\n1,2\n3,4\n",
		"categorical.csv": "a,colour,class\n1,red,x\n2,blue,y\n3,red,x\n4,blue,y\n",
	} {
		path := dir + "/" + name
		if err := writeFile(path, func(w io.Writer) error { _, err := io.WriteString(w, body); return err }); err != nil {
			t.Fatal(err)
		}
		if _, err := e2eFolds(path, 2); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: err = %v, want an error naming the file", name, err)
		}
	}
}

// TestWriteE2EFits: the fits' share of bench's CPU time and the rest,
// for the cases whose fits were timed.
func TestWriteE2EFits(t *testing.T) {
	results := []*e2eResult{
		{c: e2eCase{name: "letter", folds: 10}, oursCPU: 1500 * time.Millisecond, fitCPU: 1100 * time.Millisecond},
		{c: e2eCase{name: "diabetes130", folds: 5}, oursCPU: 13 * time.Second},
	}
	var b bytes.Buffer
	writeE2EFits(&b, results, 3)
	out := b.String()
	for _, want := range []string{"Where letter's CPU time goes: fitting its 10 folds in this process", "median of 3) takes **1.10 s** of CPU, 73 % of bench's 1.50 s", "takes 400 ms.\n\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "diabetes130") {
		t.Errorf("diabetes130's fits were not timed, yet:\n%s", out)
	}
}
