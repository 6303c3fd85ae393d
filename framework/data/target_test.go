package data

import (
	"errors"
	"fmt"
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
