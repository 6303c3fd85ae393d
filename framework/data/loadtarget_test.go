package data

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestLoadTarget: a dataset's files and its target are read in one call,
// from the rows the dataset holds (the test file's rows after the
// training file's), the label columns up to the first that cannot be
// read.
func TestLoadTarget(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	train := write("train.csv", "x,class,l1,l2,m\n1,a,0,1,2\n2,b,1,0,1\n")
	test := write("test.csv", "x,class,l1,l2,m\n3,b,1,1,0\n")
	for _, tc := range []struct {
		name, test string
		target     Target
		rows       int
		labels     []int       // the class index of each row (class target)
		names      []string    // the label columns
		values     [][]float64 // their values, up to the first that failed
		labelErr   error
	}{
		{name: "class", target: Target{Class: "class"}, rows: 2, labels: []int{0, 1}},
		{name: "class with a test file", test: test, target: Target{Class: "class"}, rows: 3, labels: []int{0, 1, 1}},
		{name: "labels", target: Target{Labels: []string{"l2", "l1"}}, rows: 2, names: []string{"l2", "l1"}, values: [][]float64{{1, 0}, {0, 1}}},
		{name: "labels then prefix", test: test, target: Target{Labels: []string{"m"}, LabelsPrefix: "l"}, rows: 3,
			names: []string{"m", "l1", "l2"}, labelErr: ErrLabelValue},
		{name: "prefix", test: test, target: Target{LabelsPrefix: "l"}, rows: 3, names: []string{"l1", "l2"}, values: [][]float64{{0, 1, 1}, {1, 0, 1}}},
		{name: "unknown label column", target: Target{Labels: []string{"l1", "z"}}, rows: 2,
			names: []string{"l1", "z"}, values: [][]float64{{0, 1}}, labelErr: ErrUnknownColumn},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := Options{Categorical: []string{"class"}}
			b, err := LoadTarget(train, tc.test, opt, tc.target)
			if err != nil {
				t.Fatal(err)
			}
			if b.Rows.NumRows != tc.rows || b.Table.NumRows != 2 {
				t.Errorf("rows %d, training rows %d, want %d, 2", b.Rows.NumRows, b.Table.NumRows, tc.rows)
			}
			if tc.labels != nil && (b.ClassErr != nil || !slices.Equal(b.Class.Labels, tc.labels)) {
				t.Errorf("class labels %v (%v), want %v", b.Class, b.ClassErr, tc.labels)
			}
			if tc.labels == nil && b.Class != nil {
				t.Errorf("class target %v read for labels", b.Class)
			}
			if !slices.Equal(b.LabelNames, tc.names) || fmt.Sprint(b.LabelValues) != fmt.Sprint(tc.values) {
				t.Errorf("labels %q %v, want %q %v", b.LabelNames, b.LabelValues, tc.names, tc.values)
			}
			if !errors.Is(b.LabelErr, tc.labelErr) || (b.LabelErr == nil) != (tc.labelErr == nil) {
				t.Errorf("label error %v, want %v", b.LabelErr, tc.labelErr)
			}
		})
	}
	if b, err := LoadTarget(filepath.Join(dir, "none.csv"), "", Options{}, Target{Class: "class"}); b != nil || err == nil {
		t.Errorf("a missing file: %v, %v", b, err)
	}
}

// TestLoadTargetPlaces: the class values that a binder's messages name
// are located in the same call: without a test file, the first row of
// each spelling merged and the first row with no value; with one, its
// first row of a class no training row has.
func TestLoadTargetPlaces(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	merged := write("merged.csv", "x,class\n1,1\n2,1.0\n3,2\n")
	missing := write("missing.csv", "x,class\n1,a\n2,\n3,b\n")
	train := write("train.csv", "x,class\n1,a\n2,b\n")
	test := write("test.csv", "x,class\n3,b\n4,c\n5,d\n")
	trained := write("trained.csv", "x,class\n3,b\n4,a\n")
	for _, tc := range []struct {
		name, path, test string
		class, test2     map[int]Position
	}{
		{name: "spellings merged", path: merged, class: map[int]Position{0: {2, 3}, 1: {3, 3}}},
		{name: "missing class", path: missing, class: map[int]Position{1: {3, 3}}},
		{name: "test class untrained", path: train, test: test, test2: map[int]Position{1: {3, 3}}},
		{name: "test classes trained", path: train, test: trained, test2: map[int]Position{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := LoadTarget(tc.path, tc.test, Options{Categorical: []string{"class"}}, Target{Class: "class"})
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(b.ClassPlaces) != fmt.Sprint(tc.class) || fmt.Sprint(b.TestPlaces) != fmt.Sprint(tc.test2) {
				t.Errorf("places %v, test places %v; want %v, %v", b.ClassPlaces, b.TestPlaces, tc.class, tc.test2)
			}
		})
	}
}

// TestLoadTargetHeaderAsData: a CSV file whose header row is data (a file
// without a header line, its target named after a value of its first
// row) gets a warning (ErrHeaderData) at the header line; a header of
// numbered columns whose target is no class value, and a file of one
// column, get none.
func TestLoadTargetHeaderAsData(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, file, text, target string
		want                     string // the warning; "": none
	}{
		{"no header line", "nohead.csv", "5.1,3.5,setosa\n4.9,3,setosa\n7,3.2,versicolor\n", "setosa",
			`nohead.csv:1: first row looks like data: every column name but the target's is a number (5.1, 3.5), and the target's name "setosa" is a value of the target column, so the first row is likely a data row, yet it is read as the header, its values as column names: if the file has no header line, add one (the column names) before its first row`},
		{"numbered classes", "numbered.tsv", "1.5\t2\t0\n2.5\t3\t1\n3\t1\t0\n", "0",
			`numbered.tsv:1: first row looks like data: every column name but the target's is a number (1.5, 2), and the target's name "0" is a value of the target column, so the first row is likely a data row, yet it is read as the header, its values as column names: if the file has no header line, add one (the column names) before its first row`},
		{"after a blank line", "blank.csv", "\n1,a\n2,b\n3,a\n", "a",
			`blank.csv:2: first row looks like data: every column name but the target's is a number (1), and the target's name "a" is a value of the target column, so the first row is likely a data row, yet it is read as the header, its values as column names: if the file has no header line, add one (the column names) before its first row`},
		{"a header", "iris.csv", "sepal,petal,class\n5.1,3.5,setosa\n4.9,3,setosa\n", "class", ""},
		{"numbered columns", "spectra.csv", "400,401.5,class\n0.1,0.2,a\n0.3,0.4,b\n", "class", ""},
		{"a named column", "named.csv", "5.1,x,setosa\n4.9,3,setosa\n", "setosa", ""},
		{"the target alone", "one.csv", "a\na\nb\n", "a", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			b, err := LoadTarget(path, "", Options{Categorical: []string{tc.target}}, Target{Class: tc.target})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range b.Table.Warnings {
				if errors.Is(w, ErrHeaderData) {
					got = append(got, w.Error())
				}
			}
			want := []string{}
			if tc.want != "" {
				want = append(want, filepath.Join(dir, tc.want))
			}
			if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Errorf("warnings %q, want %q", got, want)
			}
		})
	}
}
