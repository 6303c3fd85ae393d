package data

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// String describes what CanonicalClasses did, for tests: each merged (or
// kept apart) class with its spellings and their first rows (1-based).
func (n ClassNames) String() string {
	list := func(ms []ClassMerge) string {
		var parts []string
		for _, m := range ms {
			var sp []string
			for _, s := range m.Spellings {
				sp = append(sp, fmt.Sprintf("%q@%d", s.Text, s.Row+1))
			}
			parts = append(parts, m.Class+"="+strings.Join(sp, ","))
		}
		return strings.Join(parts, " ")
	}
	switch {
	case n.Merged != nil && n.Booleans:
		return "merged booleans " + list(n.Merged)
	case n.Merged != nil:
		return "merged " + list(n.Merged)
	case n.Apart != nil:
		if n.TextOutOfRange {
			return fmt.Sprintf("apart %s (text %q@%d, out of range)", list(n.Apart), n.Text.Text, n.Text.Row+1)
		}
		return fmt.Sprintf("apart %s (text %q@%d)", list(n.Apart), n.Text.Text, n.Text.Row+1)
	}
	return ""
}

// TestCanonicalClasses reads a class column of each format as the engine
// does (categorical) and checks CanonicalClasses: spellings of one number
// (1 and 1.0, 01 and 1, +1 and 1) are one class named by the number's
// shortest form when every value is a number, stay apart (and are told)
// when some value is text, and are left as written when no two collide; a
// label with a control character is refused with its row.
// TestDecimalForm: the spellings of one number beyond float64's range
// have one form; numbers in range and other text have none.
func TestDecimalForm(t *testing.T) {
	for _, tc := range []struct{ s, want string }{
		{"1e-400", "1e-400"}, {"1.0e-400", "1e-400"}, {"10E-401", "1e-400"}, {"0.01e-398", "1e-400"}, {" 1e-400 ", "1e-400"},
		{"+1e-400", "1e-400"}, {"-1.50e-400", "-1.5e-400"}, {"12e999", "1.2e1000"}, {"1200e997", "1.2e1000"}, {".5e-400", "5e-401"},
		{"1e400", "1e400"}, {"00012.3400e500", "1.234e501"},
		{"1e-300", ""}, {"1", ""}, {"0e-999", ""}, {"inf", ""}, {"nan", ""}, {"x", ""}, {"0x1p-2000", ""}, {"1_0e-400", ""},
		{"1e-99999999999999999999", ""}, {"", ""},
	} {
		if got, ok := decimalForm(tc.s); got != tc.want || ok != (tc.want != "") {
			t.Errorf("decimalForm(%q) = %q, %v, want %q", tc.s, got, ok, tc.want)
		}
	}
}

