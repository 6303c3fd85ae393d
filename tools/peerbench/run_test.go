package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/report"
)

// writeSynthetic writes a letter-like CSV: n rows, 3 numeric features
// (the third constant), classes A, B, C around separated centres.
func writeSynthetic(t *testing.T, dir string, n int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	b.WriteString("f1,f2,f3,class\n")
	for i := range n {
		c := i % 3
		fmt.Fprintf(&b, "%.4f,%.4f,5,%c\n", float64(2*c)+rng.NormFloat64(), float64(c%2)+rng.NormFloat64(), 'A'+c)
	}
	if err := os.WriteFile(filepath.Join(dir, "letter.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fakeBench writes a shell script that behaves like `bench run -o DIR
// FILE`: it writes DIR/summary.csv and prints the summary line.
func fakeBench(t *testing.T, dir string) string {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to run a fake bench")
	}
	p := filepath.Join(dir, "bench")
	script := `#!/bin/sh
# args: run --quiet -j 2 -o DIR FILE
mkdir -p "$6"
grep -q 'var.data' "$7" || exit 3
cat > "$6/summary.csv" <<'CSV'
dataset,pipeline,learner,params,reduction,metric,mean,std,n_folds
letter,std,logreg,C=1,ova,accuracy,0.75,0.01,10
letter,std,logreg,C=1,ova,fit_seconds,1.5,0.25,10
CSV
echo "bench_letter: 1 cells (0 failed) in 2s"
`
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRunNoPeers runs every section on tiny data with no peer installed:
// the report must say what was skipped and still time our solvers.
func TestRunNoPeers(t *testing.T) {
	dir := t.TempDir()
	writeSynthetic(t, dir, 90)
	root := t.TempDir()
	var out, errOut bytes.Buffer
	args := []string{"-n", "1", "-data", dir, "-root", root, "-liblinear", filepath.Join(dir, "no-liblinear"), "-python", filepath.Join(dir, "no-python")}
	if err := run(context.Background(), args, &out, &errOut); err != nil {
		t.Fatalf("run: %v\n%s", err, errOut.String())
	}
	got := out.String()
	for _, want := range []string{
		"## letter: one-vs-rest fit times",
		"`letter.csv`: 90 rows × 3 features, 3 classes → 3 binary problems",
		"| logistic regression, trust-region Newton, eps 0.01 |",
		"| linear SVM, hinge, dual CD, bias 1, eps 0.1 |",
		"no-liblinear` is not installed, column skipped",
		"no-python` with scikit-learn is not available, skipped",
		"## letter: the whole grid through the plugins\n\nSkipped: `" + filepath.Join(root, "bin", "bench") + "` not found — run `make build` first.",
		"## diabetes130: one-hot vs hashing, time and memory\n\nSkipped: diabetes130.csv.gz not found in " + dir,
		"## The Python plugin tax: scikit-learn through the plugin vs a plain loop\n\nSkipped: `" + filepath.Join(root, "bin", "bench") + "` not found",
		"## Every core busy: both cores against one, and 16 workers by Amdahl's law\n\nSkipped: `" + filepath.Join(root, "bin", "bench") + "` not found",
		"## Small cells: Hsu & Lin's iris grid against LIBSVM's grid search\n\nSkipped: `" + filepath.Join(root, "bin", "bench") + "` not found",
		"## All-together kernel SVMs: Crammer–Singer and Weston–Watkins on Hsu & Lin's letter, one-vs-one beside\n\nSkipped: `" + filepath.Join(root, "bin", "bench") + "` not found",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
}

// TestRunGridFakeBench runs the grid section against a fake bench binary,
// through the copy of experiments/bench/letter.hcl pointing at -data.
func TestRunGridFakeBench(t *testing.T) {
	dir := t.TempDir()
	writeSynthetic(t, dir, 30)
	root := t.TempDir()
	src, err := os.ReadFile("../../experiments/bench/letter.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "experiments", "bench"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "experiments", "bench", "letter.hcl"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	args := []string{"-only", "grid", "-data", dir, "-root", root, "-bench", fakeBench(t, dir)}
	if err := run(context.Background(), args, &out, &errOut); err != nil {
		t.Fatalf("run: %v\n%s", err, errOut.String())
	}
	got := out.String()
	for _, want := range []string{
		"(bench: `bench_letter: 1 cells (0 failed) in 2s`)",
		"| dataset | encoding | learner | params | reduction | folds | accuracy | fit_seconds |\n| --- | --- | --- | --- | --- | ---: | ---: | ---: |\n" +
			"| letter | std | logreg | C=1 | ova | 10 | 0.7500 ± 0.0100 | 1.50 s ± 0.25 |\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
}

// TestRunLIBLINEAR compares with liblinear-train on tiny data when it is
// installed.
func TestRunLIBLINEAR(t *testing.T) {
	ll, err := exec.LookPath("liblinear-train")
	if err != nil {
		t.Skip("liblinear-train not installed (apt-get install liblinear-tools; make test-deps does)")
	}
	dir := t.TempDir()
	writeSynthetic(t, dir, 60)
	var out, errOut bytes.Buffer
	args := []string{"-n", "1", "-only", "letter", "-data", dir, "-root", t.TempDir(), "-liblinear", ll, "-python", filepath.Join(dir, "no-python")}
	if err := run(context.Background(), args, &out, &errOut); err != nil {
		t.Fatalf("run: %v\n%s", err, errOut.String())
	}
	for _, want := range []string{"| `-s 0 -c 1 -e 0.01 -B 1` |", "| `-s 3 -c 1 -e 0.1 -B 1` |", "ours / LIBLINEAR adjusted"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

func TestParseFlagsErrors(t *testing.T) {
	for _, args := range [][]string{{"-n", "0"}, {"-tax-pairs", "0"}, {"-only", "letter,nope"}, {"extra"}, {"-bogus"}, {"-cores-rows", "-1"}, {"-together-rows", "-5"}} {
		if _, err := parseFlags(append([]string{"-root", t.TempDir()}, args...)); err == nil {
			t.Errorf("parseFlags(%q): no error", args)
		}
	}
}

func TestFindRoot(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root, err := findRoot(wd)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := filepath.Abs("../.."); root != want {
		t.Errorf("findRoot = %s, want %s", root, want)
	}
	if _, err := findRoot(t.TempDir()); err == nil {
		t.Error("findRoot outside the repository: no error")
	}
}

func TestLoadStandardized(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "d.csv")
	if err := os.WriteFile(p, []byte("a,b,class\n1,7,Y\n2,7,X\n3,7,Y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ds, err := loadStandardized(p)
	if err != nil {
		t.Fatal(err)
	}
	s := math.Sqrt(1.5) // (x − 2)/sqrt(2/3)
	want := mat.NewDense(3, 2, []float64{-s, 0, 0, 0, s, 0})
	if !mat.EqualApprox(ds.x, want, 1e-12) {
		t.Errorf("x = %v, want %v", mat.Formatted(ds.x), mat.Formatted(want))
	}
	if fmt.Sprint(ds.y, ds.classes) != "[0 1 0] [Y X]" {
		t.Errorf("y, classes = %v %v", ds.y, ds.classes)
	}
	if err := os.WriteFile(p, []byte("a,b,class\n1,u,Y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := loadStandardized(p); err == nil {
		t.Error("categorical feature accepted")
	}
}

func TestOvrLabels(t *testing.T) {
	tests := []struct {
		y    []int
		k    int
		want string
	}{
		{[]int{0, 1, 2, 1}, 3, "[[1 -1 -1 -1] [-1 1 -1 1] [-1 -1 1 -1]]"},
		{[]int{1, 0, 0}, 2, "[[-1 1 1]]"}, // LIBLINEAR trains one problem for two classes
	}
	for _, tt := range tests {
		if got := fmt.Sprint(ovrLabels(tt.y, tt.k)); got != tt.want {
			t.Errorf("ovrLabels(%v, %d) = %s, want %s", tt.y, tt.k, got, tt.want)
		}
	}
}

func TestMedian(t *testing.T) {
	tests := []struct {
		in   []time.Duration
		want time.Duration
	}{
		{nil, 0},
		{[]time.Duration{5}, 5},
		{[]time.Duration{9, 1, 5}, 5},
		{[]time.Duration{4, 1, 10, 2}, 3},
	}
	for _, tt := range tests {
		if got := median(tt.in); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
	if got := median([]int64{7, 2, 4, 9}); got != 5 {
		t.Errorf("median of int64s = %d, want 5", got)
	}
	if got := median([]float64{1.5, 0.25, 1}); got != 1 {
		t.Errorf("median of float64s = %v, want 1", got)
	}
	in := []float64{3, 1, 2}
	if median(in); in[0] != 3 {
		t.Errorf("median sorted its argument: %v", in)
	}
}

func TestFitAll(t *testing.T) {
	for _, workers := range []int{1, 2, 8} {
		seen := make([]int, 5)
		_, err := fitAll(5, workers, func(c int) error {
			seen[c]++ // each index goes to exactly one goroutine
			return nil
		})
		if err != nil || fmt.Sprint(seen) != "[1 1 1 1 1]" {
			t.Errorf("workers %d: err %v, seen %v", workers, err, seen)
		}
	}
	_, err := fitAll(3, 2, func(c int) error {
		if c == 1 {
			return os.ErrInvalid
		}
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "problem 1") {
		t.Errorf("error = %v, want problem 1's", err)
	}
}

func TestWriteFormats(t *testing.T) {
	x := mat.NewDense(2, 3, []float64{0.5, 0, -1, 0, 0, 2.25})
	y := []int{1, 0}
	var b bytes.Buffer
	if err := writeLIBSVM(&b, x, y); err != nil {
		t.Fatal(err)
	}
	if want := "2 1:0.5 3:-1\n1 3:2.25\n"; b.String() != want {
		t.Errorf("LIBSVM = %q, want %q", b.String(), want)
	}
	b.Reset()
	if err := writeNumericCSV(&b, x, y); err != nil {
		t.Fatal(err)
	}
	if want := "0.5,0,-1,1\n0,0,2.25,0\n"; b.String() != want {
		t.Errorf("CSV = %q, want %q", b.String(), want)
	}
}

// TestParseSummary: summary.csv's second column is pipeline; the files of
// a bench before the rename (encoder) are read alike.
func TestParseSummary(t *testing.T) {
	for _, column := range []string{"pipeline", "encoder"} {
		in := "dataset," + column + ",learner,params,reduction,metric,mean,std,n_folds\n" +
			"d,onehot,logreg,C=1,ova,accuracy,0.5,0.125,5\n" +
			"d,onehot,logreg,C=1,ova,fit_seconds,16.5,3.25,5\n" +
			"d,hash,logreg,C=1,ova,accuracy,0.25,,5\n"
		rows, err := parseSummary(strings.NewReader(in))
		if err != nil {
			t.Fatalf("%s: %v", column, err)
		}
		var b bytes.Buffer
		writeCells(&b, rows, []string{"accuracy", "fit_seconds"})
		want := "| dataset | encoding | learner | params | reduction | folds | accuracy | fit_seconds |\n" +
			"| --- | --- | --- | --- | --- | ---: | ---: | ---: |\n" +
			"| d | onehot | logreg | C=1 | ova | 5 | 0.5000 ± 0.1250 | 16.50 s ± 3.25 |\n" +
			"| d | hash | logreg | C=1 | ova | 5 | 0.2500 ± 0.0000 | – |\n"
		if b.String() != want {
			t.Errorf("%s: cells:\n%s\nwant:\n%s", column, b.String(), want)
		}
	}
	for _, bad := range []string{"a,b\n1,2\n", "dataset,encoder,learner,params,reduction,metric,mean,std,n_folds\nd,e,l,p,r,m,x,0,5\n"} {
		if _, err := parseSummary(strings.NewReader(bad)); err == nil {
			t.Errorf("parseSummary(%q): no error", bad)
		}
	}
}

// TestExperimentFiles parses the files in experiments/bench: their data
// must resolve to ../shared/data, and a copy for another -data must point
// there.
func TestExperimentFiles(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	o := &options{root: root, tmp: t.TempDir()}
	for _, tt := range []struct{ file, data, dataset string }{
		{"letter.hcl", "letter.csv", "letter"},
		{"diabetes130.hcl", "diabetes130.csv.gz", "diabetes130"},
	} {
		shared := filepath.Join(o.sharedDataDir(), tt.data)
		other := filepath.Join(t.TempDir(), tt.data)
		for _, data := range []string{shared, other} {
			file, err := experimentFile(o, tt.file, data)
			if err != nil {
				t.Fatal(err)
			}
			if data == shared && file != filepath.Join(root, "experiments", "bench", tt.file) {
				t.Errorf("%s: runs %s, want the file itself", tt.file, file)
			}
			exp, diags := config.NewParser(report.FormatNames()).ParseFile(file)
			if diags.HasErrors() {
				t.Fatalf("%s: %s", file, diags.Error())
			}
			if len(exp.Datasets) != 1 || exp.Datasets[0].Name != tt.dataset || exp.Datasets[0].Path != data {
				t.Errorf("%s: datasets %+v, want %s at %s", file, exp.Datasets, tt.dataset, data)
			}
		}
	}
}

// TestDiabetesDesigns encodes a six-row stand-in for diabetes130.
func TestDiabetesDesigns(t *testing.T) {
	csv := "admission_type_id,discharge_disposition_id,admission_source_id,diag_1,num,class\n" +
		"1,1,7,250,1,NO\n2,3,7,V57,2,>30\n1,1,7,,3,NO\n2,1,7,250,4,<30\n1,3,7,V57,5,NO\n1,1,7,250,7,>30\n"
	p := filepath.Join(t.TempDir(), "diabetes130.csv.gz")
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(csv))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := diabetesDesigns(p)
	if err != nil {
		t.Fatal(err)
	}
	// onehot: num + 2 + 2 + 1 + 3 (250, V57, <missing>) indicators;
	// hash: num + 1024 buckets, 4 hashed columns and num non-zero per row.
	want := []designSize{
		{name: "onehot", rows: 6, cols: 9, nnz: 54, csrBytes: 432, denseBytes: 432},
		{name: "hash (1024 buckets)", rows: 6, cols: 1025, nnz: 30, csrBytes: 30*12 + 7*8, denseBytes: 6 * 1025 * 8},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("designs = %+v\nwant %+v", got, want)
	}
}

func TestFormats(t *testing.T) {
	tests := []struct{ got, want string }{
		{fmtDur(1234 * time.Millisecond), "1.23 s"},
		{fmtDur(12340 * time.Millisecond), "12.3 s"},
		{fmtDur(56700 * time.Microsecond), "57 ms"},
		{ratio(3, 2), "1.50"},
		{ratio(3, 0), "–"},
		{fmtBytes(1453256 * 1024), "1.49 GB"},
		{fmtBytes(164e6), "164 MB"},
		{fmtBytes(0), "–"},
		{tail("a\nb\nc\n", 2), "b\nc"},
		{goroutines(1), "1 goroutine"},
		{goroutines(2), "2 goroutines"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestPairedRatios(t *testing.T) {
	s := time.Second
	got := pairedRatios([]time.Duration{2 * s, 3 * s, 9 * s}, []time.Duration{s, 2 * s})
	want := []float64{2, 1.5}
	if !slices.Equal(got, want) {
		t.Errorf("pairedRatios = %v, want %v (one ratio per pair, the unpaired run left out)", got, want)
	}
	if m := median(pairedRatios([]time.Duration{11 * s, 9 * s, 10 * s}, []time.Duration{10 * s, 10 * s, 10 * s})); m != 1 {
		t.Errorf("median of the paired ratios 1.1, 0.9, 1.0 = %v, want 1", m)
	}
}
