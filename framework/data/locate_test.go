package data

import (
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestLocate(t *testing.T) {
	dir := t.TempDir()
	csvText := "a,b,class\n1,2,x\n\n\"multi\nline\",,y\n3, 4 ,z\n"
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain := write("d.csv", csvText)
	tsv := write("d.tsv", "a\tb\n1\t2\n3\t4\n")
	arff := write("d.arff", "@relation r\n@attribute a numeric\n@data\n1\n")
	gz := filepath.Join(dir, "d.csv.gz")
	f, err := os.Create(gz)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	zw.Write([]byte(csvText))
	zw.Close()
	f.Close()
	for _, tc := range []struct {
		path string
		row  int
		col  string
		want Position
	}{
		{plain, 0, "a", Position{2, 1}},
		{plain, 1, "b", Position{5, 7}}, // after the empty line and the two-line field
		{plain, 1, "class", Position{5, 8}},
		{plain, 2, "b", Position{6, 3}},
		{gz, 2, "class", Position{6, 7}},
		{tsv, 1, "b", Position{3, 3}},
		{plain, 3, "a", Position{}},  // no such row
		{plain, 0, "zz", Position{}}, // no such column
		{arff, 0, "a", Position{}},   // not CSV
		{filepath.Join(dir, "gone.csv"), 0, "a", Position{}},
	} {
		if got := Locate(tc.path, Options{}, tc.row, tc.col); got != tc.want {
			t.Errorf("Locate(%s, row %d, %s) = %+v, want %+v", filepath.Base(tc.path), tc.row, tc.col, got, tc.want)
		}
	}
}

// TestLocateRows: the positions of several rows, read in one pass, are
// Locate's for each row; rows it cannot place are absent.
func TestLocateRows(t *testing.T) {
	p := filepath.Join(t.TempDir(), "d.csv")
	if err := os.WriteFile(p, []byte("a,class\n1,x\n\n\"multi\nline\",y\n3,z\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		rows []int
		want map[int]Position
	}{
		{"none", nil, map[int]Position{}},
		{"all, out of order", []int{2, 0, 1}, map[int]Position{0: {2, 3}, 1: {5, 7}, 2: {6, 3}}},
		{"one past the end", []int{1, 3}, map[int]Position{1: {5, 7}}},
		{"declared only", []int{-1}, map[int]Position{}},
	} {
		got := LocateRows(p, Options{}, tc.rows, "class")
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: LocateRows(%v) = %v, want %v", tc.name, tc.rows, got, tc.want)
		}
		for _, r := range tc.rows {
			if one := Locate(p, Options{}, r, "class"); one != got[r] {
				t.Errorf("%s: Locate(row %d) = %v, LocateRows %v", tc.name, r, one, got[r])
			}
		}
	}
}
