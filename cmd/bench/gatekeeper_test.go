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
output { %s }
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
		output   string // the output block's body; baseline = "logreg" when empty
		tail     string // from line 17 on
		want     []string
		warnOnly bool // validate passes (with the wanted warnings)
	}{
		{name: "clean", want: []string{"ok — 1 dataset,"}, warnOnly: true},
		{name: "two experiment blocks", tail: `experiment "u" { seed = 2 }`,
			want: []string{`exp.hcl:17:1: error: Duplicate experiment block`, `experiment "t" is already declared at ` /* dir */, `exp.hcl:1:1`}},
		{name: "empty metrics", tail: `metrics = []`,
			want: []string{`exp.hcl:17:11: error: No metrics`, "metrics is an empty list"}},
		{name: "metric twice", tail: `metrics = ["accuracy", "macro_f1", "accuracy"]`,
			want: []string{`exp.hcl:17:36: error: Duplicate metric`, `Metric "accuracy" is listed twice (first at `, `exp.hcl:17:12)`}},
		{name: "misspelt metric", tail: `metrics = ["accuracy", "f1_macro"]`,
			want: []string{`exp.hcl:17:24: error: Unknown metric`, `unknown metric "f1_macro" (did you mean "macro_f1"?)`}},
		{name: "more folds than rows", folds: 20,
			want: []string{`exp.hcl:13:16: error: Cannot make folds`, `Dataset "d": `}},
		{name: "metric a prefix of others", tail: `metrics = ["auc"]`,
			want: []string{`exp.hcl:17:12: error: Unknown metric`, `unknown metric "auc" (did you mean "auc_ovr" or "auc_ovr_weighted" or "auc_ovo"?)`}},
		{name: "misspelt encoder type", tail: `encoder "e" { type = "standardise" }`,
			want: []string{`exp.hcl:17:22: error: Unknown encoder type`, `Encoder "e" has type "standardise" (did you mean "standardize"?); the types are: `}},
		{name: "misspelt parameter, at its name", tail: "learner \"l2\" {\n  plugin = \"logreg\"\n  params = { tol = 0.1, c = [1] }\n}",
			want: []string{`exp.hcl:19:25: error: Unknown parameter`, `learner l2 has no parameter "c" (did you mean "C"?); its parameters are: C, `}},
		{name: "object as a parameter value", tail: "learner \"l2\" {\n  plugin = \"logreg\"\n  params = { C = { a = 1 } }\n}",
			want: []string{`exp.hcl:19:18: error: Invalid parameter value`, `Learner "l2": C: an object is not a parameter value (use numbers, strings, bools and lists).`}},
		{name: "infinite parameter value", tail: "learner \"l2\" {\n  plugin = \"logreg\"\n  params = { C = 1e400 }\n}",
			want: []string{`exp.hcl:19:18: error: Invalid parameter value`, `learner l2: C = +Inf is not a finite number`}},
		{name: "unknown output format", output: `formats = ["csv", "htm"]`,
			want: []string{`exp.hcl:16:20: error: Unknown output format`, `"htm" is not an output format (did you mean "html"?); choose from markdown, csv, json, latex, html, plots.`}},
		{name: "baseline matching no row", output: `baseline = "logreg C=1"`,
			want: []string{`exp.hcl:16:21: error: Unknown baseline`, `baseline "logreg C=1" matches no row`, `(rows: "logreg")`}},
		{name: "misspelt baseline", output: `baseline = "logrg"`,
			want: []string{`exp.hcl:16:21: error: Unknown baseline`, `(did you mean "logreg"?)`}},
		{name: "unknown confusion row", output: `confusion = ["logreg ova", "svm ova"]`,
			// At the entry that names no row, not at the whole list.
			want: []string{`exp.hcl:16:37: error: Unknown confusion row`, `confusion row "svm ova" matches no row (rows: "logreg")`}},
		{name: "default target missing", data: strings.Replace(gateData, "class", "Class", 1),
			want: []string{`exp.hcl:2:1: error: Unknown column`, `no column "class", the default target (did you mean "Class"?); set target = "COLUMN"`, "Its columns are: a, b, Class."}},
		{name: "unknown ignored column", attrs: `ignore = ["bb"]`,
			want: []string{`exp.hcl:4:12: error: Unknown column`, `Dataset "d": ignore names "bb", not a column of `, `d.csv (did you mean "b"?); its columns are: a, b, class.`}},
		{name: "unknown numeric and categorical columns", attrs: `numeric = ["A"]` + "\n  categorical = [\"a\", \"klass\"]",
			want: []string{`exp.hcl:4:13: error: Unknown column`, `Dataset "d": numeric names "A", not a column of `, `(did you mean "a"?)`,
				`exp.hcl:5:17: error: Unknown column`, `Dataset "d": categorical names "klass", not a column of `, `(did you mean "class"?)`}},
		{name: "unknown target and categorical column", attrs: `target = "klass"` + "\n  categorical = [\"zz\"]",
			want: []string{`exp.hcl:4:12: error: Unknown column`, `Dataset "d" has no column "klass" (did you mean "class"?); its columns are: a, b, class.`,
				`exp.hcl:5:17: error: Unknown column`, `Dataset "d": categorical names "zz", not a column of `}},
		{name: "default target and a categorical column missing", data: strings.Replace(gateData, "class", "Class", 1), attrs: `categorical = ["zz"]`,
			want: []string{`exp.hcl:2:1: error: Unknown column`, `no column "class", the default target (did you mean "Class"?); set target = "COLUMN"`,
				`exp.hcl:4:17: error: Unknown column`, `Dataset "d": categorical names "zz", not a column of `}},
		{name: "missing class", data: strings.Replace(gateData, "4,5,y", "4,5,", 1),
			want: []string{`exp.hcl:3:10: error: Missing class`, `d.csv:5:5: data row 4 has no value in the target column "class".`}},
		{name: "NaN class", data: strings.Replace(gateData, "4,5,y", "4,5,NaN", 1),
			want: []string{`exp.hcl:3:10: error: Missing class`, `d.csv:5:5: data row 4 has no value in the target column "class".`}},
		{name: "one class, default target", data: "a,class\n1,x\n2,x\n3,x\n",
			want: []string{`exp.hcl:2:1: error: Too few classes`, `the target column "class" has 1 class(es) ["x"] in its 3 rows; at least 2 are needed.`}},
		{name: "one class", data: "a,y\n1,x\n2,x\n3,x\n", attrs: `target = "y"`,
			want: []string{`exp.hcl:4:12: error: Too few classes`, `the target column "y" has 1 class(es) ["x"] in its 3 rows`}},
		{name: "NaN in a column of numbers", data: strings.Replace(gateData, "2,3,y", "2,NaN,y", 1),
			want: []string{`exp.hcl:3:10: error: Missing values without impute`, `d.csv:3:3: column "b" has a missing value (data row 2; 1 missing value(s) in all), and pipeline "default" (steps std) has no impute step`, `encoder "impute" { type = "impute" }`}},
		{name: "nan", data: strings.Replace(gateData, "4,5,y", "nan,5,y", 1),
			want: []string{`exp.hcl:3:10: error: Missing values without impute`, `d.csv:5:1: column "a" has a missing value (data row 4; 1 missing value(s) in all)`}},
		{name: "empty field", data: strings.Replace(strings.Replace(gateData, "5,6,x", "5,,x", 1), "7,8,x", ",8,x", 1),
			want: []string{`exp.hcl:3:10: error: Missing values without impute`, `d.csv:6:3: column "b" has a missing value (data row 5; 2 missing value(s) in all)`}},
		{name: "missing marker", data: strings.Replace(gateData, "9,1,x", "9,?,x", 1), attrs: `missing = ["?"]`,
			want: []string{`exp.hcl:3:10: error: Missing values without impute`, `d.csv:10:3: column "b" has a missing value (data row 9;`}},
		{name: "missing values imputed", data: strings.Replace(gateData, "2,3,y", "2,NaN,y", 1),
			tail: "encoder \"imp\" { type = \"impute\" }\npipeline \"p\" { steps = [\"imp\", \"std\"] }", warnOnly: true,
			want: []string{"ok — 1 dataset, 1 pipeline"}},
		{name: "inf", data: strings.Replace(gateData, "3,4,x", "3,inf,x", 1),
			want: []string{`exp.hcl:3:10: error: Cannot load dataset`, `d.csv:4:3: column "b" (col 2): not a number: "inf" (infinite or out of range; data row 3) in a column of numbers`}},
		{name: "-inf", data: strings.Replace(gateData, "3,4,x", "-inf,4,x", 1),
			want: []string{`exp.hcl:3:10: error: Cannot load dataset`, `d.csv:4:1: column "a" (col 1): not a number: "-inf" (infinite or out of range; data row 3)`}},
		{name: "out of range", data: strings.Replace(gateData, "8,9,y", "8,1e400,y", 1),
			want: []string{`exp.hcl:3:10: error: Cannot load dataset`, `d.csv:9:3: column "b" (col 2): not a number: "1e400" (infinite or out of range; data row 8)`}},
		{name: "class not UTF-8", data: strings.Replace(gateData, "6,7,y", "6,7,\xff\xfe", 1),
			want: []string{`exp.hcl:3:10: error: Cannot load dataset`, `d.csv:7:5: column "class" (col 3): not valid UTF-8: "\xff\xfe"`}},
		{name: "text column without encoder", data: strings.Replace(gateData, "2,3,y", "2,three,y", 1),
			want: []string{`exp.hcl:3:10: warning: Column of numbers read as categorical`, `d.csv:3:3: column "b" (col 2): mostly numbers, read as categorical: "three" (data row 2) is not a number, yet 8 of the column's 9 values are`,
				`exp.hcl:3:10: error: Categorical columns without an encoder`, `column(s) "b" hold text, and pipeline "default" (steps std) does not encode them`}},
		{name: "typo among numbers, one-hot encoded", data: strings.Replace(gateData, "6,7,y", "6,7a,y", 1), warnOnly: true,
			tail: "encoder \"oh\" { type = \"onehot\" }\npipeline \"p\" { steps = [\"oh\"] }",
			want: []string{`exp.hcl:3:10: warning: Column of numbers read as categorical`, `d.csv:7:3: column "b" (col 2): mostly numbers, read as categorical: "7a" (data row 6) is not a number, yet 8 of the column's 9 values are: list the column in numeric`, "ok — 1 dataset,"}},
		{name: "over-long line", data: "a,b,class\n1,2,x\n" + strings.Repeat("1234567,", 1<<20+1) + "\n",
			want: []string{`exp.hcl:3:10: error: Cannot load dataset`, `d.csv:3: syntax error: line longer than 8388608 bytes`}},
		{name: "class smaller than folds", data: strings.Replace(gateData, "9,1,x", "9,1,z", 1), warnOnly: true,
			want: []string{`exp.hcl:13:16: warning: Class smaller than the number of folds`, `the least populated class "z" has only 1 row(s), fewer than folds = 3`, "ok — 1 dataset,"}},
		{name: "folds smaller than the classes", data: strings.NewReplacer("2,3,y", "2,3,z", "5,6,x", "5,6,z", "8,9,y", "8,9,z").Replace(gateData), folds: 5, warnOnly: true,
			want: []string{`exp.hcl:13:16: warning: Fold smaller than the number of classes`, `Dataset "d": fold 4 of repeat 0 has 1 test row(s) for 3 classes`,
				`warning: Class smaller than the number of folds`, `class "y" has only 2 row(s), fewer than folds = 5`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // its own directory and plugin processes
			dir := t.TempDir()
			data, folds, output := tc.data, tc.folds, tc.output
			if data == "" {
				data = gateData
			}
			if folds == 0 {
				folds = 3
			}
			if output == "" {
				output = `baseline = "logreg"`
			}
			if err := os.WriteFile(filepath.Join(dir, "d.csv"), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, "exp.hcl")
			src := strings.Replace(gateExperiment, "%s", tc.attrs, 1)
			src = strings.Replace(src, "%d", strconv.Itoa(folds), 1)
			src = strings.Replace(src, "%s", output, 1)
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

// TestUnknownColumnInMultiLabelARFF: a MEKA ARFF names its labels in its
// relation and has no "class" column. A numeric name it lacks keeps
// it from being read as multi-label, and is the one error: no "class"
// target is reported missing.
func TestUnknownColumnInMultiLabelARFF(t *testing.T) {
	dir := t.TempDir()
	arff := "@relation 'r: -C 2'\n@attribute l1 {0,1}\n@attribute l2 {0,1}\n@attribute a numeric\n@attribute b numeric\n@data\n" +
		"1,0,1,2\n0,1,2,3\n1,1,3,4\n0,0,4,5\n1,0,5,6\n0,1,6,7\n"
	src := "experiment \"t\" { seed = 1 }\ndataset \"d\" {\n  path        = \"d.arff\"\n  numeric     = [\"bb\"]\n}\nlearner \"logreg\" {}\nreduction \"br\" { scheme = \"br\" }\ncv { folds = 2 }\nmetrics = [\"hamming_loss\"]\n"
	for name, content := range map[string]string{"d.arff": arff, "exp.hcl": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, stderr, err := bench(t, "validate", filepath.Join(dir, "exp.hcl"))
	if err == nil {
		t.Fatalf("validate accepted an unknown categorical column:\n%s", stderr)
	}
	want := `exp.hcl:4:17: error: Unknown column`
	if !strings.Contains(stderr, want) || !strings.Contains(stderr, `numeric names "bb", not a column of `) ||
		!strings.Contains(stderr, `(did you mean "b"?); its columns are: l1, l2, a, b.`) || strings.Count(stderr, "error:") != 1 {
		t.Errorf("want one error, %q, at the list:\n%s", want, stderr)
	}
	// Without the bad name the file reads as multi-label.
	if err := os.WriteFile(filepath.Join(dir, "exp.hcl"), []byte(strings.Replace(src, `numeric     = ["bb"]`, `numeric     = ["b"]`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, err := bench(t, "validate", filepath.Join(dir, "exp.hcl")); err != nil {
		t.Errorf("validate: %v\n%s", err, stderr)
	}
}
