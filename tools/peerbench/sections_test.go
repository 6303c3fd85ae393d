package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeBenchAny writes a shell script that behaves like
// `[taskset -c CPUS] bench run --quiet -j N [--profile DIR] -o OUT FILE`
// for any experiment: it writes OUT/summary.csv (one cell: accuracy,
// fit_seconds, predict_seconds), with --profile DIR/timeline.json
// (timelineSample), and prints the summary line.
func fakeBenchAny(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "bench")
	script := `#!/bin/sh
out= prof=
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out=$2; shift;;
    --profile) prof=$2; shift;;
  esac
  shift
done
mkdir -p "$out"
cat > "$out/summary.csv" <<'CSV'
dataset,pipeline,learner,params,reduction,metric,mean,std,n_folds
d,scale,svm,C=4,ovo,accuracy,0.96,0.01,10
d,scale,svm,C=4,ovo,fit_seconds,1.5,0.25,10
d,scale,svm,C=4,ovo,predict_seconds,0.5,0.25,10
CSV
if [ -n "$prof" ]; then
  mkdir -p "$prof"
  cat > "$prof/timeline.json" <<'JSON'
` + timelineSample + `JSON
fi
echo "fake: 1 cells (0 failed) in 1s"
`
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRunNewSectionsFakeBench runs the cores, irisgrid and together
// sections end to end with a fake bench and a fake svm-train (taskset
// is util-linux's, pinning the fake): each writes its table and its goal
// lines; the 200-class run is left out without a python that has
// scikit-learn.
func TestRunNewSectionsFakeBench(t *testing.T) {
	dir := t.TempDir()
	writeSynthetic(t, dir, 30)
	if err := os.WriteFile(filepath.Join(dir, "iris.csv"), []byte("a,class\n1,x\n2,y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "letter_test.csv"), []byte("a,class\n1,x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte("a,class\n1,x\n2,y\n3,x\n"))
	zw.Close()
	if err := os.WriteFile(filepath.Join(dir, "letter_train.csv.gz"), z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	fakeSVMTrain(t, bin)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	var out, errOut bytes.Buffer
	args := []string{"-only", "cores,irisgrid,together", "-long", "1", "-cores-rows", "20", "-together-rows", "2",
		"-data", dir, "-root", t.TempDir(), "-bench", fakeBenchAny(t, dir), "-python", filepath.Join(dir, "no-python")}
	if err := run(context.Background(), args, &out, &errOut); err != nil {
		t.Fatalf("run: %v\n%s", err, errOut.String())
	}
	got := out.String()
	for _, want := range []string{
		"`-n 5 -long 1 -scaling-runs 3 -cores-rows 20 -together-rows 2`",
		"## Every core busy: both cores against one, and 16 workers by Amdahl's law",
		"| letter grid: letter, standardize + logreg C ∈ {0.01, 0.1, 1, 10, 100} × {ova, ovo}, 10 stratified folds × 3 repeats | 1 |",
		"| 0.0476 | 9.33× |\n",
		"Left out: the 200-class run: `" + filepath.Join(dir, "no-python") + "` with scikit-learn, which makes its data, is not available.",
		"| 14 | letter grid: speed-up at 16 workers, an estimate from Amdahl's law with the serial fraction 0.0476 of `bench run -j 2 --profile`, not a measurement (-cores-rows 20: not the target's measurement) | 9.33 | – | – | ≥ 10.00 | no |\n",
		"## Small cells: Hsu & Lin's iris grid against LIBSVM's grid search",
		"ours 0.9600 at C=4 (mean over bench's folds); LIBSVM 0.9500 at C = 2^2, γ = 2^1",
		"| 15 | iris, 225 (C, γ) one-vs-one (the same work, other folds)",
		"| Crammer–Singer | ",
		"| 16 | letter, RBF (C, γ) = (16, 4): Weston–Watkins, `bench run -j 2` train + predict wall (accuracy 0.9600; ",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "\n| 13 | letter grid: one core (`taskset -c 0 bench run -j 1`) vs both"); n != 1 {
		t.Errorf("%d lines of target 13, want 1:\n%s", n, got)
	}
	for _, cmd := range []string{"taskset -c 0 " + filepath.Join(dir, "bench") + " run --quiet -j 1 -o ", "taskset -c 0,1 " + filepath.Join(dir, "bench") + " run --quiet -j 2 --profile "} {
		if !strings.Contains(errOut.String(), cmd) {
			t.Errorf("no run %q in the progress:\n%s", cmd, errOut.String())
		}
	}
}
