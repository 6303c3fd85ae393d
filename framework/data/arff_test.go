package data

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestReadARFFTestdata(t *testing.T) {
	tb, err := Read("testdata/mini_emotions.arff", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tb.NumRows != 6 || len(tb.Columns) != 8 {
		t.Fatalf("got %d rows, %d columns", tb.NumRows, len(tb.Columns))
	}
	if tb.Relation != "mini_emotions: -C -3" || tb.LabelCount != -3 {
		t.Errorf("relation %q, label count %d", tb.Relation, tb.LabelCount)
	}
	if !sameStrings(tb.Labels, []string{"amazed", "happy", "relaxing"}) {
		t.Errorf("labels = %q", tb.Labels)
	}
	nan := math.NaN()
	if got, want := num(t, tb, "Mean_Acc1298_Mean_Mem40_Centroid"), []float64{0.034741, 0.081374, 0.110545, 0.5, 0.042481, 0}; !sameFloats(got, want) {
		t.Errorf("centroid = %v, want %v", got, want)
	}
	if got, want := num(t, tb, "flux"), []float64{3, nan, 5, 0, 2, 0}; !sameFloats(got, want) {
		t.Errorf("flux = %v, want %v", got, want)
	}
	// Nominal: declared levels in declared order; omitted sparse value is
	// the first declared value.
	vals, levels := cat(t, tb, "genre")
	if !sameStrings(levels, []string{"rock", "hip hop", "jazz"}) {
		t.Errorf("genre levels = %q", levels)
	}
	if want := []string{"rock", "hip hop", "jazz", "jazz", "", "rock"}; !sameStrings(vals, want) {
		t.Errorf("genre = %q, want %q", vals, want)
	}
	// String: levels in order of appearance; an omitted sparse string is
	// missing.
	vals, _ = cat(t, tb, "comment")
	if want := []string{"loud, fast", "it's fine", "", "sparse row", "plain", ""}; !sameStrings(vals, want) {
		t.Errorf("comment = %q, want %q", vals, want)
	}
	vals, levels = cat(t, tb, "relaxing")
	if !sameStrings(levels, []string{"0", "1"}) || !sameStrings(vals, []string{"1", "0", "0", "1", "1", "0"}) {
		t.Errorf("relaxing levels %q values %q", levels, vals)
	}
	if err := checkTable(tb); err != nil {
		t.Error(err)
	}
}

func TestParseARFFOverrides(t *testing.T) {
	in := `@RELATION 'Scene: -C 2 -split 50'
@ATTRIBUTE beach {0,1}
@ATTRIBUTE "urban x" {0,1}
@ATTRIBUTE soil INTEGER
@ATTRIBUTE when DATE "yyyy-MM-dd"
@ATTRIBUTE f1 NUMERIC
@DATA
1,0,7202,"2001-01-02",0.5
0,1,03,"2001-01-03",NA
`
	tb, err := ParseARFF(strings.NewReader(in), "s.arff", Options{
		Numeric:     []string{"beach"},
		Categorical: []string{"soil"},
		Ignore:      []string{"when", "urban x"},
		Missing:     []string{"NA"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if tb.LabelCount != 2 || !sameStrings(tb.Labels, []string{"beach"}) {
		t.Errorf("label count %d, labels %q (ignored labels are left out)", tb.LabelCount, tb.Labels)
	}
	if got := names(tb); !sameStrings(got, []string{"beach", "soil", "f1"}) {
		t.Errorf("names = %q", got)
	}
	if got := num(t, tb, "beach"); !sameFloats(got, []float64{1, 0}) {
		t.Errorf("beach = %v", got)
	}
	if vals, _ := cat(t, tb, "soil"); !sameStrings(vals, []string{"7202", "03"}) {
		t.Errorf("soil = %q", vals)
	}
	if got := num(t, tb, "f1"); !sameFloats(got, []float64{0.5, math.NaN()}) {
		t.Errorf("f1 = %v", got)
	}
}

func TestParseARFFQuoting(t *testing.T) {
	in := "% comment\n@relation r\n" +
		"@attribute 'a b' {'x, y', \"z\\\"q\", w}\n" +
		"@attribute c{p,q} % trailing comment\n" +
		"@attribute s string\n" +
		"@data\n" +
		"'x, y' , p , '?'\n" +
		"\"z\\\"q\",q,'it\\'s'\n" +
		"w,?,?\n"
	tb, err := ParseARFF(strings.NewReader(in), "q.arff", Options{})
	if err != nil {
		t.Fatal(err)
	}
	vals, levels := cat(t, tb, "a b")
	if !sameStrings(levels, []string{"x, y", `z"q`, "w"}) || !sameStrings(vals, []string{"x, y", `z"q`, "w"}) {
		t.Errorf("'a b' levels %q values %q", levels, vals)
	}
	if vals, _ := cat(t, tb, "c"); !sameStrings(vals, []string{"p", "q", ""}) {
		t.Errorf("c = %q", vals)
	}
	// A quoted '?' is a value, not a missing marker.
	if vals, _ := cat(t, tb, "s"); !sameStrings(vals, []string{"?", "it's", ""}) {
		t.Errorf("s = %q", vals)
	}
}

// TestParseARFFDataComments: an unquoted % in a data row starts a comment
// to the end of the line, as in Weka (dense and sparse rows, with or
// without blanks before it); a quoted % is text.
func TestParseARFFDataComments(t *testing.T) {
	in := "@relation r\n@attribute class {a,b}\n@attribute x real\n@attribute s string\n@data\n" +
		"a , 0.25 , 'p' % trailing comment\n" +
		"b,1.5,'50% off'%no blank before it\n" +
		"{0 b, 1 2, 2 '%q'} % sparse\n" +
		"a,3,\"x%y\" %% two\n" +
		"  % a comment line\n" +
		"a,4,'%'\n"
	tb, err := ParseARFF(strings.NewReader(in), "c.arff", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tb.NumRows != 5 {
		t.Fatalf("%d rows, want 5", tb.NumRows)
	}
	if vals, _ := cat(t, tb, "class"); !sameStrings(vals, []string{"a", "b", "b", "a", "a"}) {
		t.Errorf("class = %q", vals)
	}
	if vals, _ := cat(t, tb, "s"); !sameStrings(vals, []string{"p", "50% off", "%q", "x%y", "%"}) {
		t.Errorf("s = %q", vals)
	}
	if x := num(t, tb, "x"); fmt.Sprint(x) != "[0.25 1.5 2 3 4]" {
		t.Errorf("x = %v, want [0.25 1.5 2 3 4]", x)
	}
}

func TestParseARFFErrors(t *testing.T) {
	const head = "@relation r\n@attribute a numeric\n@attribute b {x,y}\n@data\n"
	for _, tc := range []struct {
		name string
		in   string
		opt  Options
		want string
		is   error
	}{
		{"empty", "% only a comment\n\n", Options{}, "e.arff: no data: empty file", ErrEmpty},
		{"declared value not UTF-8", "@relation r\n@attribute a numeric\n@attribute class {x,caf\xe9}\n@data\n1,x\n", Options{}, `e.arff:3: col 2: not valid UTF-8: attribute "class" declares value "caf\xe9"`, ErrEncoding},
		{"string value not UTF-8", "@relation r\n@attribute s string\n@data\n'ok'\n'\xff'\n", Options{}, `e.arff:5: column "s" (col 1): not valid UTF-8: "\xff"`, ErrEncoding},
		{"no data section", "@relation r\n@attribute a numeric\n", Options{}, "e.arff: syntax error: no @data section", ErrSyntax},
		{"no attributes", "@relation r\n@data\n1\n", Options{}, "e.arff: no data: no @attribute declarations", ErrEmpty},
		{"no rows", head + "% nothing\n", Options{}, "e.arff: no data: no data rows after @data", ErrEmpty},
		{"ragged", head + "1,x\n2\n", Options{}, "e.arff:6: wrong number of fields: row has 1 values, 2 attributes are declared", ErrRagged},
		{"weights", head + "1,x,{2}\n", Options{}, "e.arff:5: wrong number of fields: row has 3 values, 2 attributes are declared (instance weights are not supported)", ErrRagged},
		{"not numeric", head + "1,x\nabc,y\n", Options{}, `e.arff:6: column "a" (col 1): not a number: "abc"`, ErrNotNumeric},
		{"undeclared nominal", head + "1,z\n", Options{}, `e.arff:5: column "b" (col 2): undeclared nominal value "z" (declared: {"x", "y"})`, ErrUndeclared},
		{"right-to-left override in an attribute name", "@relation r\n@attribute 'sepal\u202elength' numeric\n@data\n1\n", Options{}, `e.arff:2: col 1: attribute name: column name holds a bidi control or other invisible (default-ignorable) character (U+202E) in "sepal\u202elength": rename the column`, ErrHiddenName},
		{"right-to-left isolate in the class attribute", "@relation r\n@attribute a numeric\n@attribute cl\u2067ass {x,y}\n@data\n1,x\n", Options{}, `e.arff:3: col 2: attribute name: column name holds a bidi control or other invisible (default-ignorable) character (U+2067) in "cl\u2067ass": rename the column`, ErrHiddenName},
		{"duplicate attribute", "@relation r\n@attribute a numeric\n@attribute a real\n@data\n1,2\n", Options{}, `e.arff:3: column "a" (col 2): duplicate column name (first at attribute 1, line 2)`, ErrDuplicateColumn},
		{"date attribute", "@relation r\n@attribute d date 'yyyy'\n@data\n2001\n", Options{}, `e.arff:2: column "d" (col 1): unsupported: date attributes are not supported; add the column to Ignore`, ErrUnsupported},
		{"relational", "@relation r\n@attribute bag relational\n", Options{}, `e.arff:2: col 1: unsupported: attribute "bag": relational attributes are not supported`, ErrUnsupported},
		{"unknown type", "@relation r\n@attribute a numbers\n@data\n1\n", Options{}, `e.arff:2: col 1: syntax error: attribute "a" has unknown type "numbers"`, ErrSyntax},
		{"unclosed nominal", "@relation r\n@attribute a {x,y\n@data\nx\n", Options{}, `e.arff:2: col 1: syntax error: attribute "a": nominal value list is not closed with '}'`, ErrSyntax},
		{"attributes apart by normalisation", "@relation r\n@attribute caf\u00e9 numeric\n@attribute cafe\u0301 real\n@data\n1,2\n", Options{}, `e.arff:3: column "cafe` + "\u0301" + `" (col 2): duplicate column name: "cafe\u0301" reads as "caf\u00e9" (attribute 1, line 2), from which it differs only by Unicode normalisation or blanks: rename one of them`, ErrDuplicateColumn},
		{"duplicate nominal", "@relation r\n@attribute a {x,y,x}\n@data\nx\n", Options{}, `e.arff:2: col 1: syntax error: attribute "a" declares nominal value "x" twice`, ErrSyntax},
		{"unknown declaration", "@relation r\n@atribute a numeric\n", Options{}, `e.arff:2: syntax error: unknown declaration "@atribute"`, ErrSyntax},
		{"text before header", "hello\n@relation r\n", Options{}, `e.arff:1: syntax error: expected @relation, @attribute or @data, found "hello"`, ErrSyntax},
		{"unterminated quote", head + "1,'x\n", Options{}, `e.arff:5: syntax error: unterminated quote`, ErrSyntax},
		{"text after quote", head + "1,'x'y\n", Options{}, `e.arff:5: column "b" (col 2): syntax error: text after closing quote in "'x'y"`, ErrSyntax},
		{"sparse index out of range", head + "{0 1, 2 x}\n", Options{}, `e.arff:5: syntax error: sparse entry 2: index "2" is not in [0, 2)`, ErrSyntax},
		{"sparse decreasing", head + "{1 x, 0 1}\n", Options{}, `e.arff:5: column "a" (col 1): syntax error: sparse index 0 is not increasing`, ErrSyntax},
		{"sparse no value", head + "{0}\n", Options{}, `e.arff:5: syntax error: sparse entry 1 "0" is not "index value"`, ErrSyntax},
		{"sparse unclosed", head + "{0 1\n", Options{}, `e.arff:5: syntax error: sparse row does not end in '}' (instance weights are not supported)`, ErrSyntax},
		{"sparse bad value", head + "{0 q}\n", Options{}, `e.arff:5: column "a" (col 1): not a number: "q"`, ErrNotNumeric},
		{"label count too large", "@relation 'r: -C 3'\n@attribute a numeric\n@attribute b {x,y}\n@data\n1,x\n", Options{}, `e.arff:1: syntax error: relation declares -C 3 but there are 2 attributes`, ErrSyntax},
		{"unknown override", head + "1,x\n", Options{Ignore: []string{"c"}}, `e.arff: unknown column: options name "c", not in the file`, ErrUnknownColumn},
		{"numeric override on text nominal", "@relation r\n@attribute b {x,y}\n@data\nx\n", Options{Numeric: []string{"b"}}, `e.arff:4: column "b" (col 1): not a number: "x"`, ErrNotNumeric},
		{"second relation", "@relation r\n@relation s\n", Options{}, `e.arff:2: syntax error: second @relation (first on line 1)`, ErrSyntax},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb, err := ParseARFF(strings.NewReader(tc.in), "e.arff", tc.opt)
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

func TestParseARFFRelation(t *testing.T) {
	for _, tc := range []struct {
		decl, name string
		count      int
	}{
		{"@relation emotions: -C -6", "emotions: -C -6", -6},
		{"@relation 'emotions: -C -6' % MULAN", "emotions: -C -6", -6},
		{`@RELATION "Scene: -C 6"`, "Scene: -C 6", 6},
		{"@relation plain", "plain", 0},
	} {
		in := tc.decl + "\n"
		for i := 0; i < 7; i++ {
			in += fmt.Sprintf("@attribute a%d {0,1}\n", i)
		}
		in += "@data\n0,1,0,1,0,1,0\n"
		tb, err := ParseARFF(strings.NewReader(in), "r.arff", Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.decl, err)
		}
		if tb.Relation != tc.name || tb.LabelCount != tc.count || len(tb.Labels) != max(tc.count, -tc.count) {
			t.Errorf("%s: relation %q, count %d, labels %q", tc.decl, tb.Relation, tb.LabelCount, tb.Labels)
		}
		if tc.count < 0 && tb.Labels[0] != "a1" || tc.count > 0 && tb.Labels[5] != "a5" {
			t.Errorf("%s: labels %q", tc.decl, tb.Labels)
		}
	}
}

func TestLabelCount(t *testing.T) {
	for _, tc := range []struct {
		rel string
		n   int
		ok  bool
	}{
		{"emotions: -C -6", -6, true},
		{"Scene: -C 6", 6, true},
		{"Music: -C 6 -split-percentage 50", 6, true},
		{"emotions", 0, false},
		{"x -C", 0, false},
		{"x -C six", 0, false},
	} {
		n, ok := labelCount(tc.rel)
		if n != tc.n || ok != tc.ok {
			t.Errorf("labelCount(%q) = %d, %v; want %d, %v", tc.rel, n, ok, tc.n, tc.ok)
		}
	}
}

// TestARFFMatchesCSV reads the same data as ARFF and as CSV.
func TestARFFMatchesCSV(t *testing.T) {
	arff := "@relation r\n@attribute x real\n@attribute y {b,a}\n@attribute z string\n@data\n1.5,a,u\n?,b,?\n-3,?,v\n"
	csvIn := "x,y,z\n1.5,a,u\n,b,\n-3,,v\n"
	ta, err := ParseARFF(strings.NewReader(arff), "r.arff", Options{})
	if err != nil {
		t.Fatal(err)
	}
	tc, err := ParseCSV(strings.NewReader(csvIn), "r.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The nominal declaration fixes the level order b, a; CSV sees a first.
	ya, _ := cat(t, ta, "y")
	yc, _ := cat(t, tc, "y")
	if !sameStrings(ya, yc) {
		t.Errorf("y: ARFF %q, CSV %q", ya, yc)
	}
	if !sameFloats(num(t, ta, "x"), num(t, tc, "x")) {
		t.Errorf("x differs")
	}
	za, _ := cat(t, ta, "z")
	zc, _ := cat(t, tc, "z")
	if !sameStrings(za, zc) {
		t.Errorf("z: ARFF %q, CSV %q", za, zc)
	}
}
