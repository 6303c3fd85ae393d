package data

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClassTarget checks the classes, row labels, absent levels and first
// missing row that Table.ClassTarget reads from a target column, and the
// error it returns for a column the table lacks or a label it refuses.
func TestClassTarget(t *testing.T) {
	const arff = "@relation r\n@attribute a numeric\n@attribute y {c,x,a}\n@data\n1,c\n2,a\n3,c\n"
	tests := []struct {
		name, text, column string
		arff               bool
		classes            []string
		labels             []int
		absent             []string
		missing            int
		merged             int
		err                string
		cause              error
	}{
		{name: "sorted classes", text: "a,y\n1,b\n2,a\n3,b\n", column: "y", classes: []string{"a", "b"}, labels: []int{1, 0, 1}, missing: -1},
		{name: "missing row", text: "a,y\n1,b\n2,a\n3,\n4,\n", column: "y", classes: []string{"a", "b"}, labels: []int{1, 0, -1, -1}, missing: 2},
		{name: "declared level on no row", text: arff, column: "y", arff: true, classes: []string{"a", "c"}, labels: []int{1, 0, 1}, absent: []string{"x"}, missing: -1},
		{name: "numbers merged", text: "a,y\n1,1\n2,1.0\n3,2\n", column: "y", classes: []string{"1", "2"}, labels: []int{0, 0, 1}, missing: -1, merged: 1},
		{name: "unknown column", text: "a,y\n1,b\n", column: "z", err: `unknown column "z"`, cause: ErrUnknownColumn},
		{name: "control character", text: "a,y\n1,\"b\tc\"\n2,a\n", column: "y", err: `data row 1: class label holds a control character U+0009: "b\tc"`, cause: ErrClassLabel},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := Options{Categorical: []string{"y"}}
			parse := ParseCSV
			if tt.arff {
				opt, parse = Options{}, ParseARFF
			}
			tb, err := parse(strings.NewReader(tt.text), "t", opt)
			if err != nil {
				t.Fatal(err)
			}
			ct, err := tb.ClassTarget(tt.column)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err || !errors.Is(err, tt.cause) {
					t.Fatalf("error %v, want %q (%v)", err, tt.err, tt.cause)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprint(ct.Classes, ct.Labels, ct.Absent, ct.Missing, len(ct.Names.Merged))
			want := fmt.Sprint(tt.classes, tt.labels, tt.absent, tt.missing, tt.merged)
			if got != want {
				t.Errorf("classes, labels, absent, missing, merged = %s, want %s", got, want)
			}
		})
	}
}

// TestClassTargetMarker checks ClassTarget.Marker: the marker of the
// Missing list that made the first row without a class missing, read
// again from the file; "" for an empty field, a marker that is not a class
// value of that row, or a table that Read did not read.
func TestClassTargetMarker(t *testing.T) {
	tests := []struct {
		name, text string
		missing    []string
		parsed     bool
		row        int
		marker     string
	}{
		{name: "marker is a class", text: "a,y\n1,b\n2,x\n3,x\n", missing: []string{"x"}, row: 1, marker: "x"},
		{name: "second marker", text: "a,y\n1,NA\n2,b\n", missing: []string{"?", "NA"}, row: 0, marker: "NA"},
		{name: "empty field", text: "a,y\n1,b\n2,\n3,x\n", missing: []string{"x"}, row: 1},
		{name: "no list", text: "a,y\n1,b\n2,\n", row: 1},
		{name: "parsed, not read", text: "a,y\n1,b\n2,x\n", missing: []string{"x"}, parsed: true, row: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := Options{Categorical: []string{"y"}, Missing: tt.missing}
			path := filepath.Join(t.TempDir(), "d.csv")
			if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			tb, err := Read(path, opt)
			if tt.parsed {
				tb, err = ParseCSV(strings.NewReader(tt.text), path, opt)
			}
			if err != nil {
				t.Fatal(err)
			}
			ct, err := tb.ClassTarget("y")
			if err != nil {
				t.Fatal(err)
			}
			if ct.Missing != tt.row || ct.Marker != tt.marker {
				t.Errorf("missing row %d marker %q, want %d %q", ct.Missing, ct.Marker, tt.row, tt.marker)
			}
		})
	}
}
