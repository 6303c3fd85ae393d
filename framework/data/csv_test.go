package data

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestParseCSVInference(t *testing.T) {
	in := "\uFEFFx,code,mixed,word,empty,q\r\n" +
		"1.5,3,1,a,,\"hello, world\"\r\n" +
		"\r\n" + // empty line skipped
		"-2e3,03,two,b,,\"say \"\"hi\"\"\"\r\n" +
		" 7 ,3,,a,,\"two\nlines\"\r\n" +
		",10,3.0,c,,plain"
	tb, err := ParseCSV(strings.NewReader(in), "mem.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tb.NumRows != 4 || len(tb.Columns) != 6 || tb.Source != "mem.csv" {
		t.Fatalf("got %d rows, %d columns, source %q", tb.NumRows, len(tb.Columns), tb.Source)
	}
	if got, want := num(t, tb, "x"), []float64{1.5, -2000, 7, math.NaN()}; !sameFloats(got, want) {
		t.Errorf("x = %v, want %v", got, want)
	}
	// "03" parses as a number, so code is numeric unless declared.
	if got, want := num(t, tb, "code"), []float64{3, 3, 3, 10}; !sameFloats(got, want) {
		t.Errorf("code = %v, want %v", got, want)
	}
	// A text value makes the column categorical with the original text.
	vals, levels := cat(t, tb, "mixed")
	if want := []string{"1", "two", "", "3.0"}; !sameStrings(vals, want) {
		t.Errorf("mixed = %q, want %q", vals, want)
	}
	if want := []string{"1", "two", "3.0"}; !sameStrings(levels, want) {
		t.Errorf("mixed levels = %q, want %q", levels, want)
	}
	if _, levels := cat(t, tb, "word"); !sameStrings(levels, []string{"a", "b", "c"}) {
		t.Errorf("word levels = %q", levels)
	}
	// A column with no values at all is numeric and all missing.
	if c, _ := tb.Lookup("empty"); c.Kind != Numeric || c.MissingCount() != 4 {
		t.Errorf("empty: kind %v, %d missing", c.Kind, c.MissingCount())
	}
	vals, _ = cat(t, tb, "q")
	if want := []string{"hello, world", `say "hi"`, "two\nlines", "plain"}; !sameStrings(vals, want) {
		t.Errorf("q = %q, want %q", vals, want)
	}
	if err := checkTable(tb); err != nil {
		t.Error(err)
	}
}

