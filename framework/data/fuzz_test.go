package data

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
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
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, opt := range []Options{{}, {Missing: []string{"NA"}}} {
			tb, err := ParseARFF(strings.NewReader(in), "fuzz.arff", opt)
			checkResult(t, tb, err)
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
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		tb, err := ParseLIBSVM(strings.NewReader(in), "fuzz.svm", Options{MaxFeatures: 1000, Missing: []string{"?"}})
		checkResult(t, tb, err)
		if err == nil && tb.Sparse == nil {
			t.Fatal("no sparse block")
		}
	})
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
