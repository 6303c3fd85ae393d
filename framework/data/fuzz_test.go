package data

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/polyclass/polyclass/framework/safetext"
)

// addFiles adds the content of testdata files to a fuzz corpus.
func addFiles(f *testing.F, names ...string) {
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
}

func FuzzParseCSV(f *testing.F) {
	for _, s := range []string{
		"a,b\n1,2\n",
		"a,b,c\r\n1.5,x,\r\n,\"y,z\",3\r\n",
		"\uFEFFa\n\"q\"\"\"\n\n?\n",
		"a,b\n\"x\ny\",1\n3,\"\"\n",
		"a,a\n1,2\n",
		"a,b\n1\n",
		"x\n1e309\nNaN\n-0\n",
		"a,b\n1,x\"y\n",
		"a\n\"\"\n\"\"\n",
		"a,b\n\"x\"\r",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, opt := range []Options{{}, {Missing: []string{"?", "NA"}, Delimiter: ';'}} {
			tb, err := ParseCSV(strings.NewReader(in), "fuzz.csv", opt)
			checkResult(t, tb, err)
			if err == nil {
				checkUTF8(t, tb)
				checkCanonicals(t, tb)
			}
			if err != nil || opt.Delimiter != 0 || !roundTrippable(tb) {
				continue
			}
			// Round trip through WriteCSV.
			var buf bytes.Buffer
			if err := writeCSV(&buf, tb); err != nil {
				t.Fatal(err)
			}
			var cats []string
			for _, c := range tb.Columns {
				if c.Kind == Categorical {
					cats = append(cats, c.Name)
				}
			}
			out := buf.String()
			again, err := ParseCSV(strings.NewReader(out), "again.csv", Options{Categorical: cats})
			if err != nil {
				t.Fatalf("re-reading %q: %v", out, err)
			}
			if !sameTable(tb, again) {
				t.Fatalf("round trip changed the table; wrote %q", out)
			}
		}
	})
}

func FuzzParseARFF(f *testing.F) {
	addFiles(f, "testdata/mini_emotions.arff")
	for _, s := range []string{
		"@relation r\n@attribute a numeric\n@attribute b {x,y}\n@data\n1,x\n?,y\n",
		"@relation 'r: -C -1'\n@attribute 'a b' real\n@attribute c {'p q',r}\n@data\n{0 1, 1 'p q'}\n{}\n",
		"@relation r\n@attribute s string\n@attribute d date\n@data\n'it\\'s',2001\n",
		"@relation r\n@attribute a {}\n@data\n?\n",
		"@relation \"x\"\n@attribute a integer % c\n@data\n%c\n3\n",
		"@relation r\n@attribute a integer\n@attribute s string\n@data\n3 % c\n4,'%'%c\n{0 5} %\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, opt := range []Options{{}, {Missing: []string{"NA"}}} {
			tb, err := ParseARFF(strings.NewReader(in), "fuzz.arff", opt)
			checkResult(t, tb, err)
			if err == nil {
				checkCanonicals(t, tb)
			}
			if err == nil && tb.LabelCount != 0 && len(tb.Labels) > len(tb.Columns) {
				t.Fatalf("%d labels for %d columns", len(tb.Labels), len(tb.Columns))
			}
		}
	})
}

func FuzzParseLIBSVM(f *testing.F) {
	addFiles(f, "testdata/mini.libsvm", "testdata/mini_multilabel.libsvm")
	for _, s := range []string{
		"1 1:1 2:2\n-1 3:0.5\n",
		"1,2 1:1\n 2:3\n",
		"# c\n\n3 qid:1 1:1\n",
		"1 0:1\n",
		"a 1:nan\n",
		"1\n2\n",
		"1,2 1:1\n+1 1:2\n2.0,01 1:3\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		tb, err := ParseLIBSVM(strings.NewReader(in), "fuzz.svm", Options{MaxFeatures: 1000, Missing: []string{"?"}})
		checkResult(t, tb, err)
		if err == nil && tb.Sparse == nil {
			t.Fatal("no sparse block")
		}
		if err == nil {
			checkCanonicals(t, tb)
			checkLabelColumns(t, tb)
		}
	})
}

// checkLabelColumns checks that no two label columns of a multi-label
// LIBSVM table whose labels are all numbers are one number.
func checkLabelColumns(t *testing.T, tb *Table) {
	t.Helper()
	var names []string
	vals := map[string]float64{}
	for _, c := range tb.Columns {
		lab, ok := strings.CutPrefix(c.Name, "label_")
		if !ok {
			return
		}
		v, kind := parseNum(lab)
		if kind != numFinite {
			return // some label is text: labels compare as text
		}
		names, vals[c.Name] = append(names, c.Name), v
	}
	seen := map[float64]string{}
	for _, n := range names {
		if prev, ok := seen[vals[n]]; ok {
			t.Fatalf("columns %q and %q are one label", prev, n)
		}
		seen[vals[n]] = n
	}
}

// checkUTF8 requires every column name and level of tb to be valid UTF-8,
// as protobuf strings must be.
func checkUTF8(t *testing.T, tb *Table) {
	t.Helper()
	for _, c := range tb.Columns {
		if !utf8.ValidString(c.Name) {
			t.Fatalf("column name %q is not valid UTF-8", c.Name)
		}
		for _, l := range c.Levels {
			if !utf8.ValidString(l) {
				t.Fatalf("column %q: level %q is not valid UTF-8", c.Name, l)
			}
		}
	}
}

