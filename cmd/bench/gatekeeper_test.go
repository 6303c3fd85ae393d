package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// gateExperiment is the experiment of TestValidateIsRunsGatekeeper: the
// dataset block takes the case's attributes at line 4, the case's tail
// starts at line 17.
const gateExperiment = `experiment "t" { seed = 1 }
dataset "d" {
  path = "d.csv"
  %s
}
encoder "std" { type = "standardize" }
learner "logreg" { plugin = "logreg" }
reduction "ova" {
  plugin = "reducers"
  scheme = "ova"
}
cv {
  folds      = %d
  stratified = true
}
output { baseline = "%s" }
%s
`

// gateData is a clean two-class dataset of 9 rows.
const gateData = "a,b,class\n1,2,x\n2,3,y\n3,4,x\n4,5,y\n5,6,x\n6,7,y\n7,8,x\n8,9,y\n9,1,x\n"

// TestValidateIsRunsGatekeeper checks that bench validate rejects, with
// its location, what bench run would fail on in every cell, and warns
// about folds that cannot hold every class.
func TestValidateIsRunsGatekeeper(t *testing.T) {
	for _, tc := range []struct {
		name     string
		data     string // d.csv; gateData when empty
		attrs    string // dataset attributes (line 4)
		folds    int    // 3 when 0
		baseline string // "logreg" when empty
		tail     string // from line 17 on
		want     []string
		warnOnly bool // validate passes (with the wanted warnings)
	}{
		{name: "clean", want: []string{"ok — 1 dataset(s)"}, warnOnly: true},
		{name: "two experiment blocks", tail: `experiment "u" { seed = 2 }`,
			want: []string{`exp.hcl:17:1: error: Duplicate experiment block`, `experiment "t" is already declared at ` /* dir */, `exp.hcl:1:1`}},
		{name: "empty metrics", tail: `metrics = []`,
			want: []string{`exp.hcl:17:11: error: No metrics`, "metrics is an empty list"}},
		{name: "metric twice", tail: `metrics = ["accuracy", "macro_f1", "accuracy"]`,
			want: []string{`exp.hcl:17:36: error: Duplicate metric`, `Metric "accuracy" is listed twice (first at `, `exp.hcl:17:12)`}},
		{name: "misspelt metric", tail: `metrics = ["accuracy", "f1_macro"]`,
			want: []string{`exp.hcl:17:24: error: Unknown metric`, `unknown metric "f1_macro" (did you mean "macro_f1"?)`}},
		{name: "baseline matching no row", baseline: "logreg C=1",
			want: []string{`exp.hcl:16:21: error: Unknown baseline`, `baseline "logreg C=1" matches no row`, `(rows: "logreg ova")`}},
		{name: "misspelt baseline", baseline: "logrg",
			want: []string{`exp.hcl:16:21: error: Unknown baseline`, `(did you mean "logreg"?)`}},
		{name: "default target missing", data: strings.Replace(gateData, "class", "Class", 1),
			want: []string{`exp.hcl:2:1: error: Unknown column`, `no column "class", the default target (did you mean "Class"?); set target = "COLUMN"`, "Its columns are: a, b, Class."}},
		{name: "one class, default target", data: "a,class\n1,x\n2,x\n3,x\n",
			want: []string{`exp.hcl:2:1: error: Too few classes`, `the target column "class" has 1 class(es)`}},
		{name: "one class", data: "a,y\n1,x\n2,x\n3,x\n", attrs: `target = "y"`,
			want: []string{`exp.hcl:4:12: error: Too few classes`, `the target column "y" has 1 class(es)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			data, folds, baseline := tc.data, tc.folds, tc.baseline
			if data == "" {
				data = gateData
			}
			if folds == 0 {
				folds = 3
			}
			if baseline == "" {
				baseline = "logreg"
			}
			if err := os.WriteFile(filepath.Join(dir, "d.csv"), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, "exp.hcl")
			src := strings.Replace(gateExperiment, "%s", tc.attrs, 1)
			src = strings.Replace(src, "%d", strconv.Itoa(folds), 1)
			src = strings.Replace(src, "%s", baseline, 1)
			src = strings.Replace(src, "%s", tc.tail, 1)
			if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			stdout, stderr, err := bench(t, "validate", file)
			if tc.warnOnly && err != nil {
				t.Fatalf("validate failed: %v\n%s", err, stderr)
			}
			if !tc.warnOnly && err == nil {
				t.Fatalf("validate accepted the file:\n%s%s", stdout, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stdout+stderr, w) {
					t.Errorf("missing %q", w)
				}
			}
			if t.Failed() {
				t.Logf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
			}
		})
	}
}
