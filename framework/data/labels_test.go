package data

import (
	"errors"
	"strings"
	"testing"
)

// TestLabelColumn checks the values Table.LabelColumn reads from a label
// column (0/1, 1.0, true/false in any case) and the error it returns for
// each fault, with its cause and the first faulty row.
func TestLabelColumn(t *testing.T) {
	tests := []struct {
		name, csv, column string
		want              []float64
		err               string
		cause             error
		row               int
	}{
		{"numbers", "a,l\n1,0\n2,1.0\n3,1\n", "l", []float64{0, 1, 1}, "", nil, 0},
		{"booleans", "a,l\n1,TRUE\n2, false\n3,0\n", "l", []float64{1, 0, 0}, "", nil, 0},
		{"unknown", "a,l\n1,0\n", "m", nil, `no label column "m"; its columns are: a, l`, ErrUnknownColumn, -1},
		{"control in the name", "a,\"l\n2\"\n1,0\n", "l\n2", nil, `label column "l\n2" holds a control character; tables, plots and file names cannot show it: rename the column`, ErrLabelName, -1},
		{"invisible in the name", "a,l2\n1,0\n", "l\u200b2", nil, `label column "l\u200b2" holds a bidi control or other invisible (default-ignorable) character (U+200B); it would show as another name than the file holds: rename the column`, ErrHiddenLabelName, -1},
		{"a number not 0 or 1", "a,l\n1,0\n2,2\n", "l", nil, `label column "l" holds 2; a label column must hold 0 or 1 (or true or false)`, ErrLabelValue, 1},
		// A hexadecimal float is text in a numeric column, so here too
		// (campaign 12: 0x1p0 among 0s and 1s was read as 1).
		{"hexadecimal", "a,l\n1,0\n2,1\n3,0x1p0\n", "l", nil, `label column "l" holds "0x1p0"; a label column must hold 0 or 1 (or true or false)`, ErrLabelValue, 2},
		// A non-zero value too small for a float64 is out of range, not 0
		// (campaign 13: 1e-400 among 0s and 1s was read as 0).
		{"underflow", "a,l\n1,true\n2,false\n3,1e-400\n", "l", nil, `label column "l" holds "1e-400"; a label column must hold 0 or 1 (or true or false)`, ErrLabelValue, 2},
		{"zero with a tiny exponent", "a,l\n1,true\n2,0.0e-400\n3,1\n", "l", []float64{1, 0, 1}, "", nil, 0},
		{"underscore", "a,l\n1,0\n2,1\n3,0_0\n", "l", nil, `label column "l" holds "0_0"; a label column must hold 0 or 1 (or true or false)`, ErrLabelValue, 2},
		{"text", "a,l\n1,0\n2,1\n3,yes\n", "l", nil, `label column "l" holds "yes"; a label column must hold 0 or 1 (or true or false)`, ErrLabelValue, 2},
		{"missing", "a,l\n1,\n2,1\n", "l", nil, `label column "l" holds no value; a label column must hold 0 or 1 (or true or false)`, ErrLabelValue, 0},
		{"long text", "a,l\n1," + strings.Repeat("x", 100) + "\n", "l", nil, `label column "l" holds "` + strings.Repeat("x", 60) + `"…; a label column must hold 0 or 1 (or true or false)`, ErrLabelValue, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb, err := ParseCSV(strings.NewReader(tt.csv), "l.csv", Options{})
			if err != nil {
				t.Fatal(err)
			}
			if tt.cause == ErrHiddenLabelName {
				// The readers refuse such a name (ErrHiddenName): a table
				// built in code holds it.
				tb.Columns[1].Name = tt.column
			}
			got, err := tb.LabelColumn(tt.column)
			if tt.err == "" {
				if err != nil || !sameFloats(got, tt.want) {
					t.Fatalf("LabelColumn = %v, %v; want %v", got, err, tt.want)
				}
				return
			}
			le := (*LabelColumnError)(nil)
			if err == nil || err.Error() != tt.err || !errors.Is(err, tt.cause) || !errors.As(err, &le) || le.Row != tt.row {
				t.Fatalf("LabelColumn error = %v (row %v)\nwant %s (%v, row %d)", err, le, tt.err, tt.cause, tt.row)
			}
		})
	}
}
