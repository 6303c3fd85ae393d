package data

import (
	"bytes"
	"encoding/csv"
	"errors"
	"math"
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
	if err := tb.Validate(); err != nil {
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
	if got := tb.Names(); !sameStrings(got, []string{"soil", "score", "note"}) {
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
		{"duplicate header", "a,b,a\n1,2,3\n", Options{}, `e.csv:1: column "a" (col 3): duplicate column name (first at col 1)`, ErrDuplicateColumn},
		{"empty header name", "a,,c\n1,2,3\n", Options{}, "e.csv:1: col 2: syntax error: empty column name", ErrSyntax},
		{"not numeric", "a,safety\n1,2\n2,3\n3,high\n", Options{Numeric: []string{"safety"}}, `e.csv:4: column "safety" (col 2): not a number: "high"`, ErrNotNumeric},
		{"infinity is not numeric", "a\n1\nInf\n", Options{Numeric: []string{"a"}}, `e.csv:3: column "a" (col 1): not a number: "Inf"`, ErrNotNumeric},
		{"NaN text is not numeric", "a\n1\nNaN\n", Options{Numeric: []string{"a"}}, `e.csv:3: column "a" (col 1): not a number: "NaN"`, ErrNotNumeric},
		{"unknown override", "a,b\n1,2\n", Options{Categorical: []string{"b", "zz"}, Ignore: []string{"yy"}}, `e.csv:1: unknown column: options name "zz", "yy", not in the file`, ErrUnknownColumn},
		{"conflicting overrides", "a,b\n1,2\n", Options{Categorical: []string{"a"}, Numeric: []string{"a"}}, `e.csv: invalid options: column "a" is in both Categorical and Numeric`, ErrOptions},
		{"empty missing marker", "a\n1\n", Options{Missing: []string{""}}, `e.csv: invalid options: empty Missing marker (the empty field is always missing)`, ErrOptions},
		{"quote delimiter", "a\n1\n", Options{Delimiter: '"'}, `e.csv: invalid options: delimiter '"'`, ErrOptions},
		{"bare quote", "a,b\n1,x\"y\n", Options{}, `e.csv:2: syntax error: bare quote in unquoted field 2`, ErrSyntax},
		{"unclosed quote", "a,b\n1,2\n3,\"abc\n4,5\n", Options{}, `e.csv:3: syntax error: quoted field 2 is not closed`, ErrSyntax},
		{"text after quote", "a,b\n1,\"x\"y\n", Options{}, `e.csv:2: syntax error: unexpected 'y' after closing quote of field 2`, ErrSyntax},
		{"line after multi-line field", "a,b\n\"x\ny\",1\n\"z\",\n3\n", Options{}, "e.csv:5: wrong number of fields: row has 1, header has 2", ErrRagged},
		{"numeric after multi-line field", "a,b\n\"x\ny\",1\nz,w\n", Options{Numeric: []string{"b"}}, `e.csv:4: column "b" (col 2): not a number: "w"`, ErrNotNumeric},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb, err := ParseCSV(strings.NewReader(tc.in), "e.csv", tc.opt)
			if err == nil {
				t.Fatalf("no error; table has %d rows", tb.NumRows)
			}
			if err.Error() != tc.want {
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

// TestCSVScannerMatchesEncodingCSV checks the hand-written tokenizer
// against encoding/csv on tricky inputs.
func TestCSVScannerMatchesEncodingCSV(t *testing.T) {
	for _, in := range []string{
		"a,b\n1,2\n",
		"a,b\r\n1,2\r\n",
		"a,b\n1,2",
		"a,b\n1,2\r",
		"a,\"b\"\r\n\"1\",\"\"\r\n",
		"a\n\n\n1\n\r\n2\n",
		"a,b\n\"x\r\ny\",\"q\"\"q\"\n",
		"a,b\n\"\"\"\",\"\"\n",
		"a\rb,c\nd,e\n",
		"a,b\n\"x\"\r",
		" a , b \n\t1,2 \n",
		",\n,\n",
		"a,\"b\nc\"\n\"d\r\ne\",f",
	} {
		compareScanners(t, in, ',')
	}
}

// compareScanners requires csvScanner and encoding/csv to agree on in:
// both fail, or both succeed with the same records.
func compareScanners(t *testing.T, in string, delim rune) {
	t.Helper()
	r := csv.NewReader(strings.NewReader(in))
	r.Comma = delim
	r.FieldsPerRecord = -1
	want, werr := r.ReadAll()
	sc := csvScanner{s: in, line: 1, delim: string(delim), d0: string(delim)[0]}
	var got [][]string
	var gerr error
	for {
		ok, err := sc.next()
		if err != nil {
			gerr = err
			break
		}
		if !ok {
			break
		}
		got = append(got, append([]string(nil), sc.fields...))
	}
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("input %q: encoding/csv error %v, csvScanner error %v", in, werr, gerr)
	}
	if werr != nil {
		return
	}
	if len(got) != len(want) {
		t.Fatalf("input %q: %d records, encoding/csv has %d: %q vs %q", in, len(got), len(want), got, want)
	}
	for i := range got {
		if !sameStrings(got[i], want[i]) {
			t.Fatalf("input %q record %d: %q, encoding/csv has %q", in, i, got[i], want[i])
		}
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
		if err := WriteCSV(&buf, first); err != nil {
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
	if err := WriteCSV(&buf, tb); err != nil {
		t.Fatal(err)
	}
	if want := "label,f1,f2,f3\n1,0,0.5,0\n2,1,0,-2\n"; buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
}
