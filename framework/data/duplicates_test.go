package data

import (
	"strconv"
	"strings"
	"testing"
)

// TestDuplicates: Table.Duplicates counts every row that equals another in
// every column (the first of a group too), and names the first row that
// equals an earlier one, for CSV, LIBSVM (sparse features) and ARFF
// tables; a row that differs in one column, or in the class alone, is no
// copy; missing values equal each other, and so do a LIBSVM row's
// explicit zeros and absent features.
func TestDuplicates(t *testing.T) {
	for _, tc := range []struct {
		name, format, src string
		copies, first, of int
	}{
		{"none", "csv", "x,c,class\n1,r,a\n2,r,a\n1,b,a\n1,r,b\n", 0, -1, -1},
		{"appended to itself", "csv", "x,c,class\n1,r,a\n2,b,b\n3,r,a\n1,r,a\n2,b,b\n3,r,a\n", 6, 3, 0},
		{"a group of three and a pair", "csv", "x,c,class\n1,r,a\n5,b,b\n1,r,a\n9,r,a\n1,r,a\n5,b,b\n", 5, 2, 0},
		{"spellings of one number", "csv", "x,class\n0.5,a\n5e-1,a\n-0,b\n0,b\n", 4, 1, 0},
		{"missing values equal", "csv", "x,y,class\n,1,a\n,1,a\n2,1,a\n", 2, 1, 0},
		{"class differs", "csv", "x,class\n1,a\n1,b\n", 0, -1, -1},
		{"one row", "csv", "x,class\n1,a\n", 0, -1, -1},
		{"libsvm", "libsvm", "1 1:0.5 3:2\n2 1:0.5\n1 1:0.5 3:2\n1 1:0.5 2:0 3:2\n2 1:0.5 2:0\n1 1:0.5 3:3\n", 5, 2, 0},
		{"arff", "arff", "@relation r\n@attribute x numeric\n@attribute class {a,b}\n@data\n1,a\n2,b\n2,b\n", 2, 2, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parse := map[string]func(r *strings.Reader) (*Table, error){
				"csv":    func(r *strings.Reader) (*Table, error) { return ParseCSV(r, "d.csv", Options{}) },
				"libsvm": func(r *strings.Reader) (*Table, error) { return ParseLIBSVM(r, "d.libsvm", Options{}) },
				"arff":   func(r *strings.Reader) (*Table, error) { return ParseARFF(r, "d.arff", Options{}) },
			}[tc.format]
			tb, err := parse(strings.NewReader(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			copies, first, of := tb.Duplicates()
			if copies != tc.copies || first != tc.first || of != tc.of {
				t.Errorf("Duplicates() = %d, %d, %d; want %d, %d, %d", copies, first, of, tc.copies, tc.first, tc.of)
			}
		})
	}
}

// TestDuplicatesMany: 5000 distinct rows, then the first 2500 again in
// reverse order: 5000 rows counted (the 2500 pairs), the first copy being
// row 5000, a copy of row 2499; the table's probing across many keys
// keeps the count exact.
func TestDuplicatesMany(t *testing.T) {
	var b strings.Builder
	b.WriteString("x,y,class\n")
	const n = 5000
	for i := range n {
		b.WriteString(strings.Join([]string{strconv.Itoa(i), strconv.Itoa(i % 7), "c" + strconv.Itoa(i%3)}, ",") + "\n")
	}
	for i := range n / 2 { // the first half again, reversed
		j := n/2 - 1 - i
		b.WriteString(strings.Join([]string{strconv.Itoa(j), strconv.Itoa(j % 7), "c" + strconv.Itoa(j%3)}, ",") + "\n")
	}
	tb, err := ParseCSV(strings.NewReader(b.String()), "d.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if copies, first, of := tb.Duplicates(); copies != n || first != n || of != n/2-1 {
		t.Errorf("Duplicates() = %d, %d, %d; want %d, %d, %d", copies, first, of, n, n, n/2-1)
	}
}
