package data

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// boundFormats are a file of each format: its header and one row of
// three values (for LIBSVM, a label and two features).
var boundFormats = []struct {
	name, header, row string
	parse             func(io.Reader, string, Options, int64) (*Table, error)
}{
	{"d.csv", "a,b,c\n", "1,2,x\n", parseCSV},
	{"d.arff", "@relation r\n@attribute a numeric\n@attribute b numeric\n@attribute c {x}\n@data\n", "1,2,x\n", parseARFF},
	{"d.libsvm", "", "1 1:2 2:3\n", parseLIBSVM},
}

// manyRows returns header followed by n copies of row.
func manyRows(header, row string, n int) string {
	return header + strings.Repeat(row, n)
}

// gzipped returns s gzip-compressed.
func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// readAt writes content to a file name in a new directory and reads it
// with opt, returning the error with the directory left out.
func readAt(t *testing.T, name string, content []byte, opt Options) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Read(path, opt)
	if err == nil {
		return ""
	}
	return strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), "")
}

func TestRowAndValueBounds(t *testing.T) {
	// The line of row 1001 (rows bound 1000) and of row 4 (values
	// bound 10: 4 rows of 3 values are 12) in each format.
	rowLines := map[string][2]int{"d.csv": {1002, 5}, "d.arff": {1006, 9}, "d.libsvm": {1001, 4}}
	for _, f := range boundFormats {
		lines := rowLines[f.name]
		text := manyRows(f.header, f.row, 5000)
		for _, gz := range []bool{false, true} {
			name, content := f.name, []byte(text)
			if gz {
				name, content = name+".gz", gzipped(t, text)
			}
			cases := []struct {
				what   string
				bounds bounds
				want   string
			}{
				{"rows", bounds{rows: 1000}, name + ":" + strconv.Itoa(lines[0]) + ": row 1001: more than 1000 rows, the most a dataset may hold"},
				{"values", bounds{values: 10}, name + ":" + strconv.Itoa(lines[1]) + ": row 4: more than 10 values (rows × columns), the most a dataset may hold"},
				{"within", bounds{rows: 5000, values: 15000}, ""},
			}
			for _, c := range cases {
				t.Run(name+"/"+c.what, func(t *testing.T) {
					got := readAt(t, name, content, Options{bounds: c.bounds})
					if got != c.want {
						t.Errorf("got  %q\nwant %q", got, c.want)
					}
				})
			}
		}
	}
}

func TestBoundsErrorIsTooLarge(t *testing.T) {
	err := bounds{rows: 2, values: 100}.check(3, 3)
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("%v is not ErrTooLarge", err)
	}
	if got := (&Options{}).limits(); got != (bounds{rows: 1 << 23, values: 1 << 25, bytes: 1 << 29}) {
		t.Errorf("default bounds %+v, want 2^23 rows, 2^25 values and 2^29 bytes", got)
	}
}

// TestGzipOfManyRowsStopped reads a small gzip stream of a million rows
// with a bound of 1000 rows: each reader stops within the first part of
// the stream instead of reading (and holding) all of it.
func TestGzipOfManyRowsStopped(t *testing.T) {
	for _, f := range boundFormats {
		t.Run(f.name, func(t *testing.T) {
			text := manyRows(f.header, f.row, 1_000_000)
			zr, err := gzip.NewReader(bytes.NewReader(gzipped(t, text)))
			if err != nil {
				t.Fatal(err)
			}
			c := &countingReader{r: zr}
			_, err = f.parse(c, f.name+".gz", Options{bounds: bounds{rows: 1000}}, 0)
			if !errors.Is(err, ErrTooLarge) {
				t.Fatalf("err = %v, want ErrTooLarge", err)
			}
			if c.n > 1<<20 {
				t.Errorf("read %d of the %d bytes before stopping, want at most 1 MiB", c.n, len(text))
			}
		})
	}
}

// TestTestFileBounded: a test file that takes its training file over the
// bound is refused by name, at its row that passes it.
func TestTestFileBounded(t *testing.T) {
	dir := t.TempDir()
	train, test := filepath.Join(dir, "train.csv"), filepath.Join(dir, "test.csv.gz")
	if err := os.WriteFile(train, []byte(manyRows("a,b,c\n", "1,2,x\n", 10)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(test, gzipped(t, manyRows("a,b,c\n", "1,2,x\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	opt := Options{bounds: bounds{rows: 50}}
	tb, err := Read(train, opt)
	if err != nil {
		t.Fatal(err)
	}
	_, err = ReadTest(train, test, tb, opt)
	want := test + ":42: row 41: more than 50 rows with the training file's 10, the most a dataset may hold"
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}

// TestGzipDamagedOrMisnamed: gzip data in a file not named .gz, and a
// gzip stream cut short, say so rather than give a CSV syntax error.
func TestGzipDamagedOrMisnamed(t *testing.T) {
	text := manyRows("a,b,c\n", "1,2,x\n", 3)
	gz := gzipped(t, text)
	cases := []struct {
		name    string
		content []byte
		want    string
	}{
		{"d.csv", gz, "d.csv: syntax error: the file holds gzip data (it starts with the bytes 1f 8b): name it d.csv.gz, or gunzip it"},
		{"d.arff", gz, "d.arff: syntax error: the file holds gzip data (it starts with the bytes 1f 8b): name it d.arff.gz, or gunzip it"},
		{"d.csv.gz", gz[:len(gz)-4], "d.csv.gz:5: the gzip stream is damaged or cut short: unexpected EOF"},
		{"d.libsvm.gz", gzipped(t, "1 1:2\n2 1:3\n")[:20], "d.libsvm.gz:2: the gzip stream is damaged or cut short: unexpected EOF"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := readAt(t, c.name, c.content, Options{})
			if got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// TestTextBytesBounded: a CSV or ARFF file stops at the row whose text
// (after gunzip) passes the bytes bound, located: a reader keeps each
// value's text while it infers the column's type, and values of many
// digits took memory that the values bound did not bound (campaign 7
// A22: 8.4 million rows of 8 columns, within the rows and values bounds
// of the day, ran validate out of memory).
func TestTextBytesBounded(t *testing.T) {
	long := strings.Repeat("1", 90)
	for _, tc := range []struct {
		name, text, want string
	}{
		{"d.csv", "a,class\n" + strings.Repeat(long+",x\n", 50), "d.csv:12: row 11: more than 1000 bytes of text, the most a dataset may hold"},
		{"d.arff", "@relation r\n@attribute a numeric\n@attribute class {x}\n@data\n" + strings.Repeat(long+",x\n", 50), "d.arff:15: row 11: more than 1000 bytes of text, the most a dataset may hold"},
	} {
		for _, gz := range []bool{false, true} {
			name, content := tc.name, []byte(tc.text)
			want := tc.want
			if gz {
				name, content = name+".gz", gzipped(t, tc.text)
				want = strings.Replace(want, tc.name, name, 1)
			}
			t.Run(name, func(t *testing.T) {
				if got := readAt(t, name, content, Options{bounds: bounds{bytes: 1000}}); got != want {
					t.Errorf("got  %q\nwant %q", got, want)
				}
			})
		}
	}
}