// roundTrippable reports whether WriteCSV can represent tb exactly: CSV
// readers turn a CRLF inside a quoted field into LF, and a leading byte
// order mark is dropped.
func roundTrippable(tb *Table) bool {
	if strings.HasPrefix(tb.Columns[0].Name, "\uFEFF") {
		return false
	}
	for _, c := range tb.Columns {
		if strings.Contains(c.Name, "\r\n") {
			return false
		}
		for _, l := range c.Levels {
			if strings.Contains(l, "\r\n") {
				return false
			}
		}
	}
	return true
}

// FuzzCanonicalClasses reads each line of its input as the class of a row
// (an empty line is a missing class) and checks CanonicalClasses's
// invariant: when every class is a number, two spellings of one number
// never yield two classes, and every row keeps its number; otherwise the
// classes are left as written.
func FuzzCanonicalClasses(f *testing.F) {
	for _, s := range []string{
		"1\n1.0\n2\n2.0",
		"01\n1\n+1\n-1",
		"1\n1.0\nx",
		"-0\n0\n0.0e5\n\n1e400",
		" 1\n1\t\n1_0\n0x1",
		"0.1\n0.10000000000000001\n1e-7\n1E-07",
		"set\nosa\na\tb",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var levels []string
		index := map[string]int32{}
		var codes []int32
		for v := range strings.SplitSeq(in, "\n") {
			if v == "" {
				codes = append(codes, -1)
				continue
			}
			if _, ok := index[v]; !ok {
				index[v] = int32(len(levels))
				levels = append(levels, v)
			}
			codes = append(codes, index[v])
		}
		checkCanonical(t, &Column{Name: "class", Kind: Categorical, Levels: levels, Codes: codes})
	})
}

// checkCanonicals checks CanonicalClasses on every categorical column of
// tb, as if it were the target.
func checkCanonicals(t *testing.T, tb *Table) {
	t.Helper()
	for i := range tb.Columns {
		if tb.Columns[i].Kind == Categorical {
			checkCanonical(t, &tb.Columns[i])
		}
	}
}

// checkSpellingError requires each group of se to hold two levels or
// more of levels that differ as text and read as one (safetext.Fold).
func checkSpellingError(t *testing.T, se *SpellingError, levels []string) {
	t.Helper()
	for _, g := range se.Groups {
		if len(g.Spellings) < 2 {
			t.Fatalf("%v: a group of one for levels %q", se, levels)
		}
		for _, sp := range g.Spellings {
			if !slices.Contains(levels, sp.Text) || safetext.Fold(sp.Text) != safetext.Fold(g.Spellings[0].Text) {
				t.Fatalf("%v for levels %q", se, levels)
			}
		}
	}
}

// checkCanonical runs CanonicalClasses on a copy of categorical column c
// and checks its invariant (see FuzzCanonicalClasses).
func checkCanonical(t *testing.T, c *Column) {
	t.Helper()
	cc := Column{Name: c.Name, Kind: c.Kind, Levels: slices.Clone(c.Levels), Codes: slices.Clone(c.Codes)}
	_, err := cc.CanonicalClasses()
	if se := (*SpellingError)(nil); errors.As(err, &se) {
		checkSpellingError(t, se, c.Levels)
		return
	}
	if err != nil {
		var le *LabelError
		if !errors.As(err, &le) || controlIndex(le.Value) < 0 || !slices.Contains(c.Levels, le.Value) {
			t.Fatalf("error %v for levels %q", err, c.Levels)
		}
		return
	}
	allNumbers := true
	for _, l := range c.Levels {
		if _, kind := parseNum(l); kind != numFinite {
			allNumbers = false
		}
	}
	for i, code := range c.Codes {
		if (code < 0) != (cc.Codes[i] < 0) {
			t.Fatalf("row %d: missing changed (%d → %d)", i, code, cc.Codes[i])
		}
		if code < 0 {
			continue
		}
		was, now := c.Levels[code], cc.Levels[cc.Codes[i]]
		v, _ := parseNum(was)
		w, _ := parseNum(now)
		if (allNumbers && v != w) || (!allNumbers && was != now) {
			t.Fatalf("row %d: class %q became %q", i, was, now)
		}
	}
	if !allNumbers {
		return
	}
	seen := map[float64]string{}
	for _, l := range cc.Levels {
		v, _ := parseNum(l)
		if prev, ok := seen[v]; ok {
			t.Fatalf("classes %q and %q are one number (levels before: %q)", prev, l, c.Levels)
		}
		seen[v] = l
	}
}

// FuzzWrittenNumber checks writtenNumber's invariants: a value it reads
// as a number is no number as written, the number it gives is one, with
// one mark at least and no mark named twice; a plain number has no marks.
func FuzzWrittenNumber(f *testing.F) {
	for _, s := range []string{
		"1 212,75 €", "\u22121.4 cm", "(1,212.75)", "'1.4", "1.5D-03", "\uff11\uff0e\uff12",
		"\u0661\u066b\u0664", "1.4\u00a0", "~1,4 \u00b1 0,1", "1.4*", "0x1.8p+0", "+ 1.4", "1.4", "3A",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		num, marks := writtenNumber(s)
		if _, kind := parseNum(s); kind == numFinite && (num != "" || marks != nil) {
			t.Fatalf("writtenNumber(%q) = %q, %q for a number as written", s, num, marks)
		}
		if num == "" {
			if marks != nil {
				t.Fatalf("writtenNumber(%q) gives marks %q and no number", s, marks)
			}
			return
		}
		if _, kind := parseNum(num); kind != numFinite || len(marks) == 0 {
			t.Fatalf("writtenNumber(%q) = %q (%v), %q", s, num, kind, marks)
		}
		for i, m := range marks {
			if m == "" || slices.Contains(marks[i+1:], m) {
				t.Fatalf("writtenNumber(%q): marks %q", s, marks)
			}
		}
	})
}