func TestParseCSVOverrides(t *testing.T) {
	in := "id,soil,score,note\n1,3,0.5,NA\n2,03,?,x\n3,3.0,1,y\n"
	tb, err := ParseCSV(strings.NewReader(in), "o.csv", Options{
		Categorical: []string{"soil"},
		Numeric:     []string{"score"},
		Ignore:      []string{"id"},
		Missing:     []string{"?", "NA"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(tb); !sameStrings(got, []string{"soil", "score", "note"}) {
		t.Errorf("names = %q", got)
	}
	vals, levels := cat(t, tb, "soil")
	if !sameStrings(levels, []string{"3", "03", "3.0"}) || !sameStrings(vals, []string{"3", "03", "3.0"}) {
		t.Errorf("soil levels %q values %q: want the original text", levels, vals)
	}
	if got := num(t, tb, "score"); !sameFloats(got, []float64{0.5, math.NaN(), 1}) {
		t.Errorf("score = %v", got)
	}
	vals, _ = cat(t, tb, "note")
	if !sameStrings(vals, []string{"", "x", "y"}) {
		t.Errorf("note = %q (NA must be missing)", vals)
	}
}

func TestParseCSVDelimiters(t *testing.T) {
	for _, tc := range []struct {
		delim rune
		in    string
	}{
		{';', "a;b\n1,5;x\n2;\"y;z\"\n"},
		{'\t', "a\tb\n1,5\tx\n2\t\"y\tz\"\n"},
		{'§', "a§b\n1,5§x\n2§\"y§z\"\n"},
	} {
		tb, err := ParseCSV(strings.NewReader(tc.in), "d.csv", Options{Delimiter: tc.delim, Categorical: []string{"a"}})
		if err != nil {
			t.Fatalf("%q: %v", tc.delim, err)
		}
		a, _ := cat(t, tb, "a")
		b, _ := cat(t, tb, "b")
		want := "y" + string(tc.delim) + "z"
		if !sameStrings(a, []string{"1,5", "2"}) || !sameStrings(b, []string{"x", want}) {
			t.Errorf("%q: a=%q b=%q", tc.delim, a, b)
		}
	}
}

func TestParseCSVErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		opt  Options
		want string
		is   error
	}{
		{"empty file", "", Options{}, "e.csv: no data: empty file (no header row)", ErrEmpty},
		{"blank lines only", "\n\r\n\n", Options{}, "e.csv: no data: empty file (no header row)", ErrEmpty},
		{"header only", "a,b\n", Options{}, "e.csv:1: no data: header but no data rows", ErrEmpty},
		{"ragged short", "a,b,c\n1,2,3\n4,5\n", Options{}, "e.csv:3: wrong number of fields: row has 2, header has 3", ErrRagged},
		{"ragged long after blank", "a,b\n1,2\n\n3,4,5\n", Options{}, "e.csv:4: wrong number of fields: row has 3, header has 2", ErrRagged},
		{"duplicate header", "a,b,a\n1,2,3\n", Options{}, `e.csv:1:5: column "a" (col 3): duplicate column name (first at col 1)`, ErrDuplicateColumn},
		// Names that differ only by Unicode normalisation (NFC é, then e
		// and U+0301) or by blanks show as one name (campaign 13).
		{"NFC and NFD names", "f1,label_\u00e9,label_e\u0301\n1,0,1\n", Options{}, `e.csv:1:13: column "label_e` + "\u0301" + `" (col 3): duplicate column name: "label_e\u0301" reads as "label_\u00e9" (col 2), from which it differs only by Unicode normalisation or blanks: rename one of them`, ErrDuplicateColumn},
		{"names apart by blanks", "a,b, a\n1,2,3\n", Options{}, `e.csv:1:5: column " a" (col 3): duplicate column name: " a" reads as "a" (col 1), from which it differs only by Unicode normalisation or blanks: rename one of them`, ErrDuplicateColumn},
		{"empty header name", "a,,c\n1,2,3\n", Options{}, "e.csv:1:3: col 2: syntax error: empty column name", ErrSyntax},
		{"not numeric", "a,safety\n1,2\n2,3\n3,high\n", Options{Numeric: []string{"safety"}}, `e.csv:4:3: column "safety" (col 2): not a number: "high"`, ErrNotNumeric},
		{"infinity is not numeric", "a\n1\nInf\n", Options{Numeric: []string{"a"}}, `e.csv:3:1: column "a" (col 1): not a number: "Inf" (infinite or out of range)`, ErrNotNumeric},
		{"out of range is not numeric", "a,b\n1,2\n2, 1e400\n", Options{Numeric: []string{"b"}}, `e.csv:3:3: column "b" (col 2): not a number: " 1e400" (infinite or out of range)`, ErrNotNumeric},
		{"inf in a column of numbers", "a,b\n1,2\n\n2,-inf\n3,4\n4,inf\n", Options{}, `e.csv:4:3: column "b" (col 2): not a number: "-inf" (infinite or out of range; data row 2) in a column of numbers: give a finite value, leave the field empty for a missing value, or list the column in categorical`, ErrNotNumeric},
		{"1e400 in a column of numbers", "a,b\n1,2\n2,\"1e400\"\n", Options{}, `e.csv:3:3: column "b" (col 2): not a number: "1e400" (infinite or out of range; data row 2) in a column of numbers`, ErrNotNumeric},
		// A non-zero number below float64's smallest subnormal would read
		// as 0 (strconv rounds it so without an error): out of range too.
		{"1e-400 is not numeric", "a,b\n1,2\n2,-1e-400\n", Options{Numeric: []string{"b"}}, `e.csv:3:3: column "b" (col 2): not a number: "-1e-400" (infinite or out of range)`, ErrNotNumeric},
		{"1e-400 in a column of numbers", "a,b\n1,2\n2,0.5e-400\n", Options{}, `e.csv:3:3: column "b" (col 2): not a number: "0.5e-400" (infinite or out of range; data row 2) in a column of numbers`, ErrNotNumeric},
		{"Infinity after a multi-line field", "a,b\n\"x\ny\",Infinity\n", Options{}, `e.csv:3:4: column "b" (col 2): not a number: "Infinity" (infinite or out of range; data row 1)`, ErrNotNumeric},
		{"invalid UTF-8 value", "a,class\n1,x\n2,\xff\xfe\n", Options{}, `e.csv:3:3: column "class" (col 2): not valid UTF-8: "\xff\xfe"`, ErrEncoding},
		{"invalid UTF-8 in a declared class", "a,class\n1,x\n2,caf\xe9\n", Options{Categorical: []string{"class"}}, `e.csv:3:3: column "class" (col 2): not valid UTF-8: "caf\xe9"`, ErrEncoding},
		{"invalid UTF-8 name", "a,\xe9t\xe9\n1,2\n", Options{}, `e.csv:1:3: col 2: not valid UTF-8: column name "\xe9t\xe9"`, ErrEncoding},
		{"right-to-left override in a name (campaign 8 I08c)", "x1,cl\u202eass\n1,a\n", Options{}, `e.csv:1:4: col 2: column name holds a bidi control or other invisible (default-ignorable) character (U+202E) in "cl\u202eass": rename the column`, ErrHiddenName},
		{"zero-width space in a name", "x\u200b1,class\n1,a\n", Options{}, `e.csv:1:1: col 1: column name holds a bidi control or other invisible (default-ignorable) character (U+200B) in "x\u200b1": rename the column`, ErrHiddenName},
		{"soft hyphen in a quoted name", "a,\"b\u00adc\"\n1,2\n", Options{}, `e.csv:1:3: col 2: column name holds a bidi control or other invisible (default-ignorable) character (U+00AD) in "b\u00adc": rename the column`, ErrHiddenName},
		{"line too long", "a,b\n1,2\n" + strings.Repeat("3", 40) + "\n", Options{MaxLineBytes: 32}, `e.csv:3: syntax error: line longer than 32 bytes (a wrong delimiter, or no line breaks?)`, ErrSyntax},
		{"header too long", strings.Repeat("a", 33) + "\n1\n", Options{MaxLineBytes: 32}, `e.csv:1: syntax error: line longer than 32 bytes (a wrong delimiter, or no line breaks?)`, ErrSyntax},
		{"unknown override", "a,b\n1,2\n", Options{Categorical: []string{"b", "zz"}, Ignore: []string{"yy"}}, `e.csv:1: unknown column: options name "zz", "yy", not in the file`, ErrUnknownColumn},
		{"conflicting overrides", "a,b\n1,2\n", Options{Categorical: []string{"a"}, Numeric: []string{"a"}}, `e.csv: invalid options: column "a" is in both Categorical and Numeric`, ErrOptions},
		{"empty missing marker", "a\n1\n", Options{Missing: []string{""}}, `e.csv: invalid options: empty Missing marker (the empty field is always missing)`, ErrOptions},
		{"quote delimiter", "a\n1\n", Options{Delimiter: '"'}, `e.csv: invalid options: delimiter '"'`, ErrOptions},
		{"bare quote", "a,b\n1,x\"y\n", Options{}, `e.csv:2:4: syntax error: bare quote in an unquoted field`, ErrSyntax},
		{"unclosed quote", "a,b\n1,2\n3,\"abc\n4,5\n", Options{}, `e.csv:4:5: syntax error: quote not closed, or text after a closing quote (the quoted field starts on line 3)`, ErrSyntax},
		{"text after quote", "a,b\n1,\"x\"y\n", Options{}, `e.csv:2:5: syntax error: quote not closed, or text after a closing quote`, ErrSyntax},
		{"line after multi-line field", "a,b\n\"x\ny\",1\n\"z\",\n3\n", Options{}, "e.csv:5: wrong number of fields: row has 1, header has 2", ErrRagged},
		{"numeric after multi-line field", "a,b\n\"x\ny\",1\nz,w\n", Options{Numeric: []string{"b"}}, `e.csv:4:3: column "b" (col 2): not a number: "w"`, ErrNotNumeric},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb, err := ParseCSV(strings.NewReader(tc.in), "e.csv", tc.opt)
			if err == nil {
				t.Fatalf("no error; table has %d rows", tb.NumRows)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error\n got %s\nwant %s", err, tc.want)
			}
			if !errors.Is(err, tc.is) {
				t.Errorf("error %v does not wrap %v", err, tc.is)
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Source != "e.csv" {
				t.Errorf("error %T is not a *ParseError for e.csv", err)
			}
		})
	}
}

func TestWriteCSVRoundTrip(t *testing.T) {
	for _, in := range []string{
		"a,b,c\n1.25,x,3\n,\"y, z\",03\n-0.1,\"q\"\"\",\n",
		"n\n1e300\n5e-324\n0.1\n",
		"s,t\n\" lead\",\"multi\nline\"\nx,y\n",
	} {
		first, err := ParseCSV(strings.NewReader(in), "rt.csv", Options{})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := writeCSV(&buf, first); err != nil {
			t.Fatal(err)
		}
		var cats []string
		for _, c := range first.Columns {
			if c.Kind == Categorical {
				cats = append(cats, c.Name)
			}
		}
		second, err := ParseCSV(&buf, "rt2.csv", Options{Categorical: cats})
		if err != nil {
			t.Fatalf("re-reading %q: %v", buf.String(), err)
		}
		if !sameTable(first, second) {
			t.Errorf("round trip of %q changed the table; wrote %q", in, buf.String())
		}
	}
}

