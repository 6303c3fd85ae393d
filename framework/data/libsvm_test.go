package data

import (
	"errors"
	"strings"
	"testing"
)

func TestReadLIBSVMTestdata(t *testing.T) {
	tb, err := Read("testdata/mini.libsvm", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tb.NumRows != 4 || !sameStrings(names(tb), []string{"label"}) {
		t.Fatalf("got %d rows, columns %q", tb.NumRows, names(tb))
	}
	vals, levels := cat(t, tb, "label")
	if !sameStrings(levels, []string{"+1", "-1"}) || !sameStrings(vals, []string{"+1", "-1", "+1", "-1"}) {
		t.Errorf("label levels %q values %q", levels, vals)
	}
	m := tb.Sparse
	if r, c := m.Dims(); r != 4 || c != 7 || m.NNZ() != 8 {
		t.Fatalf("sparse %d×%d with %d entries, want 4×7 with 8", r, c, m.NNZ())
	}
	want := [][]float64{
		{0.5, 0, -1.25, 0, 0, 0, 2},
		{0, 1e-3, 4, 0, 0, 0, 0},
		{1, 0, 0, 0, 0, 0, 0},
		{0, 0, 0, 0.75, 0, 0, -0.5},
	}
	for i, row := range want {
		for j, v := range row {
			if got := m.At(i, j); got != v {
				t.Errorf("At(%d,%d) = %v, want %v", i, j, got, v)
			}
		}
	}
	if !sameStrings(tb.SparseNames, []string{"f1", "f2", "f3", "f4", "f5", "f6", "f7"}) {
		t.Errorf("sparse names %q", tb.SparseNames)
	}
	if err := checkTable(tb); err != nil {
		t.Error(err)
	}
}

func TestReadLIBSVMMultiLabel(t *testing.T) {
	tb, err := ReadLIBSVM("testdata/mini_multilabel.libsvm", Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Labels ordered numerically: 0, 1, 2, 10.
	if want := []string{"label_0", "label_1", "label_2", "label_10"}; !sameStrings(names(tb), want) {
		t.Fatalf("names %q, want %q", names(tb), want)
	}
	for name, want := range map[string][]float64{
		"label_0":  {1, 0, 0, 1},
		"label_1":  {0, 1, 0, 0},
		"label_2":  {1, 0, 0, 1},
		"label_10": {0, 0, 0, 1},
	} {
		if got := num(t, tb, name); !sameFloats(got, want) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if r, c := tb.Sparse.Dims(); r != 4 || c != 3 || tb.Sparse.At(2, 2) != 1 || tb.Sparse.At(3, 2) != -1 {
		t.Errorf("sparse block %d×%d, At(2,2)=%v At(3,2)=%v", r, c, tb.Sparse.At(2, 2), tb.Sparse.At(3, 2))
	}
	// Overrides address the label columns.
	tb, err = ReadLIBSVM("testdata/mini_multilabel.libsvm", Options{Ignore: []string{"label_10"}, Categorical: []string{"label_1"}})
	if err != nil {
		t.Fatal(err)
	}
	if vals, levels := cat(t, tb, "label_1"); !sameStrings(levels, []string{"0", "1"}) || !sameStrings(vals, []string{"0", "1", "0", "0"}) {
		t.Errorf("label_1 levels %q values %q", levels, vals)
	}
	if _, ok := tb.Lookup("label_10"); ok {
		t.Error("label_10 not ignored")
	}
}

func TestParseLIBSVMOptions(t *testing.T) {
	in := "3 1:1\n1 2:1\n? 1:2\n"
	tb, err := ParseLIBSVM(strings.NewReader(in), "o.svm", Options{Numeric: []string{"label"}, Missing: []string{"?"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := num(t, tb, "label"); got[0] != 3 || got[1] != 1 || got[2] == got[2] {
		t.Errorf("label = %v, want [3 1 NaN]", got)
	}
	tb, err = ParseLIBSVM(strings.NewReader(in), "o.svm", Options{Ignore: []string{"label"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(tb.Columns) != 0 || tb.NumRows != 3 {
		t.Errorf("columns %q, %d rows", names(tb), tb.NumRows)
	}
}

func TestParseLIBSVMErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		opt  Options
		want string
		is   error
	}{
		{"empty", "# nothing\n\n", Options{}, "e.svm: no data: no data lines", ErrEmpty},
		{"zero index", "1 1:2\n1 0:1\n", Options{}, `e.svm:2: syntax error: token 2 "0:1": feature index must be an integer in [1, 4194304]`, ErrSyntax},
		{"index too large", "1 11:1\n", Options{MaxFeatures: 10}, `e.svm:1: syntax error: token 2 "11:1": feature index must be an integer in [1, 10]`, ErrSyntax},
		{"bad index", "1 a:1\n", Options{}, `e.svm:1: syntax error: token 2 "a:1": feature index must be an integer in [1, 4194304]`, ErrSyntax},
		{"not increasing", "1 1:1 3:1\n2 3:1 2:1\n", Options{}, `e.svm:2: column "f2": syntax error: token 3: feature index 2 not greater than previous 3`, ErrSyntax},
		{"repeated index", "1 3:1 3:2\n", Options{}, `e.svm:1: column "f3": syntax error: token 3: feature index 3 not greater than previous 3`, ErrSyntax},
		{"bad value", "1 1:1\n1 2:x\n", Options{}, `e.svm:2: column "f2": not a number: token 2: value "x"`, ErrNotNumeric},
		{"nan value", "1 2:nan\n", Options{}, `e.svm:1: column "f2": not a number: token 2: value "nan"`, ErrNotNumeric},
		{"missing colon", "1 1:1 5\n", Options{}, `e.svm:1: syntax error: token 3 "5" is not index:value`, ErrSyntax},
		{"empty label", "1,,2 1:1\n", Options{}, `e.svm:1: column "label": syntax error: empty label in "1,,2"`, ErrSyntax},
		{"duplicate label", "1,2 1:1\n2,2 1:1\n", Options{}, `e.svm:2: column "label_2": syntax error: label "2" listed twice`, ErrSyntax},
		{"qid", "1 qid:3 1:1\n", Options{}, `e.svm:1: unsupported: qid (ranking) is not supported`, ErrUnsupported},
		{"numeric label override", "1 1:1\nA 1:2\n", Options{Numeric: []string{"label"}}, `e.svm:2: column "label" (col 1): not a number: "A"`, ErrNotNumeric},
		{"unknown override", "1 1:1\n", Options{Categorical: []string{"f1"}}, `e.svm: unknown column: options name "f1", not in the file`, ErrUnknownColumn},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb, err := ParseLIBSVM(strings.NewReader(tc.in), "e.svm", tc.opt)
			if err == nil {
				t.Fatalf("no error; table has %d rows", tb.NumRows)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got %s\nwant %s", err, tc.want)
			}
			if !errors.Is(err, tc.is) {
				t.Errorf("error %v does not wrap %v", err, tc.is)
			}
		})
	}
}

// TestMultiLabelWholeNumbers: the labels of a multi-label LIBSVM file
// follow the rule of class labels (Column.CanonicalClasses): whole
// numbers written in digits are compared exactly and keep their digits
// (campaign 11's B24 in a multi-label file: 9007199254740993 and
// 9007199254740992 became one label through float64, and 1000000 was
// named 1e+06 where a single-label file names it 1000000).
func TestMultiLabelWholeNumbers(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		columns  []string
		warning  string
	}{
		{"beyond 2^53 stay apart", "9007199254740993,1 1:1\n9007199254740992 1:2\n",
			[]string{"label_1", "label_9007199254740992", "label_9007199254740993"}, ""},
		{"ordered by value at any size", "10000000000000001,1 1:1\n9999999999999999,-20000000000000001 1:2\n-3 1:3\n",
			[]string{"label_-20000000000000001", "label_-3", "label_1", "label_9999999999999999", "label_10000000000000001"}, ""},
		{"digits kept", "1000000,1 1:1\n+1000000 1:2\n",
			[]string{"label_1", "label_1000000"},
			`e.svm:2: column "label": labels spelled as one number: every label is a number and some are spelled in several ways, so labels are compared as numbers and named by each number's shortest form: "+1000000" as "1000000"`},
		{"a decimal among them compares as float64", "1000000,1.5 1:1\n+1000000 1:2\n",
			[]string{"label_1.5", "label_1e+06"},
			`e.svm:1: column "label": labels spelled as one number: every label is a number and some are spelled in several ways, so labels are compared as numbers and named by each number's shortest form: "1000000" as "1e+06", "+1000000" as "1e+06"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb, err := ParseLIBSVM(strings.NewReader(tc.in), "e.svm", Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !sameStrings(names(tb), tc.columns) {
				t.Errorf("columns %q, want %q", names(tb), tc.columns)
			}
			var warnings []string
			for _, w := range tb.Warnings {
				warnings = append(warnings, w.Error())
			}
			if got := strings.Join(warnings, "\n"); got != tc.warning {
				t.Errorf("warnings\n got %s\nwant %s", got, tc.warning)
			}
		})
	}
}
