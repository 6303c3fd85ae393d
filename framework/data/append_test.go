package data

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestAppend(t *testing.T) {
	a, err := ParseCSV(strings.NewReader("x,color,class\n1,red,a\n2,,b\n"), "train.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseCSV(strings.NewReader("x,color,class\n3,blue,b\n4,red,c\n"), "test.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	ab, err := Append(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if ab.NumRows != 4 {
		t.Fatalf("%d rows, want 4", ab.NumRows)
	}
	x, _ := ab.Lookup("x")
	color, _ := ab.Lookup("color")
	class, _ := ab.Lookup("class")
	if !reflect.DeepEqual(x.Num, []float64{1, 2, 3, 4}) {
		t.Errorf("x = %v", x.Num)
	}
	// The training file's levels first; blue is new in the test file.
	if !reflect.DeepEqual(color.Levels, []string{"red", "blue"}) || !reflect.DeepEqual(color.Codes, []int32{0, -1, 1, 0}) {
		t.Errorf("color levels %v codes %v", color.Levels, color.Codes)
	}
	if !reflect.DeepEqual(class.Levels, []string{"a", "b", "c"}) || !reflect.DeepEqual(class.Codes, []int32{0, 1, 1, 2}) {
		t.Errorf("class levels %v codes %v", class.Levels, class.Codes)
	}
	if err := checkTable(ab); err != nil {
		t.Error(err)
	}
	for _, tc := range []struct{ src, want string }{
		{"x,colour,class\n1,red,a\n", `test.csv lacks column "color" of train.csv and has column "colour", which train.csv lacks`},
		{"class,colour,x\na,red,1\n", `test.csv lacks column "color" of train.csv and has column "colour", which train.csv lacks`},
		{"x,color\n1,red\n", `test.csv has 2 columns, train.csv has 3: it lacks column "class" of train.csv`},
		{"w,x,color,class,v\n0,1,red,a,0\n", `test.csv has 5 columns, train.csv has 3: it has columns "w", "v", which train.csv lacks`},
		{"k,color\n1,red\n", `test.csv has 2 columns, train.csv has 3: it lacks columns "x", "class" of train.csv and has column "k", which train.csv lacks`},
		{"x,color,class\nabc,red,a\n", `column "x" is numeric in train.csv but categorical in test.csv; name it in categorical = [...] or numeric = [...]`},
		{"class,x,color\na,abc,red\n", `column "x" is numeric in train.csv but categorical in test.csv; name it in categorical = [...] or numeric = [...]`},
	} {
		bad, err := ParseCSV(strings.NewReader(tc.src), "test.csv", Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Append(a, bad); err == nil || err.Error() != tc.want {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
}

// TestAppendByName: a test file whose header names the training file's
// columns in another order is read by its header, in CSV and in ARFF. On
// iris (the even rows to train, the odd ones to test), the test file with
// its columns as petal_length_cm, petal_width_cm, sepal_length_cm,
// sepal_width_cm, class joins the training rows exactly as the same rows
// in the training file's order do; the test file's digest stays that of
// its bytes.
func TestAppendByName(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "experiments", "data", "iris.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	header, rows := strings.Split(lines[0], ","), lines[1:]
	if len(rows) != 150 {
		t.Fatalf("%d iris rows, want 150", len(rows))
	}
	// write returns header and rows (those of parity odd) with the
	// columns in order perm, as CSV or as ARFF.
	write := func(arff bool, odd int, perm []int) string {
		var b strings.Builder
		if arff {
			b.WriteString("@relation iris\n")
			for _, j := range perm {
				typ := "numeric"
				if header[j] == "class" {
					typ = "{setosa,versicolor,virginica}"
				}
				fmt.Fprintf(&b, "@attribute %s %s\n", header[j], typ)
			}
			b.WriteString("@data\n")
		} else {
			fields := make([]string, len(perm))
			for k, j := range perm {
				fields[k] = header[j]
			}
			b.WriteString(strings.Join(fields, ",") + "\n")
		}
		for i, row := range rows {
			if i%2 != odd {
				continue
			}
			f := strings.Split(row, ",")
			fields := make([]string, len(perm))
			for k, j := range perm {
				fields[k] = f[j]
			}
			b.WriteString(strings.Join(fields, ",") + "\n")
		}
		return b.String()
	}
	same, reordered := []int{0, 1, 2, 3, 4}, []int{2, 3, 0, 1, 4}
	for _, arff := range []bool{false, true} {
		t.Run(fmt.Sprintf("arff=%v", arff), func(t *testing.T) {
			dir := t.TempDir()
			ext := ".csv"
			if arff {
				ext = ".arff"
			}
			put := func(name, text string) string {
				p := filepath.Join(dir, name+ext)
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				return p
			}
			trainPath := put("tr", write(arff, 0, same))
			train, err := Read(trainPath, Options{})
			if err != nil {
				t.Fatal(err)
			}
			inOrder, err := ReadTest(trainPath, put("te", write(arff, 1, same)), train, Options{})
			if err != nil {
				t.Fatal(err)
			}
			reordPath := put("te_reord", write(arff, 1, reordered))
			got, err := ReadTest(trainPath, reordPath, train, Options{})
			if err != nil {
				t.Fatalf("reordered test file: %v", err)
			}
			if names := got.Table.ColumnNames(); !reflect.DeepEqual(names, []string{"petal_length_cm", "petal_width_cm", "sepal_length_cm", "sepal_width_cm", "class"}) {
				t.Errorf("test table columns %v, want the file's order", names)
			}
			if !reflect.DeepEqual(got.Both.Columns, inOrder.Both.Columns) || got.Both.NumRows != 150 {
				t.Errorf("reordered test file joined as %v (%d rows), want %v", got.Both.ColumnNames(), got.Both.NumRows, inOrder.Both.ColumnNames())
			}
			// Test row 1 is iris row 2: 4.9,3,1.4,0.2,setosa; test row
			// 50, the last, iris row 150: 5.9,3,5.1,1.8,virginica.
			for _, tc := range []struct {
				row  int
				want []float64
			}{{75, []float64{4.9, 3, 1.4, 0.2}}, {149, []float64{5.9, 3, 5.1, 1.8}}} {
				var vals []float64
				for _, c := range got.Both.Columns[:4] {
					vals = append(vals, c.Num[tc.row])
				}
				if !reflect.DeepEqual(vals, tc.want) {
					t.Errorf("joined row %d features %v, want %v", tc.row, vals, tc.want)
				}
			}
			class := got.Both.Columns[4]
			if l := class.Levels[class.Codes[149]]; l != "virginica" {
				t.Errorf("joined row 149 class %q, want virginica", l)
			}
			text, err := os.ReadFile(reordPath)
			if err != nil {
				t.Fatal(err)
			}
			if sum := sha256.Sum256(text); got.SHA256 != hex.EncodeToString(sum[:]) || got.SHA256 == inOrder.SHA256 {
				t.Errorf("test file SHA-256 %s, want that of its bytes %x", got.SHA256, sum)
			}
		})
	}
}