func TestCanonicalClasses(t *testing.T) {
	arff := func(class, rows string) string {
		return "@relation r\n@attribute a numeric\n@attribute class " + class + "\n@data\n" + rows
	}
	for _, tc := range []struct {
		name, file, text, column string
		levels                   []string // the levels after
		rows                     []string // each row's class after
		names, err               string
		is                       error // the error's sentinel; nil: ErrClassLabel
	}{
		{name: "csv 1 1.0 2 2.0", file: "d.csv", column: "class",
			text:   "a,class\n1,1\n2,1.0\n3,2\n4,2.0\n5,1\n",
			levels: []string{"1", "2"}, rows: []string{"1", "1", "2", "2", "1"},
			names: `merged 1="1"@1,"1.0"@2 2="2"@3,"2.0"@4`},
		{name: "csv 01 and 1", file: "d.csv", column: "class",
			text:   "a,class\n1,01\n2,1\n3,2\n",
			levels: []string{"1", "2"}, rows: []string{"1", "1", "2"},
			names: `merged 1="01"@1,"1"@2`},
		{name: "csv renames every class once two collide", file: "d.csv", column: "class",
			text:   "a,class\n1,1\n2,1.0\n3,2.50\n4,-0\n5,0\n",
			levels: []string{"1", "2.5", "0"}, rows: []string{"1", "1", "2.5", "0", "0"},
			names: `merged 1="1"@1,"1.0"@2 2.5="2.50"@3 0="-0"@4,"0"@5`},
		// campaign 11's B24: whole numbers are compared exactly, as pandas
		// reads them (int64); float64 cannot tell these two apart.
		{name: "csv whole numbers beyond 2^53 stay apart", file: "d.csv", column: "class",
			text:   "a,class\n1,9007199254740993\n2,9007199254740992\n3,09007199254740993\n",
			levels: []string{"9007199254740993", "9007199254740992"}, rows: []string{"9007199254740993", "9007199254740992", "9007199254740993"},
			names: `merged 9007199254740993="9007199254740993"@1,"09007199254740993"@3`},
		{name: "csv whole numbers keep their digits", file: "d.csv", column: "class",
			text:   "a,class\n1,1000000\n2,+1000000\n3,-00\n4,0\n",
			levels: []string{"1000000", "0"}, rows: []string{"1000000", "1000000", "0", "0"},
			names: `merged 1000000="1000000"@1,"+1000000"@2 0="-00"@3,"0"@4`},
		{name: "csv a decimal among them compares as float64, as pandas does", file: "d.csv", column: "class",
			text:   "a,class\n1,9007199254740993\n2,9007199254740992\n3,1.5\n",
			levels: []string{"9.007199254740992e+15", "1.5"}, rows: []string{"9.007199254740992e+15", "9.007199254740992e+15", "1.5"},
			names: `merged 9.007199254740992e+15="9007199254740993"@1,"9007199254740992"@2`},
		{name: "csv blanks around a number", file: "d.csv", column: "class",
			text:   "a,class\n1, 1\n2,1\n3,2\n",
			levels: []string{"1", "2"}, rows: []string{"1", "1", "2"},
			names: `merged 1=" 1"@1,"1"@2`},
		{name: "csv missing class stays missing", file: "d.csv", column: "class",
			text:   "a,class\n1,1\n2,\n3,1e0\n4,2\n",
			levels: []string{"1", "2"}, rows: []string{"1", "", "1", "2"},
			names: `merged 1="1"@1,"1e0"@3`},
		{name: "csv no collision keeps the text", file: "d.csv", column: "class",
			text:   "a,class\n1,1.0\n2,2.0\n3,10\n",
			levels: []string{"1.0", "2.0", "10"}, rows: []string{"1.0", "2.0", "10"}},
		{name: "csv text keeps spellings apart", file: "d.csv", column: "class",
			text:   "a,class\n1,1\n2,1.0\n3,x\n4,1\n",
			levels: []string{"1", "1.0", "x"}, rows: []string{"1", "1.0", "x", "1"},
			names: `apart 1="1"@1,"1.0"@2 (text "x"@3)`},
		{name: "csv true True TRUE false", file: "d.csv", column: "class",
			text:   "a,class\n1,true\n2,True\n3,false\n4,TRUE\n5, False\n",
			levels: []string{"true", "false"}, rows: []string{"true", "true", "false", "true", "false"},
			names: `merged booleans true="true"@1,"True"@2,"TRUE"@4 false="false"@3," False"@5`},
		{name: "csv True and False alone keep their text", file: "d.csv", column: "class",
			text:   "a,class\n1,True\n2,False\n",
			levels: []string{"True", "False"}, rows: []string{"True", "False"}},
		{name: "csv text beside booleans keeps them apart", file: "d.csv", column: "class",
			text:   "a,class\n1,true\n2,True\n3,maybe\n",
			levels: []string{"true", "True", "maybe"}, rows: []string{"true", "True", "maybe"}},
		{name: "arff nominal TRUE true false", file: "d.arff", column: "class",
			text:   arff("{TRUE,true,false}", "1,TRUE\n2,true\n3,false\n"),
			levels: []string{"true", "false"}, rows: []string{"true", "true", "false"},
			names: `merged booleans true="TRUE"@1,"true"@2`},
		// Numbers beyond float64's range count as text; the spellings of
		// one such number are grouped by its decimal value and stay apart.
		{name: "csv out-of-range spellings of one number", file: "d.csv", column: "class",
			text:   "a,class\n1,1\n2,1.0e-400\n3,1e-400\n4,2\n5,10E-401\n6,1e-401\n",
			levels: []string{"1", "1.0e-400", "1e-400", "2", "10E-401", "1e-401"}, rows: []string{"1", "1.0e-400", "1e-400", "2", "10E-401", "1e-401"},
			names: `apart 1e-400="1.0e-400"@2,"1e-400"@3,"10E-401"@5 (text "1.0e-400"@2, out of range)`},
		{name: "csv hexadecimal is text", file: "d.csv", column: "class",
			text:   "a,class\n1,16\n2,0x10\n",
			levels: []string{"16", "0x10"}, rows: []string{"16", "0x10"}},
		{name: "csv newline in a label", file: "d.csv", column: "class",
			text: "a,class\n1,setosa\n2,\"set\nosa\"\n",
			err:  `data row 2: class label holds a control character U+000A: "set\nosa"`},
		{name: "csv tab in a label", file: "d.csv", column: "class",
			text: "a,class\n1,a\tb\n2,c\n",
			err:  `data row 1: class label holds a control character U+0009: "a\tb"`},
		{name: "csv zero-width space in a label", file: "d.csv", column: "class",
			text: "a,class\n1,setosa\n2,set\u200bosa\n", is: ErrHiddenLabel,
			err: `data row 2: class label holds a bidi control or other invisible (default-ignorable) character U+200B: "set\u200bosa"`},
		{name: "csv right-to-left override in a label", file: "d.csv", column: "class",
			text: "a,class\n1,\u202eablo\n2,b\n", is: ErrHiddenLabel,
			err: `data row 1: class label holds a bidi control or other invisible (default-ignorable) character U+202E: "\u202eablo"`},
		{name: "csv word joiner in a label", file: "d.csv", column: "class",
			text: "a,class\n1,b\n2,a\u2060\n", is: ErrHiddenLabel,
			err: `data row 2: class label holds a bidi control or other invisible (default-ignorable) character U+2060: "a\u2060"`},
		{name: "csv isolate in a label", file: "d.csv", column: "class",
			text: "a,class\n1,b\n2,\u2067a\u2069\n", is: ErrHiddenLabel,
			err: `data row 2: class label holds a bidi control or other invisible (default-ignorable) character U+2067: "\u2067a\u2069"`},
		{name: "csv BOM inside a label", file: "d.csv", column: "class",
			text: "a,class\n1,b\n2,a\ufeff\n", is: ErrHiddenLabel,
			err: `data row 2: class label holds a bidi control or other invisible (default-ignorable) character U+FEFF: "a\ufeff"`},
		{name: "csv line separator in a label", file: "d.csv", column: "class",
			text: "a,class\n1,b\n2,set\u2028osa\n", is: ErrClassLabel,
			err: `data row 2: class label holds a control character U+2028: "set\u2028osa"`},
		{name: "csv paragraph separator in a label", file: "d.csv", column: "class",
			text: "a,class\n1,b\n2,a\u2029\n", is: ErrClassLabel,
			err: `data row 2: class label holds a control character U+2029: "a\u2029"`},
		{name: "csv NFC collision", file: "d.csv", column: "class",
			text: "a,class\n1,caf\u00e9\n2,x\n3,cafe\u0301\n", is: ErrLabelSpellings,
			err: `class labels read as one but are spelled differently: "caf\u00e9" (data row 1), "cafe\u0301" (data row 3)`},
		{name: "csv blanks around a label", file: "d.csv", column: "class",
			text: "a,class\n1,setosa\n2,setosa \n3, setosa\n4,virginica\n5,\"virginica\t\"\n", is: ErrClassLabel,
			err: `data row 5: class label holds a control character U+0009: "virginica\t"`},
		{name: "csv blanks around labels, two groups", file: "d.csv", column: "class",
			text: "a,class\n1,setosa\n2,setosa \n3, setosa\n4,virginica\n5,virginica  \n", is: ErrLabelSpellings,
			err: `class labels read as one but are spelled differently: "setosa" (data row 1), "setosa " (data row 2), " setosa" (data row 3); "virginica" (data row 4), "virginica  " (data row 5)`},
		// campaign 11b's BM6: a run of spaces shows as one in HTML and Markdown.
		{name: "csv spaces inside labels", file: "d.csv", column: "class",
			text: "a,class\n1,New York\n2,New  York\n3,New\u00a0York\n4,Boston\n", is: ErrLabelSpellings,
			err: `class labels read as one but are spelled differently: "New York" (data row 1), "New  York" (data row 2), "New\u00a0York" (data row 3)`},
		{name: "csv blank around a number in a text column", file: "d.csv", column: "class",
			text: "a,class\n1,1\n2, 1\n3,x\n", is: ErrLabelSpellings,
			err: `class labels read as one but are spelled differently: "1" (data row 1), " 1" (data row 2)`},
		{name: "arff nominal NFC collision declared", file: "d.arff", column: "class", is: ErrLabelSpellings,
			text: arff("{caf\u00e9,cafe\u0301,x}", "1,x\n2,caf\u00e9\n"),
			err:  `class labels read as one but are spelled differently: "caf\u00e9" (data row 2), "cafe\u0301" (declared)`},
		{name: "arff nominal zero-width declared", file: "d.arff", column: "class", is: ErrHiddenLabel,
			text: arff("{a,b\u200c}", "1,a\n"),
			err:  `declared value: class label holds a bidi control or other invisible (default-ignorable) character U+200C: "b\u200c"`},
		{name: "libsvm NFC collision", file: "d.libsvm", column: "label", is: ErrLabelSpellings,
			text: "caf\u00e9 1:0.5\ncafe\u0301 1:0.7\n",
			err:  `class labels read as one but are spelled differently: "caf\u00e9" (data row 1), "cafe\u0301" (data row 2)`},
		{name: "libsvm zero-width label", file: "d.libsvm", column: "label", is: ErrHiddenLabel,
			text: "a 1:0.5\na\u200d 1:0.7\n",
			err:  `data row 2: class label holds a bidi control or other invisible (default-ignorable) character U+200D: "a\u200d"`},
		{name: "csv distinct accents kept", file: "d.csv", column: "class",
			text:   "a,class\n1,caf\u00e9\n2,cafe\n",
			levels: []string{"caf\u00e9", "cafe"}, rows: []string{"caf\u00e9", "cafe"}},
		{name: "arff numeric class 1 1.0", file: "d.arff", column: "class",
			text:   arff("numeric", "1,1\n2,1.0\n3,2\n"),
			levels: []string{"1", "2"}, rows: []string{"1", "1", "2"},
			names: `merged 1="1"@1,"1.0"@2`},
		{name: "arff nominal class declared 1 1.0", file: "d.arff", column: "class",
			text:   arff("{2,1,1.0,3}", "1,1\n2,1.0\n3,2\n"),
			levels: []string{"2", "1", "3"}, rows: []string{"1", "1", "2"},
			names: `merged 1="1"@1,"1.0"@2`},
		{name: "arff nominal declared only spelling", file: "d.arff", column: "class",
			text:   arff("{1,1.0,2}", "1,1\n2,2\n"),
			levels: []string{"1", "2"}, rows: []string{"1", "2"},
			names: `merged 1="1"@1,"1.0"@0`},
		{name: "libsvm +1 and 1", file: "d.libsvm", column: "label",
			text:   "+1 1:0.5\n1 1:0.7\n-1 1:0.1\n",
			levels: []string{"1", "-1"}, rows: []string{"1", "1", "-1"},
			names: `merged 1="+1"@1,"1"@2`},
		{name: "libsvm +1 and -1 kept", file: "d.libsvm", column: "label",
			text:   "+1 1:0.5\n-1 1:0.1\n",
			levels: []string{"+1", "-1"}, rows: []string{"+1", "-1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := t.TempDir() + "/" + tc.file
			writeFile(t, path, tc.text)
			tb, err := Read(path, Options{Categorical: []string{tc.column}})
			if err != nil {
				t.Fatal(err)
			}
			col, _ := tb.Lookup(tc.column)
			names, err := col.CanonicalClasses()
			if tc.err != "" {
				is := tc.is
				if is == nil {
					is = ErrClassLabel
				}
				if err == nil || err.Error() != tc.err || !errors.Is(err, is) {
					t.Fatalf("error %v, want %s (%v)", err, tc.err, is)
				}
				var le *LabelError
				var se *SpellingError
				if is == ErrLabelSpellings && !errors.As(err, &se) || is != ErrLabelSpellings && !errors.As(err, &le) {
					t.Fatalf("error %T, want a *SpellingError or a *LabelError", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := names.String(); got != tc.names {
				t.Errorf("names: %s, want %s", got, tc.names)
			}
			vals, levels := cat(t, tb, tc.column)
			if !sameStrings(levels, tc.levels) || !sameStrings(vals, tc.rows) {
				t.Errorf("levels %q rows %q, want %q %q", levels, vals, tc.levels, tc.rows)
			}
		})
	}
}

// writeFile writes text to path, failing the test on an error.
func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
