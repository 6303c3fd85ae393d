package dataset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/data"
)

// loadTarget writes text to file in a temporary directory, reads it as
// the dataset c (its path set there) would be, and returns the checker
// and the dataset, the table bound; $DIR in the diagnostics is the
// directory.
func loadTarget(t *testing.T, file, text string, c config.Dataset) (*checker, *Dataset, string) {
	t.Helper()
	dir := t.TempDir()
	c.Name, c.Path = "d", filepath.Join(dir, file)
	if err := os.WriteFile(c.Path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	tab, err := data.Read(c.Path, loadOptions(&c))
	if err != nil {
		t.Fatal(err)
	}
	return &checker{}, &Dataset{Config: &c, Table: tab}, dir
}

// bound reads the files and target of ds as the binder does
// (data.LoadTarget), failing t when they cannot be read.
func bound(t *testing.T, ds *Dataset) *data.Bound {
	t.Helper()
	c := ds.Config
	f, err := data.LoadTarget(c.Path, c.TestPath, loadOptions(c), targetOf(c))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// bindClass binds the class column of ds (classTarget), read as the
// binder reads it.
func bindClass(t *testing.T, r *checker, ds *Dataset) bool {
	t.Helper()
	return r.classTarget(ds, bound(t, ds))
}

// bindLabels binds the label columns of ds (labelTargets), read as the
// binder reads them.
func bindLabels(t *testing.T, r *checker, ds *Dataset) bool {
	t.Helper()
	return r.labelTargets(ds, bound(t, ds))
}

// diagLines formats diagnostics as "severity: summary: detail" lines,
// dir replaced by $DIR.
func diagLines(diags hcl.Diagnostics, dir string) string {
	var out []string
	for _, d := range diags {
		sev := "error"
		if d.Severity == hcl.DiagWarning {
			sev = "warning"
		}
		out = append(out, sev+": "+d.Summary+": "+strings.ReplaceAll(d.Detail, dir, "$DIR"))
	}
	return strings.Join(out, "\n")
}

// TestClassTargetNumbers checks that a target whose values are all
// numbers compares them as numbers in every format (1 and 1.0, 01 and 1,
// +1 and 1 are one class, named by its shortest form, with a warning
// that lists the spellings and where each first occurs), keeps spellings
// apart when the column holds text (with a warning), leaves other
// targets as they were, and refuses a class label with a newline at its
// row. On the code before, 1/1.0/2/2.0 made 4 classes, without a word.
func TestClassTargetNumbers(t *testing.T) {
	arff := "@relation r\n@attribute a numeric\n@attribute class numeric\n@data\n1,1\n2,1.0\n3,2\n4,2\n"
	mb := strings.Repeat("x", 1<<20)
	for _, tc := range []struct {
		name, file, text, target string
		classes                  []string
		labels                   []int
		diags                    string
	}{
		{name: "csv 1 1.0 2 2.0", file: "d.csv", target: "class",
			text:    "a,class\n1,1\n2,1.0\n3,2\n4,2.0\n5,1\n",
			classes: []string{"1", "2"}, labels: []int{0, 0, 1, 1, 0},
			diags: `warning: Classes compared as numbers: Dataset "d": every value of the target column "class" is a number, and some numbers are spelled in several ways, so classes are compared as numbers (as pandas reads them) and named by each number's shortest form: "1" from "1" ($DIR/d.csv:2:3: data row 1), "1.0" ($DIR/d.csv:3:3: data row 2); "2" from "2" ($DIR/d.csv:4:3: data row 3), "2.0" ($DIR/d.csv:5:3: data row 4).`},
		{name: "csv 01 and 1", file: "d.csv", target: "class",
			text:    "a,class\n1,01\n2,1\n3,2\n",
			classes: []string{"1", "2"}, labels: []int{0, 0, 1},
			diags: `warning: Classes compared as numbers: Dataset "d": every value of the target column "class" is a number, and some numbers are spelled in several ways, so classes are compared as numbers (as pandas reads them) and named by each number's shortest form: "1" from "01" ($DIR/d.csv:2:3: data row 1), "1" ($DIR/d.csv:3:3: data row 2).`},
		{name: "csv true True TRUE false", file: "d.csv", target: "class",
			text:    "a,class\n1,true\n2,True\n3,false\n4,TRUE\n5,false\n",
			classes: []string{"false", "true"}, labels: []int{1, 1, 0, 1, 0},
			diags: `warning: Classes compared as booleans: Dataset "d": every value of the target column "class" is true or false, spelled in several ways, so classes are compared as booleans (as pandas reads them) and named true and false: "true" from "true" ($DIR/d.csv:2:3: data row 1), "True" ($DIR/d.csv:3:3: data row 2), "TRUE" ($DIR/d.csv:5:3: data row 4).`},
		{name: "arff numeric class 1 1.0", file: "d.arff", target: "class", text: arff,
			classes: []string{"1", "2"}, labels: []int{0, 0, 1, 1},
			diags: `warning: Classes compared as numbers: Dataset "d": every value of the target column "class" is a number, and some numbers are spelled in several ways, so classes are compared as numbers (as pandas reads them) and named by each number's shortest form: "1" from "1" ($DIR/d.arff: data row 1), "1.0" ($DIR/d.arff: data row 2).`},
		{name: "arff class declared with no rows", file: "d.arff", target: "class",
			text:    "@relation r\n@attribute a numeric\n@attribute class {ghost,b,a,spook}\n@data\n1,a\n2,b\n3,a\n4,b\n",
			classes: []string{"a", "b"}, labels: []int{0, 1, 0, 1},
			diags: `warning: Declared class with no rows: Dataset "d": the target column "class" declares 2 class(es) no row holds ("ghost", "spook"): left out of the classes, as scikit-learn's LabelEncoder, fitted on the rows, leaves them.`},
		{name: "libsvm +1 and 1", file: "d.libsvm", target: "label",
			text:    "+1 1:0.5\n1 1:0.7\n-1 1:0.1\n+1 1:0.2\n",
			classes: []string{"-1", "1"}, labels: []int{1, 1, 0, 1},
			diags: `warning: Classes compared as numbers: Dataset "d": every value of the target column "label" is a number, and some numbers are spelled in several ways, so classes are compared as numbers (as pandas reads them) and named by each number's shortest form: "1" from "+1" ($DIR/d.libsvm: data row 1), "1" ($DIR/d.libsvm: data row 2).`},
		{name: "libsvm +1 and -1 unchanged", file: "d.libsvm", target: "label",
			text:    "+1 1:0.5\n-1 1:0.1\n",
			classes: []string{"+1", "-1"}, labels: []int{0, 1}},
		{name: "csv text keeps 1 and 1.0 apart", file: "d.csv", target: "class",
			text:    "a,class\n1,1\n2,1.0\n3,x\n",
			classes: []string{"1", "1.0", "x"}, labels: []int{0, 1, 2},
			diags: `warning: Classes spelled as one number: Dataset "d": the target column "class" spells one number in several ways, and these stay distinct classes because the column holds text too ("x", $DIR/d.csv:4:3: data row 3): "1" from "1" ($DIR/d.csv:2:3: data row 1), "1.0" ($DIR/d.csv:3:3: data row 2). Write each class one way if they are one class.`},
		// campaign 20 N01: numbers beyond float64's range count as text,
		// and two spellings of one stay apart, with a word.
		{name: "csv 1e-400 and 1.0e-400 apart", file: "d.csv", target: "class",
			text:    "a,class\n1,1\n2,1e-400\n3,2\n4,1.0e-400\n",
			classes: []string{"1", "1.0e-400", "1e-400", "2"}, labels: []int{0, 2, 3, 1},
			diags: `warning: Classes spelled as one number: Dataset "d": the target column "class" spells one number in several ways, and these stay distinct classes because the column holds a number beyond float64's range, which counts as text ("1e-400", $DIR/d.csv:3:3: data row 2): "1e-400" from "1e-400" ($DIR/d.csv:3:3: data row 2), "1.0e-400" ($DIR/d.csv:5:3: data row 4). Write each class one way if they are one class.`},
		{name: "libsvm 1e-400 and 1.0e-400 apart", file: "d.libsvm", target: "label",
			text:    "1e-400 1:0.5\n1.0e-400 1:0.7\n2 1:0.1\n",
			classes: []string{"1.0e-400", "1e-400", "2"}, labels: []int{1, 0, 2},
			diags: `warning: Classes spelled as one number: Dataset "d": the target column "label" spells one number in several ways, and these stay distinct classes because the column holds a number beyond float64's range, which counts as text ("1e-400", $DIR/d.libsvm: data row 1): "1e-400" from "1e-400" ($DIR/d.libsvm: data row 1), "1.0e-400" ($DIR/d.libsvm: data row 2). Write each class one way if they are one class.`},
		{name: "csv newline in a label", file: "d.csv", target: "class",
			text:  "a,class\n1,setosa\n2,\"set\nosa\"\n3,setosa\n",
			diags: `error: Invalid class label: Dataset "d": $DIR/d.csv:3:3: data row 2, target column "class": class label holds a control character U+000A: "set\nosa"; tables, plots and file names cannot show it: rename the class.`},
		{name: "csv zero-width space in a label", file: "d.csv", target: "class",
			text:  "a,class\n1,setosa\n2,set\u200bosa\n3,setosa\n",
			diags: `error: Invalid class label: Dataset "d": $DIR/d.csv:3:3: data row 2, target column "class": class label holds a bidi control or other invisible (default-ignorable) character U+200B: "set\u200bosa"; it does not show, or changes how the text around it shows, so tables would show another label than the file holds: rename the class.`},
		{name: "arff right-to-left override declared", file: "d.arff", target: "class",
			text:  "@relation r\n@attribute a numeric\n@attribute class {a,\u202eb}\n@data\n1,a\n",
			diags: `error: Invalid class label: Dataset "d": a declared value of target column "class": class label holds a bidi control or other invisible (default-ignorable) character U+202E: "\u202eb"; it does not show, or changes how the text around it shows, so tables would show another label than the file holds: rename the class.`},
		{name: "csv NFC and blanks collide", file: "d.csv", target: "class",
			text:  "a,class\n1,caf\u00e9\n2,cafe\u0301\n3,tea\n4,tea \n",
			diags: `error: Class labels spelled as one: Dataset "d": the target column "class" holds class labels that read as one but differ as text (in Unicode normalisation, NFC, or in blanks around them or inside): "caf\u00e9" ($DIR/d.csv:2:3: data row 1), "cafe\u0301" ($DIR/d.csv:3:3: data row 2); "tea" ($DIR/d.csv:4:3: data row 3), "tea " ($DIR/d.csv:5:3: data row 4). Write each class one way.`},
		{name: "libsvm NFC collision", file: "d.libsvm", target: "label",
			text:  "caf\u00e9 1:0.5\ncafe\u0301 1:0.7\n",
			diags: `error: Class labels spelled as one: Dataset "d": the target column "label" holds class labels that read as one but differ as text (in Unicode normalisation, NFC, or in blanks around them or inside): "caf\u00e9" ($DIR/d.libsvm: data row 1), "cafe\u0301" ($DIR/d.libsvm: data row 2). Write each class one way.`},
		{name: "a megabyte class with a newline, quoted cut short", file: "d.csv", target: "class",
			text:  "a,class\n1,b\n2,\"" + mb + "\n\"\n",
			diags: `error: Invalid class label: Dataset "d": $DIR/d.csv:3:3: data row 2, target column "class": class label holds a control character U+000A: "` + strings.Repeat("x", 60) + `"…; tables, plots and file names cannot show it: rename the class.`},
		{name: "csv names unchanged", file: "d.csv", target: "class",
			text:    "a,class\n1,b\n2,a\n3,b\n",
			classes: []string{"a", "b"}, labels: []int{1, 0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, ds, dir := loadTarget(t, tc.file, tc.text, config.Dataset{Target: tc.target})
			ok := bindClass(t, r, ds)
			if got := diagLines(r.diags, dir); got != tc.diags {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tc.diags)
			}
			if ok != (tc.classes != nil) {
				t.Fatalf("classTarget = %v", ok)
			}
			if ok && (!slices.Equal(ds.Classes, tc.classes) || !slices.Equal(ds.Labels, tc.labels)) {
				t.Errorf("classes %q labels %v, want %q %v", ds.Classes, ds.Labels, tc.classes, tc.labels)
			}
		})
	}
}

// TestLabelTargetValues checks the values a multi-label label column
// takes: 0/1 and true/false (any case) are read, any other value (yes,
// 2, an empty field) is an error naming the row, the column and the
// value, and a label column that is all 0 or all 1 is a warning. On the
// code before, yes/no loaded as all 0, and a constant column passed
// without a word.
func TestLabelTargetValues(t *testing.T) {
	mb := strings.Repeat("x", 1<<20)
	for _, tc := range []struct {
		name, text string
		matrix     []float64 // row by row; nil: refused
		diags      string
	}{
		{name: "0 and 1", text: "a,l1,l2\n1,0,1\n2,1,0\n",
			matrix: []float64{0, 1, 1, 0}},
		{name: "true and false", text: "a,l1,l2\n1,true,FALSE\n2,False,1\n",
			matrix: []float64{1, 0, 0, 1}},
		{name: "yes and no", text: "a,l1,l2\n1,0,1\n2,yes,no\n",
			diags: `error: Invalid label value: Dataset "d": $DIR/d.csv:3:3: data row 2: label column "l1" holds "yes"; a label column must hold 0 or 1 (or true or false).`},
		{name: "a 2 in numbers", text: "a,l1,l2\n1,0,1\n2,1,2\n",
			diags: `error: Invalid label value: Dataset "d": $DIR/d.csv:3:5: data row 2: label column "l2" holds 2; a label column must hold 0 or 1 (or true or false).`},
		{name: "an empty field", text: "a,l1,l2\n1,0,1\n2,,1\n",
			diags: `error: Invalid label value: Dataset "d": $DIR/d.csv:3:3: data row 2: label column "l1" holds no value; a label column must hold 0 or 1 (or true or false).`},
		{name: "a megabyte value with a newline, quoted as a bounded excerpt", text: "a,l1,l2\n1,0,1\n2,\"" + mb + "\n\",1\n",
			diags: `error: Invalid label value: Dataset "d": $DIR/d.csv:3:3: data row 2: label column "l1" holds "` + strings.Repeat("x", 60) + `"…, then a newline (U+000A) at character 1048577; a label column must hold 0 or 1 (or true or false).`},
		{name: "all 0 and all 1", text: "a,l1,l2\n1,0,1\n2,0,1\n3,0,1\n",
			matrix: []float64{0, 1, 0, 1, 0, 1},
			diags: `warning: Constant label column: Dataset "d": label column "l1" is 0 on each of its 3 rows, so it carries no information: no fold can train a classifier on it, and its scores say nothing. Drop it from labels.
warning: Constant label column: Dataset "d": label column "l2" is 1 on each of its 3 rows, so it carries no information: no fold can train a classifier on it, and its scores say nothing. Drop it from labels.`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, ds, dir := loadTarget(t, "d.csv", tc.text, config.Dataset{Labels: []string{"l1", "l2"}})
			ok := bindLabels(t, r, ds)
			if got := diagLines(r.diags, dir); got != tc.diags {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tc.diags)
			}
			if ok != (tc.matrix != nil) {
				t.Fatalf("labelTargets = %v", ok)
			}
			if ok && !slices.Equal(ds.LabelMatrix.RawMatrix().Data, tc.matrix) {
				t.Errorf("labels %v, want %v", ds.LabelMatrix.RawMatrix().Data, tc.matrix)
			}
		})
	}
}