func TestWriteCSVSparse(t *testing.T) {
	tb, err := ParseLIBSVM(strings.NewReader("1 2:0.5\n2 1:1 3:-2\n"), "s.svm", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := writeCSV(&buf, tb); err != nil {
		t.Fatal(err)
	}
	if want := "label,f1,f2,f3\n1,0,0.5,0\n2,1,0,-2\n"; buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
}

// TestParseCSVMissingAndInfinite checks which texts are missing values
// and that infinite values are errors only in a column of numbers.
func TestParseCSVMissingAndInfinite(t *testing.T) {
	in := "x,y,word,n\n" +
		"1,NaN,inf,1\n" +
		"nan,2,Infinity,NAN\n" +
		"3, nan ,text,?\n" +
		",4,,2\n"
	tb, err := ParseCSV(strings.NewReader(in), "m.csv", Options{Missing: []string{"?"}, Numeric: []string{"n"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		col  string
		want []float64
	}{
		{"x", []float64{1, math.NaN(), 3, math.NaN()}},
		{"y", []float64{math.NaN(), 2, math.NaN(), 4}},
		{"n", []float64{1, math.NaN(), math.NaN(), 2}},
	} {
		if got := num(t, tb, tc.col); !sameFloats(got, tc.want) {
			t.Errorf("%s = %v, want %v", tc.col, got, tc.want)
		}
	}
	// "inf" in a column of text is a level like any other.
	vals, levels := cat(t, tb, "word")
	if !sameStrings(vals, []string{"inf", "Infinity", "text", ""}) || !sameStrings(levels, []string{"inf", "Infinity", "text"}) {
		t.Errorf("word = %q, levels %q", vals, levels)
	}
	if err := checkTable(tb); err != nil {
		t.Error(err)
	}
}

// endlessLine reads n bytes of one line of numbers and commas without
// holding them in memory.
type endlessLine struct{ n int }

func (l *endlessLine) Read(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, io.EOF
	}
	k := min(len(p), l.n)
	for i := range p[:k] {
		p[i] = "1234567,"[i%8]
	}
	l.n -= k
	return k, nil
}

// TestParseCSVLongLineBoundedMemory rejects a 50 MB line while allocating
// a small multiple of the line bound, not of the line (1.36 GB before the
// bound).
func TestParseCSVLongLineBoundedMemory(t *testing.T) {
	const lineBytes = 50 << 20
	const maxAlloc = 3 * DefaultMaxLineBytes
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := ParseCSV(io.MultiReader(strings.NewReader("a,b\n1,2\n"), &endlessLine{n: lineBytes}), "long.csv", Options{})
	runtime.ReadMemStats(&after)
	want := fmt.Sprintf("long.csv:3: syntax error: line longer than %d bytes", DefaultMaxLineBytes)
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error %v, want %s…", err, want)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > maxAlloc {
		t.Errorf("rejecting a %d MB line allocated %d MB, want at most %d MB", lineBytes>>20, alloc>>20, maxAlloc>>20)
	} else {
		t.Logf("rejecting a %d MB line allocated %.1f MB", lineBytes>>20, float64(alloc)/(1<<20))
	}
}

// formWarning is the text of the mixed-column warning of a column of
// numbers in a written form the reader does not take, at mem.csv:at,
// naming value ex of data row row.
func formWarning(at, column, ex string, row int, form string, nums, values int, tally, num string) string {
	return fmt.Sprintf(`mem.csv:%s: column %s: mostly numbers, read as categorical: %q (data row %d) is a number written with %s, read as text; %d of the column's %d values are numbers when such forms count (%s): the reader takes plain numbers only (a decimal point, no thousands separator, no unit sign), so the column stays categorical, one level per distinct value; write %q, not %q, before loading, or list the column in categorical to keep it categorical without this warning`,
		at, column, ex, row, form, nums, values, tally, num, ex)
}

// TestParseCSVMixedColumnWarning: a column read as categorical because of
// text among more numbers than not gets one warning (ErrMixedColumn) at
// its first text value, with the counts; a column of more text than
// numbers, a declared one and a numeric one get none.
func TestParseCSVMixedColumnWarning(t *testing.T) {
	semi := Options{Delimiter: ';'}
	for _, tc := range []struct {
		name, in string
		opt      Options
		want     []string // the warnings' texts, in column order
	}{
		{"typo in numbers", "a,b\n1,x\n2,y\n3.5,z\n, w\nab c,v\n7,u\n", Options{},
			[]string{`mem.csv:6:1: column "a" (col 1): mostly numbers, read as categorical: "ab c" (data row 5) is not a number, yet 4 of the column's 5 values are: list the column in numeric to make such a value an error, or in categorical to keep it categorical without this warning`}},
		{"text first", "a\nn/a\n1\n2\n", Options{},
			[]string{`mem.csv:2:1: column "a" (col 1): mostly numbers, read as categorical: "n/a" (data row 1) is not a number, yet 2 of the column's 3 values are: list the column in numeric to make such a value an error, or in categorical to keep it categorical without this warning`}},
		{"as many words as numbers", "a\n1\nx\n2\ny\n", Options{}, nil},
		{"declared categorical", "a\n1\n2\nx\n", Options{Categorical: []string{"a"}}, nil},
		{"all numbers", "a\n1\n2\n3\n", Options{}, nil},
		{"quoted text in a later column", "k,a\n1,\"x\"\n2,2\n3,3\n", Options{},
			[]string{`mem.csv:2:3: column "a" (col 2): mostly numbers, read as categorical: "x" (data row 1) is not a number, yet 2 of the column's 3 values are: list the column in numeric to make such a value an error, or in categorical to keep it categorical without this warning`}},
		// Numbers in a written form the reader does not take: the
		// warning names the first, with what to write instead, and
		// tallies the forms. Decimal commas: no value but "3" is a
		// number as written, each is one once its comma is a point.
		{"decimal commas", "a;b;c\n5,1;x;3\n4,9;y;3,5\n3;z;-0,25\n", semi,
			[]string{`mem.csv:2:1: column "a" (col 1): mostly numbers, read as categorical: "5,1" (data row 1) is a number written with a decimal comma, read as text; 3 of the column's 3 values are numbers when such forms count (2 with a decimal comma): the reader takes plain numbers only (a decimal point, no thousands separator, no unit sign), so the column stays categorical, one level per distinct value; write "5.1", not "5,1", before loading, or list the column in categorical to keep it categorical without this warning`,
				formWarning("3:7", `"c" (col 3)`, "3,5", 2, "a decimal comma", 3, 3, "2 with a decimal comma", "3.5")}},
		{"a decimal comma among text", "a;b\n5,1;x\nlow;y\nhigh;z\n", semi, nil},
		// Points between thousands beside a decimal comma, or between the
		// thousands of a whole number (two at least): numbers as written
		// in continental Europe. Two commas are text.
		{"thousands points and a decimal comma", "a;b\n1.234,5;x\n1,2,3;y\n4;z\n12.345.678;w\n", semi,
			[]string{formWarning("2:1", `"a" (col 1)`, "1.234,5", 1, "points between thousands and a decimal comma", 3, 4, "1 with points between thousands and a decimal comma, 1 with points between thousands", "1234.5")}},
		{"points not between thousands", "a;b\n1.23,5;x\n12.3456,7;y\n1,2,3;z\n", semi, nil},
		{"quoted decimal comma in a comma-separated file", "k,a\n1,\"1,5\"\n2,2\n3,3\n", Options{},
			[]string{formWarning("2:3", `"a" (col 2)`, "1,5", 1, "a decimal comma", 3, 3, "1 with a decimal comma", "1.5")}},
		// Other thousands separators, as spreadsheets in other locales
		// format prices; each kind warns. The warning names the first
		// value of the most marks ("1 212,75", not "906,72").
		{"spaces between thousands", "p;k\n906,72;1\n1 212,75;4\n1 538,05;4\n", semi,
			[]string{formWarning("3:1", `"p" (col 1)`, "1 212,75", 2, "spaces between thousands and a decimal comma", 3, 3, "1 with a decimal comma, 2 with spaces between thousands and a decimal comma", "1212.75")}},
		{"no-break spaces between thousands", "p;k\n1\u00a0212,75;4\n1\u00a0538,05;4\n932,58;2\n", semi,
			[]string{formWarning("2:1", `"p" (col 1)`, "1\u00a0212,75", 1, "no-break spaces (U+00A0) between thousands and a decimal comma", 3, 3, "2 with no-break spaces (U+00A0) between thousands and a decimal comma, 1 with a decimal comma", "1212.75")}},
		{"narrow no-break spaces between thousands", "p;k\n1\u202f212,75;4\n906;1\n", semi,
			[]string{formWarning("2:1", `"p" (col 1)`, "1\u202f212,75", 1, "narrow no-break spaces (U+202F) between thousands and a decimal comma", 2, 2, "1 with narrow no-break spaces (U+202F) between thousands and a decimal comma", "1212.75")}},
		{"apostrophes between thousands", "p;k\n906.72;1\n1'212.75;4\n1\u2019538.05;4\n", semi,
			[]string{formWarning("3:1", `"p" (col 1)`, "1'212.75", 2, "apostrophes between thousands", 3, 3, "1 with apostrophes between thousands, 1 with apostrophes (U+2019) between thousands", "1212.75")}},
		{"commas between thousands", "p;k\n906.72;1\n1,212.75;4\n1,538.05;4\n", semi,
			[]string{formWarning("3:1", `"p" (col 1)`, "1,212.75", 2, "commas between thousands", 3, 3, "2 with commas between thousands", "1212.75")}},
		{"quoted commas between thousands in a comma-separated file", "p,k\r\n906.72,1\r\n\"1,212.75\",4\r\n\"1,538.05\",4\r\n", Options{},
			[]string{formWarning("3:1", `"p" (col 1)`, "1,212.75", 2, "commas between thousands", 3, 3, "2 with commas between thousands", "1212.75")}},
		// Whole numbers with spaces between thousands count, even where
		// they could be codes ("1 000" as a postcode): list such a column
		// in categorical.
		{"whole numbers with spaces between thousands", "p\n1 000\n25 000\n3 500\n", Options{},
			[]string{formWarning("2:1", `"p" (col 1)`, "1 000", 1, "spaces between thousands", 3, 3, "3 with spaces between thousands", "1000")}},
		// Unit signs: a percent sign after the digits, a currency sign
		// before or after them, a minus sign allowed.
		{"percent and currency signs", "a,b,c\n14%,$0.2,3 €\n13%,-$0.4,-2 €\n-1.5%,£7,¥8\n", Options{},
			[]string{formWarning("2:1", `"a" (col 1)`, "14%", 1, "a percent sign", 3, 3, "3 with a percent sign", "14"),
				formWarning("2:5", `"b" (col 2)`, "$0.2", 1, "a currency sign", 3, 3, "3 with a currency sign", "0.2"),
				formWarning("2:10", `"c" (col 3)`, "3 €", 1, "a currency sign", 3, 3, "3 with a currency sign", "3")}},
		{"a currency sign and commas between thousands", "p\n\"$1,212.75\"\n$906.72\n", Options{},
			[]string{formWarning("2:1", `"p" (col 1)`, "$1,212.75", 1, "a currency sign and commas between thousands", 2, 2, "1 with a currency sign and commas between thousands, 1 with a currency sign", "1212.75")}},
		// The warning names the first number so written, at its place,
		// not the text that turned the column.
		{"text before the first such number", "k,a\n1,n/a\n2,1 212\n3,3\n4,4\n", Options{},
			[]string{formWarning("3:3", `"a" (col 2)`, "1 212", 2, "spaces between thousands", 3, 4, "1 with spaces between thousands", "1212")}},
		// Near misses: 2 numbers and 2 other values, a warning if the
		// others counted as numbers.
		{"groups of other than three digits", "a;b;c;d\n1;1;1;1\n2;2;2;2\n12 3;1'2;1,2,3;1 2345\n4 56;1'2345;12,34.5;1.23,4\n", semi, nil},
		{"unit signs alone, misplaced or doubled", "a;b;c;d;e\n1;1;1;1;1\n2;2;2;2;2\n%;$;%14;$$5;--5%\n% ;€;5%%;$5%;-$-5\n", semi, nil},
		{"codes of a letter and a digit", "a\nA1\nB2\n1\n2\n", Options{}, nil},
		// The minus sign U+2212 and a Fortran D exponent: a column all
		// of such numbers (log-likelihoods) warns, naming one value.
		{"minus signs U+2212", "a,b\n\u22120.2,1.5D-03\n\u22121.4,2.000D-01\n\u22120.3,-1.5d+02\n", Options{},
			[]string{formWarning("2:1", `"a" (col 1)`, "\u22120.2", 1, "a minus sign (U+2212)", 3, 3, "3 with a minus sign (U+2212)", "-0.2"),
				formWarning("2:8", `"b" (col 2)`, "1.5D-03", 1, "a Fortran D exponent", 3, 3, "3 with a Fortran D exponent", "1.5e-03")}},
		// Other minus signs (an en dash from autocorrection, a full-width
		// hyphen-minus) and full-width digits: counted, naming one value.
		{"en dashes and full-width digits", "a,b\n\u20130.2,\uff10\uff0e\uff12\n\u20121.4,\uff0d\uff11\n0.3,\uff13\n", Options{},
			[]string{formWarning("2:1", `"a" (col 1)`, "\u20130.2", 1, "an en dash (U+2013)", 3, 3, "1 with an en dash (U+2013), 1 with a figure dash (U+2012)", "-0.2"),
				formWarning("3:8", `"b" (col 2)`, "\uff0d\uff11", 2, "full-width digits (U+FF10-U+FF19) and a full-width hyphen-minus (U+FF0D)", 3, 3, "2 with full-width digits (U+FF10-U+FF19), 1 with full-width digits (U+FF10-U+FF19) and a full-width hyphen-minus (U+FF0D)", "-1")}},
		// A unit word or a currency code on every value.
		{"unit words and currency codes", "a,b\n1.4 cm,USD 1.4\n1.5 cm,USD 2\n3 mm,EUR -3\n", Options{},
			[]string{formWarning("2:1", `"a" (col 1)`, "1.4 cm", 1, "a unit word", 3, 3, "3 with a unit word", "1.4"),
				formWarning("2:8", `"b" (col 2)`, "USD 1.4", 1, "a currency code", 3, 3, "3 with a currency code", "1.4")}},
		// A unit word with no space counts when most values have it; as
		// codes on a few values ("3A", "12B") it does not. The value named
		// is one with the unit, not always the first (a majority vote).
		{"unit words with no space", "a;b;c\n1.4cm;1;3A\n1.5cm;1.4cm;1.4cm\n3cm;1.5cm;1.5cm\n;2cm;1.6cm\n", semi,
			[]string{formWarning("2:1", `"a" (col 1)`, "1.4cm", 1, "a unit word with no space", 3, 3, "3 with a unit word with no space", "1.4"),
				formWarning("4:5", `"b" (col 2)`, "1.5cm", 3, "a unit word with no space", 4, 4, "3 with a unit word with no space", "1.5"),
				formWarning("4:11", `"c" (col 3)`, "1.5cm", 3, "a unit word with no space", 3, 4, "3 with a unit word with no space", "1.5")}},
		{"units with no space on half the values or fewer", "a;b\n1cm;1\n2mm;2\n3kg;3A\n4;12B\n", semi, nil},
		// Spreadsheet forms on every value: each warns, naming the
		// number meant.
		{"spreadsheet forms", "a;b;c;d\n(1.4);'1.4;1.4-;=1.4\n(2);'2;2-;=2\n", semi,
			[]string{formWarning("2:1", `"a" (col 1)`, "(1.4)", 1, "accounting parentheses (a negative number)", 2, 2, "2 with accounting parentheses (a negative number)", "-1.4"),
				formWarning("2:7", `"b" (col 2)`, "'1.4", 1, "a leading apostrophe (a spreadsheet's mark of text)", 2, 2, "2 with a leading apostrophe (a spreadsheet's mark of text)", "1.4"),
				formWarning("2:12", `"c" (col 3)`, "1.4-", 1, "a trailing minus", 2, 2, "2 with a trailing minus", "-1.4"),
				formWarning("2:17", `"d" (col 4)`, "=1.4", 1, "a formula sign", 2, 2, "2 with a formula sign", "1.4")}},
		// White space other than spaces around the number, digits of
		// another script, an approximation sign, an uncertainty, a
		// footnote mark, a hexadecimal float, a space after the sign:
		// each warns, naming the number meant.
		{"pasted and published forms", "a;b;c;d;e;f;g\n1.4\u00a0;\u0661\u066b\u0664;~1.4;1.4 \u00b1 0.1;1.4*;0x1.8p+0;+ 1.4\n\u20092;\u0662;~2;2 \u00b1 0.2;2\u2020;0x1p+1;- 2\n", semi,
			[]string{formWarning("2:1", `"a" (col 1)`, "1.4\u00a0", 1, "white space other than a space (U+00A0) around it", 2, 2, "1 with white space other than a space (U+00A0) around it, 1 with white space other than a space (U+2009) around it", "1.4"),
				formWarning("2:7", `"b" (col 2)`, "\u0661\u066b\u0664", 1, "digits of another script (U+0660-U+0669)", 2, 2, "2 with digits of another script (U+0660-U+0669)", "1.4"),
				formWarning("2:14", `"c" (col 3)`, "~1.4", 1, "an approximation sign", 2, 2, "2 with an approximation sign", "1.4"),
				formWarning("2:19", `"d" (col 4)`, "1.4 \u00b1 0.1", 1, "an uncertainty after it (\u00b1)", 2, 2, "2 with an uncertainty after it (\u00b1)", "1.4"),
				formWarning("2:30", `"e" (col 5)`, "1.4*", 1, "a footnote mark", 2, 2, "2 with a footnote mark", "1.4"),
				formWarning("2:35", `"f" (col 6)`, "0x1.8p+0", 1, "a hexadecimal float", 2, 2, "2 with a hexadecimal float", "1.5"),
				formWarning("2:44", `"g" (col 7)`, "+ 1.4", 1, "a space after the sign", 2, 2, "2 with a space after the sign", "+1.4")}},
		{"grades, flat numbers, words", "a;b;c\n1;1;1\n2;2;2\n3A;1.4cm;Grade 3\n12B;1.4 metres;usd 1.4\n", semi, nil},
		{"codes with a D, dashes", "a;b\n1;1\n2;2\n12D4;\u2212\n3D;1\u22122\n", semi, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb, err := ParseCSV(strings.NewReader(tc.in), "mem.csv", tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range tb.Warnings {
				if !errors.Is(w, ErrMixedColumn) {
					t.Errorf("warning %v does not wrap ErrMixedColumn", w)
				}
				got = append(got, w.Error())
			}
			if !sameStrings(got, tc.want) {
				t.Errorf("warnings:\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// TestUnknownColumnsError: the names a file lacks come with their option
// list and the file's columns (LIBSVM's label column; its numbered
// features are not named), in an error that is ErrUnknownColumn.
func TestUnknownColumnsError(t *testing.T) {
	opt := Options{Categorical: []string{"b", "zz"}, Numeric: []string{"q"}, Ignore: []string{"yy"}}
	want := []UnknownColumn{{"zz", CategoricalList, ""}, {"q", NumericList, ""}, {"yy", IgnoreList, ""}}
	for _, tt := range []struct {
		name, src string
		parse     func(io.Reader, string, Options) (*Table, error)
		unknown   []UnknownColumn
		columns   []string
	}{
		{"csv", "a,b\n1,2\n", ParseCSV, want, []string{"a", "b"}},
		{"arff", "@relation r\n@attribute a numeric\n@attribute b {x,y}\n@data\n1,x\n", ParseARFF, want, []string{"a", "b"}},
		{"libsvm", "1 1:1\n", ParseLIBSVM, append([]UnknownColumn{{"b", CategoricalList, ""}}, want...), []string{"label"}},
	} {
		_, err := tt.parse(strings.NewReader(tt.src), "e", opt)
		var e *UnknownColumnsError
		if !errors.As(err, &e) || !errors.Is(err, ErrUnknownColumn) {
			t.Fatalf("%s: error %v, want an *UnknownColumnsError", tt.name, err)
		}
		if !slices.Equal(e.Unknown, tt.unknown) || !slices.Equal(e.Columns, tt.columns) {
			t.Errorf("%s: %+v, want %v, columns %v", tt.name, e, tt.unknown, tt.columns)
		}
	}
	if got := fmt.Sprint(NumericList, IgnoreList, OptionList(7)); got != "Numeric Ignore OptionList(7)" {
		t.Errorf("OptionList strings %q", got)
	}
}

// TestUnknownColumnHints: each name a file lacks comes with the columns
// it may mean, as suggest.DidYouMean words them, or none.
func TestUnknownColumnHints(t *testing.T) {
	for _, tt := range []struct {
		name, header string // header: "" for the default
		opt          Options
		want         UnknownColumn
	}{
		{"close to one column", "", Options{Categorical: []string{"clas"}}, UnknownColumn{"clas", CategoricalList, ` (did you mean "class"?)`}},
		{"close to two columns", "", Options{Numeric: []string{"petal"}}, UnknownColumn{"petal", NumericList, ` (did you mean "petal_a" or "petal_b"?)`}},
		{"close to none", "", Options{Ignore: []string{"zzz"}}, UnknownColumn{"zzz", IgnoreList, ""}},
		// Quotes around a name, as a word processor writes them, are
		// folded as blanks are.
		{"curly quotes", "\u201cpetal\u201d,\u201cclass\u201d", Options{Categorical: []string{"class"}}, UnknownColumn{"class", CategoricalList, " (did you mean \"\u201cclass\u201d\"?)"}},
		{"a leading blank", "petal, class", Options{Categorical: []string{"class"}}, UnknownColumn{"class", CategoricalList, ` (did you mean " class"?)`}},
	} {
		header := cmp.Or(tt.header, "petal_a,petal_b,class")
		_, err := ParseCSV(strings.NewReader(header+"\n1,2\n"), "h.csv", tt.opt)
		var e *UnknownColumnsError
		if !errors.As(err, &e) || len(e.Unknown) != 1 || e.Unknown[0] != tt.want {
			t.Errorf("%s: error %v (%+v), want %+v", tt.name, err, e, tt.want)
		}
	}
}

// TestUnknownColumnsFormat: the *UnknownColumnsError of Read names the
// format of the file, as FormatName does (the ARFF file of a multi-label
// dataset without a target is told from the others by it).
func TestUnknownColumnsFormat(t *testing.T) {
	dir := t.TempDir()
	opt := Options{Categorical: []string{"zz"}}
	for _, tt := range []struct{ file, src, format string }{
		{"d.csv", "a,b\n1,2\n", "csv"},
		{"d.tsv", "a\tb\n1\t2\n", "tsv"},
		{"d.arff", "@relation r\n@attribute a numeric\n@data\n1\n", "arff"},
		{"d.libsvm", "1 1:1\n", "libsvm"},
	} {
		path := filepath.Join(dir, tt.file)
		if err := os.WriteFile(path, []byte(tt.src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Read(path, opt)
		var e *UnknownColumnsError
		if !errors.As(err, &e) {
			t.Fatalf("%s: error %v, want an *UnknownColumnsError", tt.file, err)
		}
		if e.Format != tt.format || e.Format != FormatName(path) {
			t.Errorf("%s: format %q, want %q", tt.file, e.Format, tt.format)
		}
	}
}

// TestWrittenNumber: the numbers that the mixed-column warning counts as
// written in a form the reader does not take (decimal comma, thousands
// separators, unit signs), each with the number it reads and its form,
// and the near misses it does not count (num "": not such a number).
func TestWrittenNumber(t *testing.T) {
	const (
		comma   = "a decimal comma"
		points  = "points between thousands"
		commas  = "commas between thousands"
		spaces  = "spaces between thousands"
		pct     = "a percent sign"
		cur     = "a currency sign"
		minus   = "a minus sign (U+2212)"
		fortran = "a Fortran D exponent"
		word    = "a unit word"
		code    = "a currency code"
		wide    = "full-width digits (U+FF10-U+FF19)"
		noSpace = "a unit word with no space"
		paren   = "accounting parentheses (a negative number)"
		apos    = "a leading apostrophe (a spreadsheet's mark of text)"
		trail   = "a trailing minus"
		formula = "a formula sign"
		arabic  = "digits of another script (U+0660-U+0669)"
		nbsp    = "white space other than a space (U+00A0) around it"
		thin    = "white space other than a space (U+2009) around it"
		foot    = "a footnote mark"
		pm      = "an uncertainty after it (\u00b1)"
		approx  = "an approximation sign"
		spaced  = "a space after the sign"
		hex     = "a hexadecimal float"
	)
	for _, tc := range []struct{ s, num, form string }{
		// Decimal comma, points between thousands (continental Europe).
		{"5,1", "5.1", comma}, {"-0,25", "-0.25", comma}, {",5", ".5", comma}, {"1,", "1.", comma},
		{"1,2", "1.2", comma}, {"1,212", "1.212", comma},
		{"1.254,88", "1254.88", points + " and " + comma}, {"-12.345,6", "-12345.6", points + " and " + comma},
		{"12.345.678", "12345678", points}, {"1.000.000,5", "1000000.5", points + " and " + comma},
		// Other thousands separators, beside a decimal point or comma.
		{"1,212.75", "1212.75", commas}, {"-1,234,567", "-1234567", commas}, {"1,212.", "1212.", commas},
		{"1 212,75", "1212.75", spaces + " and " + comma}, {"1 212.75", "1212.75", spaces},
		{"1 000", "1000", spaces}, {"12 345 678", "12345678", spaces},
		{"1\u00a0212,75", "1212.75", "no-break spaces (U+00A0) between thousands and " + comma},
		{"1\u202f212,75", "1212.75", "narrow no-break spaces (U+202F) between thousands and " + comma},
		{"1'212.75", "1212.75", "apostrophes between thousands"}, {"1'212,75", "1212.75", "apostrophes between thousands and " + comma},
		{"1\u2019212.75", "1212.75", "apostrophes (U+2019) between thousands"},
		// Unit signs, leading or trailing, with a sign before or after.
		{"14%", "14", pct}, {" 14% ", "14", pct}, {"-2.5%", "-2.5", pct}, {"14 %", "14", pct}, {"14\u00a0%", "14", pct}, {"1e3%", "1e3", pct},
		{"$0.2", "0.2", cur}, {"-$0.2", "-0.2", cur}, {"$-0.2", "-0.2", cur}, {"€3", "3", cur}, {"3 €", "3", cur},
		{"-3 €", "-3", cur}, {"£12", "12", cur}, {"¥1000", "1000", cur}, {"3,50 €", "3.50", cur + " and " + comma},
		{"$1,212.75", "1212.75", cur + " and " + commas}, {"1 212,75 €", "1212.75", cur + ", " + spaces + " and " + comma},
		{"12,5 %", "12.5", pct + " and " + comma},
		// The minus sign U+2212 (word processors, PDF copies, some
		// locales' number formats) and a Fortran D exponent.
		{"\u22120.2", "-0.2", minus}, {" \u22121,5 ", "-1.5", minus + " and " + comma}, {"\u2212$0.2", "-0.2", minus + " and " + cur},
		{"$\u22120.2", "-0.2", minus + " and " + cur}, {"\u22121 212,75 €", "-1212.75", minus + ", " + cur + ", " + spaces + " and " + comma},
		{"\u22122.5%", "-2.5", minus + " and " + pct},
		{"2.000D-01", "2.000e-01", fortran}, {"1.5D-03", "1.5e-03", fortran}, {"-1.5d+02", "-1.5e+02", fortran}, {"1.5D3", "1.5e3", fortran},
		// A unit word after the number (one to three ASCII letters, a
		// space or U+00A0 between) or a currency code before it (three
		// capital letters and a space).
		{"1.4 cm", "1.4", word}, {"1.4\u00a0cm", "1.4", word}, {"-3 kg", "-3", word}, {"12 m", "12", word}, {"1.4 USD", "1.4", word},
		{"1,4 cm", "1.4", word + " and " + comma}, {"1 212,75 EUR", "1212.75", word + ", " + spaces + " and " + comma},
		{"\u22121.4 cm", "-1.4", minus + " and " + word}, {" 1.4 cm ", "1.4", word},
		{"USD 1.4", "1.4", code}, {"USD\u00a01.4", "1.4", code}, {"USD -1.4", "-1.4", code}, {"-USD 1.4", "-1.4", code},
		{"EUR 1.212,75", "1212.75", code + ", " + points + " and " + comma},
		// Other minus signs (autocorrected dashes, East Asian input
		// methods) and full-width digits and full stops (NFKC).
		{"\u20120.2", "-0.2", "a figure dash (U+2012)"}, {"\u20130.2", "-0.2", "an en dash (U+2013)"},
		{"\ufe630.2", "-0.2", "a small hyphen-minus (U+FE63)"}, {"\uff0d0.2", "-0.2", "a full-width hyphen-minus (U+FF0D)"},
		{"\u20131,5 cm", "-1.5", "an en dash (U+2013), a unit word and " + comma},
		{"\uff10\uff0e\uff12", "0.2", wide}, {"\uff11\uff12", "12", wide}, {"\uff0d\uff10\uff0e\uff12", "-0.2", wide + " and a full-width hyphen-minus (U+FF0D)"},
		{"1\uff0e5", "1.5", wide}, {"\uff11,5 %", "1.5", wide + ", " + pct + " and " + comma},
		{"\u2013", "", ""}, {"1\u20132", "", ""}, {"\u2013\u20131", "", ""}, {"-\u20131", "", ""}, {"\u2014 1", "", ""}, {"\u20141", "", ""},
		{"A\uff11", "", ""}, {"\uff21\uff11", "", ""}, {"\uff0e", "", ""}, {"\uff11\uff0e\uff12\uff0e\uff13", "", ""},
		{".5D0", ".5e0", fortran}, {"1.D2", "1.e2", fortran}, {"\u22121.5D-03", "-1.5e-03", minus + " and " + fortran},
		// A unit word with no space (one to three ASCII letters right
		// after the number): counted here, and by the column only when
		// most of its values have the same one (codes such as "3A").
		{"1.4cm", "1.4", noSpace}, {"-3kg", "-3", noSpace}, {" 12m ", "12", noSpace}, {"1,4cm", "1.4", noSpace + " and " + comma},
		{"3A", "3", noSpace}, {"12B", "12", noSpace}, {"3D", "3", noSpace}, {"1.5D", "1.5", noSpace}, {"1.CM", "1.", noSpace},
		{"1.4cmss", "", ""}, {"1e3cm", "", ""}, {"1.5D3D", "", ""}, {"cm", "", ""}, {"1.4c2", "", ""}, {"1.4é", "", ""}, {"A1cm", "", ""},
		// Spreadsheet forms: accounting negatives, a leading apostrophe
		// (text-forced), a trailing minus, a formula; near misses.
		{"(1.4)", "-1.4", paren}, {" (1,212.75) ", "-1212.75", paren + " and " + commas}, {"($0.2)", "-0.2", paren + " and " + cur},
		{"'1.4", "1.4", apos}, {"'-1.4", "-1.4", apos}, {"'1,5", "1.5", apos + " and " + comma},
		{"1.4-", "-1.4", trail}, {"1,234.56-", "-1234.56", trail + " and " + commas}, {"14%-", "-14", trail + " and " + pct},
		{"=1.4", "1.4", formula}, {"=-1.4", "-1.4", formula}, {"=\u22121.4", "-1.4", formula + " and " + minus},
		{"(-1.4)", "", ""}, {"(\u22121.4)", "", ""}, {"-1.4-", "", ""}, {"()", "", ""}, {"(1.4", "", ""}, {"1.4)", "", ""},
		{"'", "", ""}, {"=", "", ""}, {"''1.4", "", ""}, {"=1+2", "", ""}, {"=A1", "", ""}, {"(3A)", "", ""}, {"1.4--", "", ""},
		{"((1.4))", "", ""}, {"'(1.4)", "", ""}, {"=(1.4)", "", ""},
		// Digits of other scripts (Unicode category Nd) and the Arabic
		// decimal and thousands separators; white space other than
		// spaces around a number, as spreadsheets and web pages paste it.
		{"\u0661\u066b\u0664", "1.4", arabic}, {"\u0661\u0662", "12", arabic}, {"1\u066b4", "1.4", arabic},
		{"\u0661\u066c\u0662\u0663\u0664\u066b\u0665", "1234.5", arabic + " and Arabic thousands separators (U+066C) between thousands"},
		{"\u06f1.\u06f4", "1.4", "digits of another script (U+06F0-U+06F9)"}, {"\u0967.\u096a", "1.4", "digits of another script (U+0966-U+096F)"},
		{"\U0001d7d9.\U0001d7dc", "1.4", "digits of another script (U+1D7D8-U+1D7E1)"}, {"\u2212\u0661", "-1", arabic + " and " + minus},
		{"1.4\u00a0", "1.4", nbsp}, {"\u00a01.4", "1.4", nbsp}, {"1.4\u2009", "1.4", thin}, {" \u00a01.4\u2009 ", "1.4", nbsp},
		{"\u00a01,5\u00a0", "1.5", nbsp + " and " + comma}, {"\u00a0", "", ""}, {"\u00a0abc1", "", ""}, {"1\u00a02", "", ""},
		// Footnote marks, uncertainties, approximation signs, a space
		// after the sign, hexadecimal floats.
		{"1.4*", "1.4", foot}, {"1.4**", "1.4", foot}, {"1.4 *", "1.4", foot}, {"0.93\u2020", "0.93", foot}, {"-12\u2021", "-12", foot},
		{"(1.4)*", "-1.4", paren + " and " + foot}, {"1,4*", "1.4", comma + " and " + foot},
		{"1.4 \u00b1 0.1", "1.4", pm}, {"1.4\u00b10.1", "1.4", pm}, {"1,4 \u00b1 0,1", "1.4", comma + " and " + pm}, {"1.4 +/- 0.1", "1.4", pm},
		{"-1.4 \u00b1 2e-3", "-1.4", pm}, {"~1.4", "1.4", approx}, {"~ 1.4", "1.4", approx}, {"\u22481.4", "1.4", approx},
		{"\u223c-1.4", "-1.4", approx}, {"~1,4 \u00b1 0,1", "1.4", approx + ", " + comma + " and " + pm},
		{"+ 1.4", "+1.4", spaced}, {"- 1.4", "-1.4", spaced}, {"\u2212 1.4", "-1.4", minus + " and " + spaced},
		{"0x1.6666666666666p+0", "1.4", hex}, {"-0x1.8p1", "-3", hex}, {"0X1P-2", "0.25", hex},
		{"*", "", ""}, {"1*2", "", ""}, {"*1.4", "", ""}, {"1.4 \u00b1", "", ""}, {"\u00b1 0.1", "", ""}, {"1.4 \u00b1 -0.1", "", ""},
		{"1.4 \u00b1 abc", "", ""}, {"1.4 \u00b1 0.1 \u00b1 0.2", "", ""}, {"~", "", ""}, {"~~1.4", "", ""}, {"1.4~", "", ""},
		{"+  ", "", ""}, {"+ ", "", ""}, {"- -1.4", "", ""}, {"0x10", "", ""}, {"0x1p99999", "", ""}, {"0xg.1p0", "", ""}, {"x1p0", "", ""},
		// Numbers as written: not counted here.
		{"5.1", "", ""}, {"1.201", "", ""}, {"+1.234", "", ""}, {"-7", "", ""}, {" 5 ", "", ""}, {"1e3", "", ""},
		// Near misses: groups of other than three digits, misplaced or
		// lone signs, two signs, text.
		{"1,2,3", "", ""}, {"1.23,5", "", ""}, {"12.3456,7", "", ""}, {"1.234.5", "", ""}, {"1.2.3,4", "", ""},
		{"1,5.0", "", ""}, {"12,34.5", "", ""}, {"1,2345", "1.2345", comma}, {"12 3", "", ""}, {"1 2345", "", ""},
		{"1'2", "", ""}, {"1'2345", "", ""}, {" 212", "", ""}, {"1 212 ,5", "", ""}, {"1 234\u00a0567", "", ""},
		{"%", "", ""}, {"$", "", ""}, {"-", "", ""}, {",", "", ""}, {"%14", "", ""}, {"$$5", "", ""}, {"5$$", "", ""},
		{"$5%", "", ""}, {"--5%", "", ""}, {"-$-5", "", ""}, {"$inf", "", ""}, {"nan%", "", ""}, {"1e999%", "", ""},
		{"A1", "", ""}, {"B2", "", ""}, {"abc", "", ""}, {"", "", ""}, {"0x10%", "", ""}, {"1_000", "", ""},
		// Near misses of a minus sign or a D exponent: lone or doubled
		// signs, a minus sign inside, a D without a decimal point or an
		// exponent (codes such as "12D4", "3D"), an exponent not whole.
		{"\u2212", "", ""}, {"\u2212\u22121", "", ""}, {"-\u22121", "", ""}, {"\u2212-1", "", ""}, {"1\u22122", "", ""}, {"1\u2212", "", ""},
		{"\u2212abc", "", ""}, {"\u2212inf", "", ""},
		{"12D4", "", ""}, {"D-03", "", ""}, {".D3", "", ""}, {"1.5D-", "", ""}, {"1.5D-0.3", "", ""},
		// Near misses of a unit word or a currency code: no space
		// (flat numbers, grades: "3A", "12B"), two spaces, longer or
		// other words, a code not of three capitals, two units.
		{"USD1.4", "", ""}, {"1.4  cm", "", ""}, {"USD  1.4", "", ""},
		{"1.4 cmss", "", ""}, {"1.4 metres", "", ""}, {"1.4 c2", "", ""}, {"1.4 é", "", ""}, {"1.4 c m", "", ""},
		{"usd 1.4", "", ""}, {"Usd 1.4", "", ""}, {"US 1.4", "", ""}, {"USDX 1.4", "", ""}, {"cm 1.4", "", ""}, {"Grade 3", "", ""},
		{"$1.4 USD", "", ""}, {"USD $1.4", "", ""}, {"USD 1.4 cm", "", ""}, {"1.4 cm %", "", ""}, {"USD", "", ""}, {" cm", "", ""},
		{"1 2 cm", "", ""}, {"A 1", "", ""}, {"USD inf", "", ""}, {"USD 12D4", "", ""},
		{"1.5DD3", "", ""}, {"1.5D3D", "", ""}, {"1,5D-03", "", ""}, {"1.5E-03", "", ""}, {"1.5D-999", "", ""}, {"1.5 D3", "", ""},
	} {
		num, marks := writtenNumber(tc.s)
		if form := markList(marks); num != tc.num || form != tc.form {
			t.Errorf("writtenNumber(%q) = %q, %q, want %q, %q", tc.s, num, form, tc.num, tc.form)
		}
	}
}
