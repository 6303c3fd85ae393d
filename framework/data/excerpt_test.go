package data

import (
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/safetext"
)

// TestErrorsQuoteBoundedExcerpts: a bad value, name or token a megabyte
// long that holds a newline or an escape is quoted in the error as a
// bounded excerpt (safetext.Excerpt or Show): the message is short and
// holds no control character that a terminal would act on.
func TestErrorsQuoteBoundedExcerpts(t *testing.T) {
	mb := strings.Repeat("x", 1<<20)
	x60 := `"` + strings.Repeat("x", 60) + `"…`
	cases := []struct {
		name, file string
		opt        Options
		text, want string
	}{
		{"csv value, numeric column", "d.csv", Options{Numeric: []string{"a"}},
			"a,class\n\"" + mb + "\n\x1b[2J\",y\n",
			"d.csv:2:1: column \"a\" (col 1): not a number: " + x60 + ", then a newline (U+000A) at character 1048577"},
		{"csv value with an escape", "d.csv", Options{},
			"a,class\n" + mb + "\x1b[2J,y\n",
			"d.csv:2:1: column \"a\" (col 1): control character U+001B in value " + x60 + " (data files are text)"},
		{"csv column name", "d.csv", Options{},
			"a," + mb + "\x1b\n1,y\n",
			"d.csv:1:3: col 2: column name: control character U+001B in value " + x60 + " (data files are text)"},
		{"a column the options name", "d.csv", Options{Ignore: []string{mb + "\x1b"}},
			"a,class\n1,y\n",
			"d.csv:1: unknown column: options name " + x60 + ", not in the file"},
		{"arff numeric value", "d.arff", Options{},
			"@relation r\n@attribute a numeric\n@attribute c {y}\n@data\n" + mb + "\x1b[2J,y\n",
			"d.arff:5: column \"a\" (col 1): not a number: " + x60 + ", then an escape (U+001B) at character 1048577"},
		{"arff undeclared value", "d.arff", Options{},
			"@relation r\n@attribute a numeric\n@attribute c {y}\n@data\n1," + mb + "\x1b\n",
			"d.arff:5: column \"c\" (col 2): undeclared nominal value " + x60 + ", then an escape (U+001B) at character 1048577 (declared: {\"y\"})"},
		{"arff declaration", "d.arff", Options{},
			"@relation r\n@" + mb + "\x1b\n",
			"d.arff:2: syntax error: unknown declaration \"@" + strings.Repeat("x", 59) + "\"…, then an escape (U+001B) at character 1048578"},
		{"libsvm value", "d.libsvm", Options{},
			"1 1:" + mb + "\x1b\n",
			"d.libsvm:1: column \"f1\": not a number: token 2: value " + x60 + ", then an escape (U+001B) at character 1048577"},
		{"libsvm token", "d.libsvm", Options{},
			"1 " + mb + "\x1b\n",
			"d.libsvm:1: syntax error: token 2 " + x60 + ", then an escape (U+001B) at character 1048577 is not index:value"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := readAt(t, c.file, []byte(c.text), c.opt)
			if !strings.HasPrefix(got, c.want) {
				t.Errorf("got  %.300q\nwant %q…", got, c.want)
			}
			if len(got) > 500 {
				t.Errorf("message of %d bytes, want at most 500", len(got))
			}
			if err := safetext.Check(got); err != nil {
				t.Errorf("message %v: %.200q", err, got)
			}
		})
	}
}

// TestLabelErrorBounded: a class label a megabyte long holding a newline
// is quoted in CanonicalClasses's error cut to 60 characters, escaped.
func TestLabelErrorBounded(t *testing.T) {
	mb := strings.Repeat("x", 1<<20)
	tb, err := ParseCSV(strings.NewReader("a,class\n1,\""+mb+"\nz\"\n"), "d.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := tb.Lookup("class")
	_, err = c.CanonicalClasses()
	want := `data row 1: class label holds a control character U+000A: "` + strings.Repeat("x", 60) + `"…`
	if err == nil || err.Error() != want {
		t.Errorf("got  %.300v\nwant %s", err, want)
	}
}
