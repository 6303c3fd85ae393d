package data

import (
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
		{"x,colour,class\n1,red,a\n", `column 2 is "color" in train.csv but "colour" in test.csv`},
		{"x,color\n1,red\n", "test.csv has 2 columns, train.csv has 3"},
		{"x,color,class\nabc,red,a\n", `column "x" is numeric in train.csv but categorical in test.csv; name it in categorical = [...] or numeric = [...]`},
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