// TestClassTargetTestFile checks that a training file spelling a class 1
// and its test file spelling it 1.0 make one class: the rule applies to
// the two files' rows together (on the code before, the test file's 1.0
// was a class the training file lacks). Its messages name each row by its
// own file and its row there (on the code before, the test file's first
// row was "data row 4", of a 3-row training file, with no file named).
func TestClassTargetTestFile(t *testing.T) {
	for _, tc := range []struct {
		name, test string
		ok         bool
		labels     []int
		want       string
	}{
		{"spellings", "a,class\n4,1.0\n5,2\n", true, []int{0, 1, 0, 0, 1},
			`warning: Classes compared as numbers: Dataset "d": every value of the target column "class" is a number, and some numbers are spelled in several ways, so classes are compared as numbers (as pandas reads them) and named by each number's shortest form: "1" from "1" ($DIR/train.csv:2:3: data row 1), "1.0" ($DIR/test.csv:2:3: test row 1).`},
		{"missing class in the test file", "a,class\n4,1\n5,\n", false, nil,
			`error: Missing class: Dataset "d": $DIR/test.csv:3:3: test row 2 has no value in the target column "class".`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, ds, dir := loadTarget(t, "train.csv", "a,class\n1,1\n2,2\n3,1\n", config.Dataset{Target: "class"})
			ds.Config.TestPath = filepath.Join(dir, "test.csv")
			if err := os.WriteFile(ds.Config.TestPath, []byte(tc.test), 0o644); err != nil {
				t.Fatal(err)
			}
			f, _ := r.readFiles(ds.Config)
			if f == nil || f.Test == nil {
				t.Fatal(diagLines(r.diags, dir))
			}
			ds.Table = f.Test.Both
			if ok := r.classTarget(ds, f) && r.testClassesTrained(ds, 3); ok != tc.ok {
				t.Fatalf("checks passed: %v, want %v\n%s", ok, tc.ok, diagLines(r.diags, dir))
			}
			if tc.ok && (!slices.Equal(ds.Classes, []string{"1", "2"}) || !slices.Equal(ds.Labels, tc.labels)) {
				t.Errorf("classes %q labels %v", ds.Classes, ds.Labels)
			}
			if got := diagLines(r.diags, dir); got != tc.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestLabelTargetNames checks that a label column whose name holds a
// newline (a quoted CSV header), a zero-width character or a bidi control
// is refused: the name is the class name in every table, and a newline
// split the per-class Markdown row in two; a hidden character made it
// show as another name (on the code before, "l\u200b2" was accepted).
// The reader refuses a column name with a hidden character at the header
// (data.ErrHiddenName), before the label check sees it.
func TestLabelTargetNames(t *testing.T) {
	for _, tc := range []struct {
		name, header, want string
		read               bool // refused by the reader, at the header (data.ErrHiddenName)
	}{
		{"newline", "a,l1,\"l\n2\"", `error: Invalid label name: Dataset "d": label column "l\n2" holds a control character; tables, plots and file names cannot show it: rename the column.`, false},
		{"zero-width space", "a,l1,l\u200b2", `d.csv:1:6: col 3: column name holds a bidi control or other invisible (default-ignorable) character (U+200B) in "l\u200b2": rename the column`, true},
		{"right-to-left override", "a,l1,l\u202e2", `d.csv:1:6: col 3: column name holds a bidi control or other invisible (default-ignorable) character (U+202E) in "l\u202e2": rename the column`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.read {
				path := filepath.Join(t.TempDir(), "d.csv")
				if err := os.WriteFile(path, []byte(tc.header+"\n1,0,1\n2,1,0\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				c := config.Dataset{LabelsPrefix: "l"}
				_, err := data.Read(path, loadOptions(&c))
				if got := strings.TrimPrefix(fmt.Sprint(err), filepath.Dir(path)+"/"); !errors.Is(err, data.ErrHiddenName) || got != tc.want {
					t.Errorf("read error:\n%v\nwant:\n%s", err, tc.want)
				}
				return
			}
			r, ds, dir := loadTarget(t, "d.csv", tc.header+"\n1,0,1\n2,1,0\n", config.Dataset{LabelsPrefix: "l"})
			if bindLabels(t, r, ds) {
				t.Fatalf("labelTargets accepted the label name of %q", tc.header)
			}
			if got := diagLines(r.diags, dir); got != tc.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}
